import { isDeepStrictEqual } from 'node:util';
import type { KubeObject } from '@paddock/kube';

/**
 * The samples (examples/resources) are written for `paddock up`'s default addresses; a platform
 * started with other ports or another interface gets them rewritten to what it really listens on.
 */

/** The local platform's listeners, as the samples' URLs name them. */
export interface PlatformAddresses {
  host: string;
  /** The sandbox's MCP port; its human-facing API is on the next one. */
  sandboxPort: number;
  dashboardPort: number;
}

/** An object of a sample file. */
export type Sample = KubeObject & { spec?: unknown };

/** What the sample files say. */
export const SAMPLE_DEFAULTS: PlatformAddresses = {
  host: '127.0.0.1',
  sandboxPort: 7070,
  dashboardPort: 3000,
};

/** Records, on a rewritten sample, the addresses it was written for (see `followAddresses`). */
export const WRITTEN_FOR_ANNOTATION = 'paddock.dev/sample-addresses';

/** Where a client on this machine reaches a listener bound to `host`: loopback for every interface. */
export function reachableHost(host: string): string {
  return host === '0.0.0.0' ? '127.0.0.1' : host;
}

/** The `host:port` authorities of the three listeners, in a fixed order. */
function authorities(a: PlatformAddresses): string[] {
  const host = reachableHost(a.host);
  return [a.sandboxPort, a.sandboxPort + 1, a.dashboardPort].map((port) => `${host}:${port}`);
}

export function addressesKey(a: PlatformAddresses): string {
  return authorities(a).join(',');
}

/** Every string of `value` with `http://<default authority>` replaced by the platform's own. */
function rewrite(value: unknown, from: string[], to: string[]): unknown {
  if (typeof value === 'string') {
    return from.reduce(
      (text, authority, i) => text.replaceAll(`http://${authority}/`, `http://${to[i]!}/`),
      value,
    );
  }
  if (Array.isArray(value)) return value.map((item) => rewrite(item, from, to));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, rewrite(item, from, to)]),
    );
  }
  return value;
}

/**
 * A sample object as the platform at `addresses` needs it: its spec's URLs of the default
 * listeners point at the real ones, and an annotation records which those were. Objects that name
 * none of them are returned unchanged.
 */
export function forPlatform<T extends Sample>(sample: T, addresses: PlatformAddresses): T {
  const defaults = authorities(SAMPLE_DEFAULTS);
  const written = JSON.stringify(sample.spec ?? null);
  if (!defaults.some((authority) => written.includes(`http://${authority}/`))) return sample;
  const spec = rewrite(sample.spec, defaults, authorities(addresses));
  const metadata = sample.metadata ?? {};
  return {
    ...sample,
    metadata: {
      ...metadata,
      annotations: { ...metadata.annotations, [WRITTEN_FOR_ANNOTATION]: addressesKey(addresses) },
    },
    spec,
  };
}

/**
 * What to do with a sample already in the cluster when the platform starts at `addresses`: the
 * object as it must be when it was written for other addresses and nobody has changed it since,
 * or undefined to leave it (up to date, or a person's edit, which a restart never clobbers).
 */
export function followAddresses<T extends Sample>(
  existing: Sample,
  sample: T,
  addresses: PlatformAddresses,
): T | undefined {
  const wanted = forPlatform(sample, addresses);
  const writtenFor = existing.metadata?.annotations?.[WRITTEN_FOR_ANNOTATION];
  if (writtenFor === addressesKey(addresses)) return undefined;
  if (isDeepStrictEqual(existing.spec, wanted.spec)) return undefined;
  const asWritten = forPlatform(sample, parseKey(writtenFor) ?? SAMPLE_DEFAULTS);
  return isDeepStrictEqual(existing.spec, asWritten.spec) ? wanted : undefined;
}

function parseKey(key: string | undefined): PlatformAddresses | undefined {
  const parts = key?.split(',').map((authority) => /^(.+):(\d+)$/.exec(authority));
  if (parts?.length !== 3 || parts.some((m) => m === null)) return undefined;
  const [sandbox, , dashboard] = parts as RegExpExecArray[];
  return {
    host: sandbox![1]!,
    sandboxPort: Number(sandbox![2]),
    dashboardPort: Number(dashboard![2]),
  };
}
