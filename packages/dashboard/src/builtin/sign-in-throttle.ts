import type { LockoutBackoff } from '../store/types.js';

/**
 * How failed sign-ins are throttled. Failures are counted per (account, source) pair: after
 * SVC_BUILTIN_MAX_FAILED_ATTEMPTS from one source, that source (and only that source) is locked
 * out of that account for SVC_BUILTIN_LOCKOUT_DURATION, each further lock in a row twice as long.
 * The account itself stays open to every other source, and its sessions stay.
 */

/** The longest a pair's lock grows to. */
export const MAX_LOCKOUT_MS = 24 * 60 * 60 * 1000;
/** A pair's locks in a row are forgotten after this long without a failure. */
export const LOCKOUT_MEMORY_MS = 24 * 60 * 60 * 1000;
export const LOCKOUT_BACKOFF: LockoutBackoff = {
  maxLockoutMs: MAX_LOCKOUT_MS,
  memoryMs: LOCKOUT_MEMORY_MS,
};

/**
 * Failures on one account from all sources after which the account counts as under attack (many
 * sources guessing) for ACCOUNT_ATTACK_WINDOW_MS: each source is then locked after
 * ATTEMPTS_UNDER_ATTACK failures instead of SVC_BUILTIN_MAX_FAILED_ATTEMPTS. A source that signs
 * in right at the first or second try is never refused.
 */
export const ACCOUNT_ATTACK_FAILURES = 50;
export const ACCOUNT_ATTACK_WINDOW_MS = 15 * 60 * 1000;
export const ATTEMPTS_UNDER_ATTACK = 2;

/** The login_failures key of an account (or of an identifier that names none). */
export function accountKey(accountId: string | undefined, identifier: string): string {
  return accountId !== undefined ? `user:${accountId}` : `login:${identifier.toLowerCase()}`;
}

/** The key counting the failures of one source on one account. */
export function pairKey(account: string, source: string): string {
  return `${account}|src:${source}`;
}

/** The key counting the failures on an account from every source. */
export function attackKey(account: string): string {
  return `attack:${account}`;
}

/** Failures a source may make on an account before it is locked out of it. */
export function attemptsPerSource(maxFailedAttempts: number, underAttack: boolean): number {
  return underAttack ? Math.min(maxFailedAttempts, ATTEMPTS_UNDER_ATTACK) : maxFailedAttempts;
}
