import type { ObjectMeta } from '@paddock/kube';

/** The fields of a pod that say how it is reached. */
export interface EndpointPod {
  metadata: ObjectMeta;
  spec?: {
    hostname?: string;
    subdomain?: string;
    containers?: { ports?: { name?: string; containerPort: number }[] }[];
  };
  status?: { podIP?: string };
}

/**
 * The address of a pod's named port: its IP and the container port of that name. The same on a
 * real cluster (the pod network) and on the local node (the pod's own loopback address).
 */
export function podEndpoint(
  pod: EndpointPod,
  portName: string,
): { host: string; port: number } | undefined {
  const host = pod.status?.podIP;
  const port = pod.spec?.containers
    ?.flatMap((c) => c.ports ?? [])
    .find((p) => p.name === portName)?.containerPort;
  return host === undefined || host === '' || port === undefined ? undefined : { host, port };
}

/**
 * The pod's stable DNS name, `<hostname>.<subdomain>.<namespace>.svc`, as a StatefulSet's pod has
 * under its headless Service (the name a sandbox's identity proofs are addressed to).
 */
export function podDnsName(pod: EndpointPod): string {
  const hostname = pod.spec?.hostname ?? pod.metadata.name;
  const subdomain = pod.spec?.subdomain;
  const namespace = pod.metadata.namespace ?? 'default';
  return subdomain === undefined
    ? `${hostname}.${namespace}.svc`
    : `${hostname}.${subdomain}.${namespace}.svc`;
}
