/**
 * Each local pod gets a loopback address of its own, so that every pod can listen on the ports its
 * container declares, as pods on a real node each have their own network namespace. Linux routes
 * all of 127.0.0.0/8 to the loopback interface, so any address there can be bound at once without
 * configuration. Pure.
 */

/** Where pods' addresses start: far from 127.0.0.1, where the platform's own services listen. */
export const FIRST_POD_ADDRESS = '127.1.0.1';
/** How many addresses from the first one pods may take (127.1.0.1 to 127.1.255.255). */
export const POD_ADDRESS_COUNT = 65_535;
/** A pod's hostIP: the node itself. */
export const HOST_IP = '127.0.0.1';

export interface AddressRange {
  first: string;
  count: number;
}

export const DEFAULT_POD_ADDRESSES: AddressRange = {
  first: FIRST_POD_ADDRESS,
  count: POD_ADDRESS_COUNT,
};

function toNumber(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255)) {
    return undefined;
  }
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function toAddress(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** Whether the address lies in the range, in 127.0.0.0/8, and is no network or broadcast-looking .0/.255. */
export function inRange(address: string, range: AddressRange): boolean {
  const n = toNumber(address);
  const first = toNumber(range.first);
  if (n === undefined || first === undefined) return false;
  return n >>> 24 === 127 && n >= first && n < first + range.count && usable(n);
}

const usable = (n: number) => (n & 255) !== 0 && (n & 255) !== 255;

/**
 * The address for a pod: the first of `preferred` (its own from before: its status, or the last
 * pod of its name) that is in the range and not taken, else the lowest free one of the range.
 * Undefined when the range is full.
 */
export function allocateAddress(
  taken: ReadonlySet<string>,
  range: AddressRange,
  preferred: readonly (string | undefined)[] = [],
): string | undefined {
  for (const address of preferred) {
    if (address !== undefined && inRange(address, range) && !taken.has(address)) return address;
  }
  const first = toNumber(range.first);
  if (first === undefined) return undefined;
  for (let n = first; n < first + range.count && n >>> 24 === 127; n++) {
    if (!usable(n)) continue;
    const address = toAddress(n);
    if (!taken.has(address)) return address;
  }
  return undefined;
}

/** `0.0.0.0:PORT` or `[::]:PORT`, alone or after `=` (`-addr=0.0.0.0:7070`). */
const ALL_INTERFACES = /^(.*=)?(?:0\.0\.0\.0|\[::\]):(\d{1,5})$/;

/**
 * An arg that asks to listen on all interfaces of the pod listens on the pod's address instead,
 * since the pod's interfaces here are the machine's. Other args are kept.
 */
export function podListenArg(arg: string, podIP: string): string {
  const match = ALL_INTERFACES.exec(arg);
  return match ? `${match[1] ?? ''}${podIP}:${match[2]}` : arg;
}
