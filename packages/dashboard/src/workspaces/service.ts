import type { Kube, Workspace, WorkspaceRole } from '@paddock/kube';
import { DashboardError } from '../errors.js';
import type { Principal } from '../auth/identity.js';
import { subjectOf } from './access.js';
import type { WorkspaceDirectory } from './directory.js';
import type { WorkspaceTokens } from './tokens.js';

/** The workspace side of the dashboard: who sees what, and the cluster as each role. */
export interface Workspaces {
  directory: WorkspaceDirectory;
  tokens: WorkspaceTokens;
  /**
   * The dashboard's own identity: used only to change a Workspace's members for its owners (a
   * cluster-scoped object no workspace ServiceAccount may write), never to read for a user.
   */
  kube: Kube;
}

/** A workspace a request may use: the object, the user's role in it, the cluster as that role. */
export interface WorkspaceInUse {
  workspace: Workspace;
  role: WorkspaceRole;
  /** The cluster as the ServiceAccount of the user's role. */
  cluster: () => Promise<Kube>;
}

/** Workspace names are Kubernetes object names. */
const NAME = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function isObjectName(name: string): boolean {
  return NAME.test(name);
}

/**
 * The workspace `name` as the caller may use it. One the caller holds no role in answers exactly as one
 * that does not exist, so that names do not leak.
 */
export function workspaceFor(
  workspaces: Workspaces | undefined,
  principal: Pick<Principal, 'user' | 'emailVerified'>,
  name: string,
  now: Date,
): WorkspaceInUse {
  if (workspaces === undefined) {
    throw new DashboardError('unavailable', 'no cluster is configured, so there are no workspaces');
  }
  const found = isObjectName(name)
    ? workspaces.directory.find(name, subjectOf(principal), now)
    : undefined;
  if (found === undefined) throw new DashboardError('not_found', `no workspace named "${name}"`);
  return {
    ...found,
    cluster: () => workspaces.tokens.clientFor(found.workspace, found.role),
  };
}
