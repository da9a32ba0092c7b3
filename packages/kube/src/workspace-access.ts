import type { WorkspaceDirectGrant, WorkspaceRole } from './resources/workspace.js';

/**
 * Who may do what in a workspace, as the operator (RoleBindings, status.members) and the dashboard
 * (each user's role) both read it from the Workspace: the one place for these facts.
 */

/** The three workspace roles, highest first. */
export const WORKSPACE_ROLES: readonly WorkspaceRole[] = ['owner', 'editor', 'viewer'];

/** The higher of two workspace roles (either may be absent). */
export function higherWorkspaceRole(
  a: WorkspaceRole | undefined,
  b: WorkspaceRole | undefined,
): WorkspaceRole | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return WORKSPACE_ROLES.indexOf(a) <= WORKSPACE_ROLES.indexOf(b) ? a : b;
}

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an RFC 3339 timestamp names, in milliseconds, or undefined when it is not one.
 * `Date.parse` alone is too lenient (it accepts other formats and rolls February 30 over into March).
 */
export function parseRfc3339(text: string): number | undefined {
  const match = RFC3339.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const offsetOk = match[9] === undefined || (Number(match[10]) <= 23 && Number(match[11]) <= 59);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || !offsetOk) return undefined;
  const instant = Date.parse(text.toUpperCase());
  return Number.isNaN(instant) ? undefined : instant;
}

/**
 * Whether a direct grant is in force at `now`. It ends at its expiry instant (a grant expiring
 * exactly now is over), and an expiry that cannot be read counts as past: access fails closed.
 */
export function isGrantActive(grant: WorkspaceDirectGrant, now: Date): boolean {
  if (grant.expires === undefined) return true;
  const expires = parseRfc3339(grant.expires);
  return expires !== undefined && now.getTime() < expires;
}

/** The earliest expiry still ahead of `now`, when the controller must reconcile again. */
export function nextExpiry(
  grants: readonly WorkspaceDirectGrant[] | undefined,
  now: Date,
): Date | undefined {
  let earliest: number | undefined;
  for (const grant of grants ?? []) {
    const expires = grant.expires === undefined ? undefined : parseRfc3339(grant.expires);
    if (
      expires !== undefined &&
      expires > now.getTime() &&
      (earliest === undefined || expires < earliest)
    ) {
      earliest = expires;
    }
  }
  return earliest === undefined ? undefined : new Date(earliest);
}
