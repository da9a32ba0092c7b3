import type { KubeObject } from '@paddock/kube';
import type { ServiceObject } from '../../toolregistry/index.js';

/** A core/v1 Service, as much of it as tool discovery reads. */
export interface Service extends KubeObject {
  spec?: {
    type?: string;
    clusterIP?: string;
    externalName?: string;
    ports?: { name?: string; port: number }[];
  };
}

/**
 * The Service as discovery addresses it. An ExternalName Service is only a DNS alias of its
 * external name, so the operator connects to that name directly: it works the same from inside
 * and from outside the cluster, and it is how a Service can point at a server the cluster does
 * not run (a local one, for instance). Other Services are reached at their cluster address.
 */
export function discoveryService(service: Service): ServiceObject {
  const spec = service.spec;
  const external =
    spec?.type === 'ExternalName' && spec.externalName !== undefined && spec.externalName !== ''
      ? spec.externalName
      : undefined;
  return {
    metadata: {
      name: service.metadata?.name,
      namespace: service.metadata?.namespace,
      labels: service.metadata?.labels,
      annotations: service.metadata?.annotations,
    },
    spec: {
      clusterIP: external ?? spec?.clusterIP,
      ports: spec?.ports?.map((p) => ({ port: p.port })),
    },
  };
}
