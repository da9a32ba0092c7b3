import {
  higherWorkspaceRole,
  isGrantActive,
  type Workspace,
  type WorkspaceRole,
} from '@paddock/kube';
import type { Principal } from '../auth/identity.js';

/** Who asks for a workspace, as far as workspace access reads it. */
export interface Subject {
  /** Anonymous users (anonymous mode) get only what anonymousAccess gives. */
  anonymous: boolean;
  username: string;
  /** A verified e-mail address only: direct grants by e-mail never go to an unverified one. */
  email?: string | undefined;
  groups: readonly string[];
}

/**
 * The subject of a dashboard caller (an API key's requests carry its owner's user). The e-mail
 * counts only when verified: anyone can sign up with someone else's address, and must not inherit
 * that address's grants.
 */
export function subjectOf(principal: Pick<Principal, 'user' | 'emailVerified'>): Subject {
  const { user } = principal;
  return {
    anonymous: user.provider === 'anonymous',
    username: user.username,
    email: principal.emailVerified ? user.email : undefined,
    groups: user.groups,
  };
}

/** The role anonymousAccess gives, when enabled. */
export function anonymousRole(workspace: Workspace): WorkspaceRole | undefined {
  const access = workspace.spec.anonymousAccess;
  return access?.enabled === true ? (access.role ?? 'viewer') : undefined;
}

/** Case-insensitive identity of a direct grant's user: a username or an email address. */
export function grantKey(user: string): string {
  return user.trim().toLowerCase();
}

/**
 * The role `subject` holds in `workspace` at `now`, or undefined for none: the highest of
 * - the roleBindings whose groups include one of the subject's groups,
 * - the direct grants naming its username or email (case-insensitive) that have not expired
 *   (an expiry that cannot be read counts as expired),
 * - anonymousAccess when enabled, which is also a floor for signed-in users: nobody signed in
 *   holds less than an anonymous visitor would.
 * Anonymous subjects hold only the anonymousAccess role.
 */
export function workspaceRoleOf(
  workspace: Workspace,
  subject: Subject,
  now: Date,
): WorkspaceRole | undefined {
  return roleOfPrepared(workspace, prepare(subject), now);
}

/** A subject as role decisions read it, made once when many workspaces are decided for it. */
export interface PreparedSubject {
  anonymous: boolean;
  groups: ReadonlySet<string>;
  /** Username and email, as grant keys. */
  names: readonly string[];
}

export function prepare(subject: Subject): PreparedSubject {
  return {
    anonymous: subject.anonymous,
    groups: new Set(subject.groups),
    names: [subject.username, subject.email].flatMap((n) =>
      n === undefined || n === '' ? [] : [grantKey(n)],
    ),
  };
}

/** workspaceRoleOf for a prepared subject. */
export function roleOfPrepared(
  workspace: Workspace,
  subject: PreparedSubject,
  now: Date,
): WorkspaceRole | undefined {
  let role = anonymousRole(workspace);
  if (subject.anonymous) return role;
  for (const binding of workspace.spec.roleBindings ?? []) {
    if (binding.groups?.some((group) => subject.groups.has(group)) === true) {
      role = higherWorkspaceRole(role, binding.role);
    }
  }
  for (const grant of workspace.spec.directGrants ?? []) {
    if (subject.names.includes(grantKey(grant.user)) && isGrantActive(grant, now)) {
      role = higherWorkspaceRole(role, grant.role);
    }
  }
  return role;
}
