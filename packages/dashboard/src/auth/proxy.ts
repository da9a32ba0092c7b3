import { BlockList, isIPv4 } from 'node:net';
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

type Headers = Record<string, string | string[] | undefined>;

function single(headers: Headers, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  if (Array.isArray(value)) return undefined;
  const trimmed = value?.trim();
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
 * The identity a proxy asserts in the request's headers, or undefined when it names no user. The
 * username is the identity (its lower-cased form the record's subject).
 */
export function proxyProfile(
  headers: Headers,
  names: ProxyHeaderNames,
): ExternalProfile | undefined {
  const username = single(headers, names.user);
  if (username === undefined) return undefined;
  const groupsHeader = headers[names.groups.toLowerCase()];
  return {
    username,
    email: single(headers, names.email)?.toLowerCase() ?? null,
    displayName: single(headers, names.displayName) ?? null,
    groups: parseGroups(Array.isArray(groupsHeader) ? groupsHeader.join(',') : groupsHeader),
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
