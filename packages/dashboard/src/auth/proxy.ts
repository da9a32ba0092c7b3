import { BlockList, isIPv4 } from 'node:net';
import { DashboardError } from '../errors.js';
import type { ExternalProfile } from '../store/types.js';

/** The header names of proxy mode (SVC_AUTH_PROXY_HEADER_*). */
export interface ProxyHeaderNames {
  user: string;
  email: string;
  groups: string;
  displayName: string;
}

/** Most groups taken from the header, and the longest group name. */
export const MAX_PROXY_GROUPS = 1000;
export const MAX_GROUP_CHARS = 256;
const MAX_FIELD_CHARS = 256;

/**
 * The request's header lines as node gives them (`rawHeaders`): name, value, name, value... Node
 * merges a repeated header into one comma-joined value in `headers`, so only these lines show that
 * a header came twice. Values are the bytes received, one character per byte.
 */
type RawHeaderLines = readonly string[];

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A header value's bytes read as UTF-8 (node reads them as Latin-1); invalid_request if not UTF-8. */
function decodeUtf8(name: string, value: string): string {
  try {
    return utf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    throw new DashboardError('invalid_request', `the ${name} header is not valid UTF-8`);
  }
}

/**
 * The values of the identity headers, each decoded as UTF-8. An identity header given more than
 * once (in any spelling of its name) is refused with invalid_request: which copy a proxy meant
 * cannot be told, and merging them would let a client add its own groups to the proxy's.
 */
function identityValues(lines: RawHeaderLines, names: ProxyHeaderNames): Map<string, string> {
  const wanted = new Map(
    [names.user, names.email, names.groups, names.displayName].map((name) => [
      name.toLowerCase(),
      name,
    ]),
  );
  const values = new Map<string, string>();
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const key = lines[i]!.toLowerCase();
    const name = wanted.get(key);
    if (name === undefined) continue;
    if (values.has(key)) {
      throw new DashboardError('invalid_request', `the ${name} header is given more than once`);
    }
    values.set(key, decodeUtf8(name, lines[i + 1]!));
  }
  return values;
}

function single(values: Map<string, string>, name: string): string | undefined {
  const trimmed = values.get(name.toLowerCase())?.trim();
  return trimmed === '' || trimmed === undefined || trimmed.length > MAX_FIELD_CHARS
    ? undefined
    : trimmed;
}

/** Comma-separated groups, trimmed, empties dropped, bounded. */
export function parseGroups(value: string | undefined): string[] {
  if (value === undefined) return [];
  return [
    ...new Set(
      value
        .split(',')
        .map((g) => g.trim())
        .filter((g) => g !== '' && g.length <= MAX_GROUP_CHARS),
    ),
  ].slice(0, MAX_PROXY_GROUPS);
}

/**
 * The identity a proxy asserts in the request's header lines, or undefined when it names no user.
 * The username is the identity (its lower-cased form the record's subject). Throws invalid_request
 * for an identity header given twice or not in UTF-8.
 */
export function proxyProfile(
  lines: RawHeaderLines,
  names: ProxyHeaderNames,
): ExternalProfile | undefined {
  const values = identityValues(lines, names);
  const username = single(values, names.user);
  if (username === undefined) return undefined;
  return {
    username,
    email: single(values, names.email)?.toLowerCase() ?? null,
    displayName: single(values, names.displayName) ?? null,
    groups: parseGroups(values.get(names.groups.toLowerCase())),
  };
}

/**
 * Whether a peer may assert identity: every peer when no trusted addresses are configured,
 * otherwise only the listed addresses and CIDR ranges (IPv4-mapped IPv6 read as IPv4).
 */
export function trustedPeers(entries: readonly string[]): (address: string | undefined) => boolean {
  if (entries.length === 0) return () => true;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    if (address === undefined) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    const plain = mapped ?? address;
    return list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}
