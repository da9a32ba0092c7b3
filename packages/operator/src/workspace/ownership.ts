import { GROUP, type Workspace } from '@paddock/kube';
import type { Metadata } from './kube-objects.js';
import { withoutReservedKeys } from './reserved-keys.js';
import { shortHash } from './short-hash.js';

/** On every object made for a Workspace: the Workspace's name (see `workspaceLabelValue`). */
export const LABEL_WORKSPACE = `${GROUP}/workspace`;
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'paddock-operator';
/** The owning Workspace's exact name and uid, which labels cannot always hold. */
export const ANNOTATION_OWNER_WORKSPACE = `${GROUP}/owner-workspace`;
export const ANNOTATION_OWNER_UID = `${GROUP}/owner-uid`;

const MAX_LABEL_VALUE = 63;

/**
 * The value of `LABEL_WORKSPACE`: the name itself, or, for names longer than a label value may be,
 * a prefix and a hash of the whole name, so the controller can still select its objects by label.
 */
export function workspaceLabelValue(name: string): string {
  if (name.length <= MAX_LABEL_VALUE) return name;
  const hash = shortHash(name);
  return `${name.slice(0, MAX_LABEL_VALUE - hash.length - 1)}-${hash}`;
}

/** The label selector matching every object made for the Workspace. */
export function ownedSelector(workspace: Workspace): string {
  return `${LABEL_WORKSPACE}=${workspaceLabelValue(workspace.metadata.name)},${LABEL_MANAGED_BY}=${MANAGED_BY}`;
}

/**
 * Labels and annotations of an object made for the Workspace: its default tags (reserved keys left
 * out), then the ownership entries, which win over any tag of the same key. Ownership is recorded in
 * labels and annotations rather than ownerReferences: deletion is the finalizer's job, in order, and a
 * garbage-collector cascade must never reach a namespace the Workspace only adopted.
 */
export function ownedMetadata(
  workspace: Workspace,
  name: string,
  namespace: string,
): Metadata & { namespace: string } {
  return {
    name,
    namespace,
    labels: {
      ...withoutReservedKeys(workspace.spec.defaultTags, 'defaultTags').kept,
      ...ownerLabels(workspace),
    },
    annotations: ownerAnnotations(workspace),
  };
}

export function ownerLabels(workspace: Workspace): Record<string, string> {
  return {
    [LABEL_WORKSPACE]: workspaceLabelValue(workspace.metadata.name),
    [LABEL_MANAGED_BY]: MANAGED_BY,
  };
}

export function ownerAnnotations(workspace: Workspace): Record<string, string> {
  const { name, uid } = workspace.metadata;
  return {
    [ANNOTATION_OWNER_WORKSPACE]: name,
    ...(uid === undefined ? {} : { [ANNOTATION_OWNER_UID]: uid }),
  };
}

/** Whether an object carries the Workspace's ownership entries (anything else is left alone). */
export function isOwnedBy(
  object: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } },
  workspace: Workspace,
): boolean {
  const labels = object.metadata?.labels ?? {};
  const annotations = object.metadata?.annotations ?? {};
  return (
    labels[LABEL_MANAGED_BY] === MANAGED_BY &&
    annotations[ANNOTATION_OWNER_WORKSPACE] === workspace.metadata.name
  );
}
