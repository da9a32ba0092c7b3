/**
 * How the built-in kinds' lists merge (the patchStrategy and patchMergeKey tags of Kubernetes' Go
 * types), for the fields Paddock and kubectl touch. A list not named here is atomic: a patch
 * replaces it whole, as for RoleBinding subjects and Role rules.
 */
export interface ListStrategy {
  /** Elements are objects matched by this key. */
  mergeKey?: string;
  /** Elements are scalars kept as a set. */
  set?: boolean;
}

const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'];

/** Keyed by the last two field names of the path (list indices skipped), then by the last one. */
const BY_SUFFIX: Record<string, ListStrategy> = {
  'metadata.finalizers': { set: true },
  'metadata.ownerReferences': { mergeKey: 'uid' },
  'spec.volumes': { mergeKey: 'name' },
  'spec.imagePullSecrets': { mergeKey: 'name' },
  'spec.hostAliases': { mergeKey: 'ip' },
  'spec.topologySpreadConstraints': { mergeKey: 'topologyKey' },
  'status.conditions': { mergeKey: 'type' },
  ...Object.fromEntries(CONTAINER_LISTS.map((c) => [`spec.${c}`, { mergeKey: 'name' }])),
  ...Object.fromEntries(
    CONTAINER_LISTS.flatMap((c) => [
      [`${c}.env`, { mergeKey: 'name' }],
      [`${c}.ports`, { mergeKey: 'containerPort' }],
      [`${c}.volumeMounts`, { mergeKey: 'mountPath' }],
      [`${c}.volumeDevices`, { mergeKey: 'devicePath' }],
    ]),
  ),
};

/** Lists that merge only in one kind. */
const BY_KIND: Record<string, Record<string, ListStrategy>> = {
  Service: { 'spec.ports': { mergeKey: 'port' } },
  ServiceAccount: { secrets: { mergeKey: 'name' }, imagePullSecrets: { mergeKey: 'name' } },
};

/** The merge strategy of the list at `path` (field names from the object's root). */
export function listStrategy(
  kind: string | undefined,
  path: readonly string[],
): ListStrategy | undefined {
  const dotted = path.join('.');
  const byKind = kind === undefined ? undefined : BY_KIND[kind]?.[dotted];
  if (byKind) return byKind;
  return BY_SUFFIX[path.slice(-2).join('.')];
}

/** Describes the lists of one kind, or of none (custom resources: every list atomic). */
export type ListStrategies = (path: readonly string[]) => ListStrategy | undefined;

export function builtinListStrategies(kind: string): ListStrategies {
  return (path) => listStrategy(kind, path);
}

export const ATOMIC_LISTS: ListStrategies = () => undefined;
