import { isIP } from 'node:net';

/** Addresses read from X-Forwarded-For at most: a longer chain is cut (from the left). */
export const MAX_FORWARDED_HOPS = 20;

/**
 * The "source" of a request for rate limits and lockouts: the TCP peer's address, unless the peer
 * is a trusted proxy (SVC_AUTH_PROXY_TRUSTED_ADDRESSES, when set), in which case the right-most
 * address of X-Forwarded-For that is not itself a trusted proxy. Without trusted proxies the
 * header is ignored, since anyone can write it.
 */
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: (address: string) => boolean,
): string {
  const direct = normalize(peer ?? 'unknown');
  if (!trusted(direct) || forwardedFor === undefined) return direct;
  const hops = [forwardedFor]
    .flat()
    .join(',')
    .split(',')
    .map((hop) => normalize(hop.trim()))
    .slice(-MAX_FORWARDED_HOPS);
  let source = direct;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (isIP(hop) === 0) break;
    source = hop;
    if (!trusted(hop)) break;
  }
  return source;
}

/** IPv4-mapped IPv6 addresses as IPv4, so one client has one source. */
function normalize(address: string): string {
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
