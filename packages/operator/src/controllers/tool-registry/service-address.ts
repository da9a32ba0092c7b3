import type { KubeObject } from '@paddock/kube';

// How a Service is addressed (an ExternalName Service at its external name) is shared with the
// agent, which reaches the same tools.
export { discoveryService } from '@paddock/tool-handlers';

/** A core/v1 Service, as much of it as tool discovery reads. */
export interface Service extends KubeObject {
  spec?: {
    type?: string;
    clusterIP?: string;
    externalName?: string;
    ports?: { name?: string; port: number }[];
  };
}
