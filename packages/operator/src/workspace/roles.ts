import type { WorkspaceRole } from '@paddock/kube';

/** The ClusterRole each workspace role is bound to inside the namespace. */
export function clusterRoleName(role: WorkspaceRole): string {
  return `paddock-workspace-${role}`;
}
