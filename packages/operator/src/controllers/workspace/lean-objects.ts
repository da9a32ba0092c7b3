import type { KubeObject, ObjectIdentity } from '@paddock/kube';
import { ANNOTATION_OWNER_WORKSPACE } from '../../workspace/index.js';
import type { StringPool } from '../../runtime/string-pool.js';

/**
 * What the Workspace controller's informers keep of each object. They only trigger passes, and a
 * pass reads the cluster afresh: a Workspace is kept as the namespace it names (so that an agent's
 * change finds its Workspace), an object made for a Workspace as the Workspace's name. Tens of
 * thousands of such objects are kept at once, so each keeps a few strings, shared through a pool
 * where they repeat, and nothing else.
 */

/** A Workspace as its name, version and the namespace it names. */
export interface WorkspaceRef extends KubeObject {
  metadata: { name: string; resourceVersion?: string };
  spec: { namespace: { name?: string } };
}

export function leanWorkspaceRef(strings: StringPool): (object: KubeObject) => WorkspaceRef {
  return (object) => {
    const { name = '', resourceVersion } = object.metadata ?? {};
    const spec = (object as { spec?: { namespace?: { name?: unknown } } }).spec;
    const namespace = spec?.namespace?.name;
    return {
      metadata: {
        name: strings.intern(name),
        ...(resourceVersion === undefined ? {} : { resourceVersion }),
      },
      spec: { namespace: typeof namespace === 'string' ? { name: strings.intern(namespace) } : {} },
    };
  };
}

/** An object made for a Workspace: its identity, and its owner-workspace annotation as `owner`. */
export interface OwnedRef extends KubeObject {
  metadata: ObjectIdentity;
  owner?: string;
}

export function leanOwnedRef(strings: StringPool): (object: KubeObject) => OwnedRef {
  return (object) => {
    const { name = '', namespace, resourceVersion, annotations } = object.metadata ?? {};
    const owner = annotations?.[ANNOTATION_OWNER_WORKSPACE];
    return {
      metadata: {
        name: strings.intern(name),
        ...(namespace === undefined ? {} : { namespace: strings.intern(namespace) }),
        ...(resourceVersion === undefined ? {} : { resourceVersion }),
      },
      ...(owner === undefined ? {} : { owner: strings.intern(owner) }),
    };
  };
}
