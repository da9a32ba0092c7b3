import type { WorkspaceRole } from '@paddock/kube';

/** The three workspace roles, highest first. */
export const WORKSPACE_ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

/** The ClusterRole each workspace role is bound to inside the namespace. */
export function clusterRoleName(role: WorkspaceRole): string {
  return `paddock-workspace-${role}`;
}
