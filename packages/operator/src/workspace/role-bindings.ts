import {
  GROUP,
  isGrantActive,
  nextExpiry,
  parseRfc3339,
  WORKSPACE_ROLES,
  type Workspace,
  type WorkspaceRole,
} from '@paddock/kube';
import type { RoleBindingObject, Subject } from './kube-objects.js';
import { isOwnedBy, ownedMetadata } from './ownership.js';
import { clusterRoleName } from './roles.js';
import { serviceAccountName } from './service-accounts.js';
import { shortHash } from './short-hash.js';

/** Which part of the spec a RoleBinding comes from. */
export const LABEL_BINDING_SOURCE = `${GROUP}/binding-source`;
/** On a direct grant's RoleBinding: when it ends, for people reading it. */
export const ANNOTATION_EXPIRES = `${GROUP}/expires`;

type BindingSource = 'serviceAccount' | 'roleBinding' | 'directGrant';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

export interface DesiredRoleBindings {
  bindings: RoleBindingObject[];
  /** The earliest future grant expiry: reconcile again then to remove that binding. */
  nextExpiry: Date | undefined;
}

/**
 * Every RoleBinding the Workspace's namespace must hold at `now`: one per ServiceAccount to its
 * role, one per roleBindings[] entry (its groups and ServiceAccounts), one per user with an active
 * direct grant. Names are the role and a hash of what is bound, so a reconcile finds the same
 * names, and a changed role means a new binding rather than an edit of roleRef (which is immutable).
 */
export function desiredRoleBindings(workspace: Workspace, now: Date): DesiredRoleBindings {
  const { spec } = workspace;
  const byName = new Map<string, RoleBindingObject>();
  const add = (binding: RoleBindingObject) => byName.set(binding.metadata.name, binding);

  const namespace = spec.namespace.name;
  for (const role of WORKSPACE_ROLES) {
    const subject: Subject = { kind: 'ServiceAccount', name: serviceAccountName(role), namespace };
    add(binding(workspace, `paddock-workspace-${role}`, role, 'serviceAccount', [subject]));
  }

  for (const entry of spec.roleBindings ?? []) {
    const subjects = [
      ...unique(entry.groups ?? []).map((name): Subject => ({
        kind: 'Group',
        apiGroup: RBAC_GROUP,
        name,
      })),
      ...uniqueBy(entry.serviceAccounts ?? [], (sa) => `${sa.namespace}/${sa.name}`).map(
        (sa): Subject => ({ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }),
      ),
    ];
    if (subjects.length === 0) continue;
    const name = bindingName(entry.role, { source: 'roleBinding', subjects });
    add(binding(workspace, name, entry.role, 'roleBinding', subjects));
  }

  // Several active grants of one role to one user make one binding, ending with the last of them.
  const grants = new Map<string, { user: string; role: WorkspaceRole; expires: string[] | null }>();
  for (const grant of spec.directGrants ?? []) {
    if (!isGrantActive(grant, now)) continue;
    const name = bindingName(grant.role, { source: 'directGrant', user: grant.user });
    const seen = grants.get(name) ?? { user: grant.user, role: grant.role, expires: [] };
    seen.expires =
      seen.expires === null || grant.expires === undefined
        ? null
        : [...seen.expires, grant.expires];
    grants.set(name, seen);
  }
  for (const [name, grant] of grants) {
    const subject: Subject = { kind: 'User', apiGroup: RBAC_GROUP, name: grant.user };
    const made = binding(workspace, name, grant.role, 'directGrant', [subject]);
    if (grant.expires !== null) {
      const last = grant.expires.reduce((a, b) =>
        (parseRfc3339(a) ?? 0) >= (parseRfc3339(b) ?? 0) ? a : b,
      );
      made.metadata.annotations = { ...made.metadata.annotations, [ANNOTATION_EXPIRES]: last };
    }
    add(made);
  }

  return {
    bindings: [...byName.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
    nextExpiry: nextExpiry(spec.directGrants, now),
  };
}

/**
 * The RoleBindings to delete: those the Workspace made (by its ownership entries) that are no longer
 * desired. Bindings anyone else made in the namespace are never touched.
 */
export function pruneBindings<
  T extends {
    metadata?: {
      name?: string;
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
    };
  },
>(existing: readonly T[], desired: readonly RoleBindingObject[], workspace: Workspace): T[] {
  const keep = new Set(desired.map((b) => b.metadata.name));
  return existing.filter((b) => isOwnedBy(b, workspace) && !keep.has(b.metadata?.name ?? ''));
}

function bindingName(role: WorkspaceRole, identity: unknown): string {
  return `paddock-${role}-${shortHash(JSON.stringify(identity))}`;
}

function binding(
  workspace: Workspace,
  name: string,
  role: WorkspaceRole,
  source: BindingSource,
  subjects: Subject[],
): RoleBindingObject {
  const metadata = ownedMetadata(workspace, name, workspace.spec.namespace.name);
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { ...metadata, labels: { ...metadata.labels, [LABEL_BINDING_SOURCE]: source } },
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: clusterRoleName(role) },
    subjects,
  };
}

/** Distinct values, sorted, so the order they are written in never changes a binding. */
function unique(values: readonly string[]): string[] {
  return [...new Set(values)].sort();
}

function uniqueBy<T>(values: readonly T[], key: (value: T) => string): T[] {
  const byKey = new Map(values.map((value) => [key(value), value]));
  return [...byKey.keys()].sort().map((k) => byKey.get(k) as T);
}
