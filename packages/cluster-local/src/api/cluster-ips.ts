import type { KubeObject } from '../contracts.js';
import { isRecord } from '../objects/object-meta.js';

/** Addresses of the service range, 10.96.0.2 upward: 250 per third octet, 250 third octets. */
const RANGE_SIZE = 250 * 250;

/** The n-th address of the service range (n from 1). */
export function clusterIpAt(n: number): string {
  return `10.96.${Math.floor(n / 250) % 250}.${(n % 250) + 1}`;
}

/** The cluster IPs the Services hold. */
export function clusterIpsOf(services: readonly KubeObject[]): Set<string> {
  const taken = new Set<string>();
  for (const service of services) {
    const spec = isRecord(service['spec']) ? service['spec'] : {};
    if (typeof spec['clusterIP'] === 'string') taken.add(spec['clusterIP']);
    if (Array.isArray(spec['clusterIPs'])) {
      for (const ip of spec['clusterIPs']) if (typeof ip === 'string') taken.add(ip);
    }
  }
  return taken;
}

/**
 * The lowest address of the service range no Service holds; undefined when all are held. Taken
 * from what the cluster stores, so a restart over the same data, or another cluster in the same
 * process, never gives out an address a Service has.
 */
export function freeClusterIp(taken: ReadonlySet<string>): string | undefined {
  for (let n = 1; n < RANGE_SIZE; n++) {
    const ip = clusterIpAt(n);
    if (!taken.has(ip)) return ip;
  }
  return undefined;
}
