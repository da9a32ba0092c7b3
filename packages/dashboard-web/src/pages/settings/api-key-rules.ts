// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import { asSentence, errorCode } from '../sentences.js';

/** What the API keys page decides: expiry choices and states, the name's check, its sentences. */

export const EXPIRY_CHOICES = [
  { days: 30, label: '30 days' },
  { days: 90, label: '90 days' },
  { days: 365, label: '1 year' },
  { days: 0, label: 'Never' },
] as const;

/** The expiry a new key gets unless another is chosen. */
export const DEFAULT_EXPIRY_DAYS = 90;

const DAY_MS = 86_400_000;

export type ExpiryState = 'never' | 'expired' | 'soon' | 'later';

/** Whether a key never expires, has expired, expires within a week, or later (at `now`, ms). */
export function expiryState(expires: string | null, now: number = Date.now()): ExpiryState {
  if (expires === null) return 'never';
  const left = new Date(expires).getTime() - now;
  if (left <= 0) return 'expired';
  return left < 7 * DAY_MS ? 'soon' : 'later';
}

/** Why a key cannot have this name, or null when it can (the name is sent trimmed). */
export function keyNameProblem(name: string): string | null {
  return name.trim() === '' ? 'Give the key a name, like “CI pipeline”.' : null;
}

/** What went wrong creating or revoking a key, as a sentence; a full quota says how to free one. */
export function keyErrorSentence(err: unknown): string {
  if (!(err instanceof Error)) return 'Something went wrong.';
  const sentence = asSentence(err.message);
  return errorCode(err) === 'api_key_limit_reached'
    ? `${sentence} Revoke a key you no longer use to make room.`
    : sentence;
}

export const keyMessages = {
  revoked: (name: string) => `The key “${name}” is revoked: it no longer works.`,
  notRevoked: (name: string, err: unknown) =>
    `The key “${name}” was not revoked. ${keyErrorSentence(err)}`,
};
