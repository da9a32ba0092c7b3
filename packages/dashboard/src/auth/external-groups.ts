import type { UserRecord } from '../store/types.js';

/**
 * How long the groups an identity provider last vouched for (a proxy or OAuth user's latest
 * sign-in, proxied request or Bearer JWT) still count for the user's API keys. Past it, a key of
 * that user carries no groups (its role falls back to viewer) until the user is seen again: a
 * removed admin keeps admin through a key at most this long after their last sign-in.
 */
export const EXTERNAL_GROUPS_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * The groups an API key of `record`'s user acts with at `now`: a builtin user's groups (the
 * dashboard's own store is their source), an external user's last vouched-for groups while they
 * are younger than `maxAgeMs`, otherwise none (also when they were never stamped).
 */
export function keyGroups(
  record: Pick<UserRecord, 'provider' | 'groups' | 'groupsSeenAt'>,
  now: number,
  maxAgeMs = EXTERNAL_GROUPS_MAX_AGE_MS,
): string[] {
  if (record.provider === 'builtin') return record.groups;
  if (record.groupsSeenAt === null) return [];
  return now - record.groupsSeenAt <= maxAgeMs ? record.groups : [];
}
