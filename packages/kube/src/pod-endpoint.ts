/** The fields of a pod that say how it is reached. */
export interface EndpointPod {
  spec?: {
    containers?: readonly { ports?: readonly { name?: string; containerPort: number }[] }[];
  };
  status?: { podIP?: string };
}

/** Where a pod's port is reached: its IP (bare, IPv6 without brackets) and the port. */
export interface PodEndpoint {
  host: string;
  port: number;
}

/**
 * The address of a pod's named port: its IP and the container port of that name, or undefined
 * while the pod has no IP or has no port of that name. The one way anything reaches an agent pod:
 * on a real cluster the IP is the pod network's (reached from inside the cluster); on the local
 * node it is the pod's own loopback address (docs/decisions/0021-local-node.md).
 */
export function podEndpoint(pod: EndpointPod, portName: string): PodEndpoint | undefined {
  const host = pod.status?.podIP;
  if (host === undefined || host === '') return undefined;
  for (const container of pod.spec?.containers ?? []) {
    const port = container.ports?.find((p) => p.name === portName);
    if (port !== undefined) return { host, port: port.containerPort };
  }
  return undefined;
}

/** The fields of a pod that make its DNS name. */
export interface NamedPod {
  metadata: { name: string; namespace?: string };
  spec?: { hostname?: string; subdomain?: string };
}

/**
 * The pod's stable DNS name, `<hostname>.<subdomain>.<namespace>.svc`, as a StatefulSet's pod has
 * under its headless Service: the name an agent pod's identity proofs are addressed to (its
 * SVC_API_PROOF_AUDIENCE).
 */
export function podDnsName(pod: NamedPod): string {
  const hostname = pod.spec?.hostname ?? pod.metadata.name;
  const namespace = pod.metadata.namespace ?? 'default';
  const subdomain = pod.spec?.subdomain;
  return subdomain === undefined
    ? `${hostname}.${namespace}.svc`
    : `${hostname}.${subdomain}.${namespace}.svc`;
}

/**
 * The identity-proof audience of an agent's pod: its stable DNS name under the agent's headless
 * Service, made from names alone. A signer computes it from the pod's name, never from fields a
 * workspace editor could set on a pod of their own (spec.hostname, spec.subdomain), so a proof
 * meant for a look-alike pod is refused by every real sandbox.
 */
export function agentPodAudience(pod: string, agent: string, namespace: string): string {
  return `${pod}.${agent}.${namespace}.svc`;
}
