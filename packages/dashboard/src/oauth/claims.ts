import type { DashboardConfig } from '../config.js';
import { OAuthError } from './errors.js';
import type { OAuthProfile } from './login.js';

/** The claim names of SVC_OAUTH_CLAIM_*; each may be a dotted path such as `realm_access.roles`. */
export interface ClaimNames {
  username: string;
  email: string;
  displayName: string;
  groups: string;
}

// Bounds on what a token can make us keep: a hostile or misconfigured provider must not be able to
// grow a session without limit. Too-long identifiers are refused rather than cut, since a cut one
// could equal another user's or group's.
export const MAX_GROUPS = 1000;
export const MAX_GROUP_CHARS = 256;
export const MAX_SUBJECT_CHARS = 255;
export const MAX_USERNAME_CHARS = 256;
export const MAX_EMAIL_CHARS = 320;
export const MAX_DISPLAY_NAME_CHARS = 256;

export function claimNames(
  config: Pick<
    DashboardConfig,
    | 'SVC_OAUTH_CLAIM_USERNAME'
    | 'SVC_OAUTH_CLAIM_EMAIL'
    | 'SVC_OAUTH_CLAIM_DISPLAY_NAME'
    | 'SVC_OAUTH_CLAIM_GROUPS'
  >,
): ClaimNames {
  return {
    username: config.SVC_OAUTH_CLAIM_USERNAME,
    email: config.SVC_OAUTH_CLAIM_EMAIL,
    displayName: config.SVC_OAUTH_CLAIM_DISPLAY_NAME,
    groups: config.SVC_OAUTH_CLAIM_GROUPS,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The claim at `path`: an exact top-level key wins (claim names such as
 * `https://example.com/groups` contain dots), else the path is walked through nested objects.
 * Only own properties are read, so `__proto__` and friends are never reached.
 */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(claims, path)) return claims[path];
  let current: unknown = claims;
  for (const segment of path.split('.')) {
    if (!isObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/**
 * Groups from an array of strings or a comma-separated string; anything else gives none. Entries
 * are trimmed, empty and too-long ones dropped, duplicates removed, and at most MAX_GROUPS read.
 */
export function groupsFrom(value: unknown): string[] {
  let entries: unknown[];
  if (Array.isArray(value)) entries = value.slice(0, MAX_GROUPS);
  else if (typeof value === 'string') entries = value.split(',', MAX_GROUPS);
  else return [];
  const groups = new Set<string>();
  for (const entry of entries) {
    if (typeof entry !== 'string') continue;
    const group = entry.trim();
    if (group !== '' && group.length <= MAX_GROUP_CHARS) groups.add(group);
  }
  return [...groups];
}

/** A non-empty string claim of at most `max` characters, else undefined. */
function stringClaim(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed !== '' && trimmed.length <= max ? trimmed : undefined;
}

/**
 * The profile the claims describe. `sub` is required, and a username: the username claim, else
 * the e-mail. Throws OAuthError invalid_claims when either is missing. The e-mail is verified only
 * when the standard `email_verified` claim is the boolean true.
 */
export function profileFromClaims(
  claims: Record<string, unknown>,
  names: ClaimNames,
): OAuthProfile {
  const subject = stringClaim(claims.sub, MAX_SUBJECT_CHARS);
  if (subject === undefined)
    throw new OAuthError('invalid_claims', 'the provider gave no usable sub claim');
  const email = stringClaim(claimAt(claims, names.email), MAX_EMAIL_CHARS);
  const username = stringClaim(claimAt(claims, names.username), MAX_USERNAME_CHARS) ?? email;
  if (username === undefined) {
    throw new OAuthError(
      'invalid_claims',
      `the provider gave neither a ${names.username} nor a ${names.email} claim`,
    );
  }
  // A display name identifies nobody, so a long one is shortened instead of dropped.
  const shown = claimAt(claims, names.displayName);
  const displayName =
    typeof shown === 'string'
      ? stringClaim(shown.trim().slice(0, MAX_DISPLAY_NAME_CHARS), MAX_DISPLAY_NAME_CHARS)
      : undefined;
  return {
    subject,
    username,
    ...(email !== undefined && { email, emailVerified: claims.email_verified === true }),
    ...(displayName !== undefined && { displayName }),
    groups: groupsFrom(claimAt(claims, names.groups)),
  };
}
