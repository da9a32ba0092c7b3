import { RESERVED_PREFIX } from '@paddock/kube';

/** Where in a Workspace's spec a label or annotation key came from. */
export type KeySource = 'defaultTags' | 'namespace.labels' | 'namespace.annotations';

/** A key the controller ignored because it is under the reserved prefix. */
export interface IgnoredKey {
  source: KeySource;
  key: string;
}

/**
 * The entries of `map` outside the reserved prefix, and the keys left out. Admission refuses such
 * keys already; this second check covers objects stored before the rule existed or written past it,
 * so that no spec can, say, label its own namespace shared.
 */
export function withoutReservedKeys(
  map: Readonly<Record<string, string>> | undefined,
  source: KeySource,
): { kept: Record<string, string>; ignored: IgnoredKey[] } {
  const kept: Record<string, string> = {};
  const ignored: IgnoredKey[] = [];
  for (const [key, value] of Object.entries(map ?? {})) {
    if (key.startsWith(RESERVED_PREFIX)) ignored.push({ source, key });
    else kept[key] = value;
  }
  return { kept, ignored };
}
