import {
  higherWorkspaceRole,
  isGrantActive,
  type Workspace,
  type WorkspaceRole,
} from '@paddock/kube';

export interface MemberCounts {
  owners: number;
  editors: number;
  viewers: number;
}

/**
 * status.members: distinct subjects (groups, ServiceAccounts, users with an active direct grant)
 * counted once each, under the highest role the spec gives them, as the dashboard grants the highest
 * role found. Anonymous access and the workspace's own ServiceAccounts are not members.
 */
export function memberCounts(workspace: Workspace, now: Date): MemberCounts {
  const highest = new Map<string, WorkspaceRole>();
  const grant = (subject: string, role: WorkspaceRole) => {
    highest.set(subject, higherWorkspaceRole(highest.get(subject), role) ?? role);
  };
  for (const entry of workspace.spec.roleBindings ?? []) {
    for (const group of entry.groups ?? []) grant(`Group:${group}`, entry.role);
    for (const sa of entry.serviceAccounts ?? []) {
      grant(`ServiceAccount:${sa.namespace}/${sa.name}`, entry.role);
    }
  }
  for (const direct of workspace.spec.directGrants ?? []) {
    if (isGrantActive(direct, now)) grant(`User:${direct.user}`, direct.role);
  }
  const counts: MemberCounts = { owners: 0, editors: 0, viewers: 0 };
  for (const role of highest.values()) counts[`${role}s`]++;
  return counts;
}
