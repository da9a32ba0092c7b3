import { GROUP, type Workspace } from '@paddock/kube';
import type { NamespaceObject } from './kube-objects.js';
import { ownerAnnotations, ownerLabels, ANNOTATION_OWNER_WORKSPACE } from './ownership.js';
import { withoutReservedKeys, type IgnoredKey } from './reserved-keys.js';

export const LABEL_ENVIRONMENT = `${GROUP}/environment`;
/** `"true"` when the Workspace created the namespace, so deletion removes only what it created. */
export const ANNOTATION_NAMESPACE_CREATED = `${GROUP}/namespace-created`;

/**
 * The label and annotation keys the spec set on the namespace, as `labels:a,b;annotations:c`, so
 * that keys later removed from the spec are removed from the namespace too (keys set by others are
 * never touched).
 */
export const ANNOTATION_SPEC_KEYS = `${GROUP}/spec-keys`;

/** What the controller knows of a namespace it read (absent when there is none). */
export interface ObservedNamespace {
  metadata?: {
    annotations?: Record<string, string>;
    deletionTimestamp?: string;
  };
}

/**
 * The Workspace's namespace as it must be: created by the controller, or an existing one adopted
 * (`created: false`), onto which the same labels and annotations are merged. Reserved keys from the
 * spec are left out and listed in `ignored` so the controller can warn.
 */
export function desiredNamespace(
  workspace: Workspace,
  options: { created: boolean },
): { namespace: NamespaceObject; ignored: IgnoredKey[] } {
  const { spec } = workspace;
  const tags = withoutReservedKeys(spec.defaultTags, 'defaultTags');
  const labels = withoutReservedKeys(spec.namespace.labels, 'namespace.labels');
  const annotations = withoutReservedKeys(spec.namespace.annotations, 'namespace.annotations');
  const specKeys = formatSpecKeys({
    labels: Object.keys({ ...tags.kept, ...labels.kept }),
    annotations: Object.keys(annotations.kept),
  });
  const namespace: NamespaceObject = {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name: spec.namespace.name,
      labels: {
        ...tags.kept,
        ...labels.kept,
        ...ownerLabels(workspace),
        [LABEL_ENVIRONMENT]: spec.environment ?? 'development',
      },
      annotations: {
        ...annotations.kept,
        ...ownerAnnotations(workspace),
        [ANNOTATION_NAMESPACE_CREATED]: String(options.created),
        [ANNOTATION_SPEC_KEYS]: specKeys,
      },
    },
  };
  return { namespace, ignored: [...tags.ignored, ...labels.ignored, ...annotations.ignored] };
}

interface SpecKeys {
  labels: string[];
  annotations: string[];
}

function formatSpecKeys(keys: SpecKeys): string {
  return `labels:${[...keys.labels].sort().join(',')};annotations:${[...keys.annotations].sort().join(',')}`;
}

function parseSpecKeys(value: string | undefined): SpecKeys {
  const keys: SpecKeys = { labels: [], annotations: [] };
  for (const part of (value ?? '').split(';')) {
    const [kind, list = ''] = part.split(':');
    if (kind === 'labels' || kind === 'annotations') keys[kind] = list.split(',').filter(Boolean);
  }
  return keys;
}

/**
 * The existing namespace without the keys an earlier spec set and the desired one no longer
 * does, or undefined when there are none to remove.
 */
export function withoutStaleSpecKeys(
  existing: NamespaceObject,
  desired: NamespaceObject,
): NamespaceObject | undefined {
  const before = parseSpecKeys(existing.metadata.annotations?.[ANNOTATION_SPEC_KEYS]);
  const after = parseSpecKeys(desired.metadata.annotations?.[ANNOTATION_SPEC_KEYS]);
  const stale = (kind: keyof SpecKeys) =>
    before[kind].filter(
      (key) => !after[kind].includes(key) && existing.metadata[kind]?.[key] !== undefined,
    );
  const labels = stale('labels');
  const annotations = stale('annotations');
  if (labels.length + annotations.length === 0) return undefined;
  const without = (map: Record<string, string> | undefined, keys: string[]) =>
    Object.fromEntries(Object.entries(map ?? {}).filter(([key]) => !keys.includes(key)));
  return {
    ...existing,
    metadata: {
      ...existing.metadata,
      labels: without(existing.metadata.labels, labels),
      annotations: without(existing.metadata.annotations, annotations),
    },
  };
}

/**
 * Who holds a namespace: nobody yet (`free`), this Workspace (`ours`), another Workspace
 * (`conflict`), or someone outside Paddock (`unmanaged`: adopted, never deleted). Workspace names
 * are unique among live Workspaces, so the owner's name decides; a different uid under the same name
 * is a deleted predecessor whose claim ended with it.
 */
export function namespaceOwnership(
  namespace: ObservedNamespace | undefined,
  workspace: Workspace,
): 'ours' | 'free' | 'conflict' | 'unmanaged' {
  if (namespace === undefined) return 'free';
  const owner = namespace.metadata?.annotations?.[ANNOTATION_OWNER_WORKSPACE];
  if (owner === undefined) return 'unmanaged';
  return owner === workspace.metadata.name ? 'ours' : 'conflict';
}

/** Whether the namespace records that a Workspace created it (not merely adopted it). */
export function namespaceCreatedByWorkspace(namespace: ObservedNamespace): boolean {
  return namespace.metadata?.annotations?.[ANNOTATION_NAMESPACE_CREATED] === 'true';
}

export type NamespacePlan =
  | { action: 'create'; created: true }
  | { action: 'update'; created: boolean }
  | { action: 'adopt'; created: false }
  | { action: 'missing' }
  | { action: 'terminating' }
  | { action: 'conflict'; owner: string };

/**
 * What to do about the namespace: create it (only with `namespace.create`), keep ours up to date,
 * adopt one that exists without an owner, or stop with a condition when it is missing, being
 * deleted, or held by another Workspace.
 */
export function planNamespace(
  workspace: Workspace,
  existing: ObservedNamespace | undefined,
): NamespacePlan {
  const ownership = namespaceOwnership(existing, workspace);
  if (existing === undefined || ownership === 'free') {
    return workspace.spec.namespace.create === true
      ? { action: 'create', created: true }
      : { action: 'missing' };
  }
  if (ownership === 'conflict') {
    return {
      action: 'conflict',
      owner: existing.metadata?.annotations?.[ANNOTATION_OWNER_WORKSPACE] ?? '',
    };
  }
  if (existing.metadata?.deletionTimestamp !== undefined) return { action: 'terminating' };
  if (ownership === 'ours')
    return { action: 'update', created: namespaceCreatedByWorkspace(existing) };
  return { action: 'adopt', created: false };
}
