import { WORKSPACE_ROLES, type Workspace, type WorkspaceRole } from '@paddock/kube';
import type { ServiceAccountObject } from './kube-objects.js';
import { ownedMetadata } from './ownership.js';

/**
 * The ServiceAccount of a role. Each Workspace has its own namespace, so fixed names are unique and
 * the dashboard finds the account of a role knowing only the namespace.
 */
export function serviceAccountName(role: WorkspaceRole): string {
  return `workspace-${role}`;
}

/** The names reported in status.serviceAccounts. */
export function serviceAccountNames(): Record<WorkspaceRole, string> {
  return {
    owner: serviceAccountName('owner'),
    editor: serviceAccountName('editor'),
    viewer: serviceAccountName('viewer'),
  };
}

/**
 * The three ServiceAccounts. Their tokens are requested on demand and short-lived, so none is
 * mounted into pods automatically.
 */
export function desiredServiceAccounts(workspace: Workspace): ServiceAccountObject[] {
  const namespace = workspace.spec.namespace.name;
  return WORKSPACE_ROLES.map((role) => ({
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    metadata: ownedMetadata(workspace, serviceAccountName(role), namespace),
    automountServiceAccountToken: false,
  }));
}
