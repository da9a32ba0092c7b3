import type { Logger } from '@paddock/common';

/** How someone signed in, or tried to. */
export const SIGN_IN_MODES = ['builtin', 'oauth', 'proxy', 'api-key', 'bearer'] as const;
export type SignInMode = (typeof SIGN_IN_MODES)[number];

export type SignInResult = 'success' | 'failure';

/** The stable messages of the two sign-in log lines. */
export const SIGN_IN_SUCCEEDED = 'sign-in succeeded';
export const SIGN_IN_FAILED = 'sign-in failed';

/**
 * One sign-in or failed sign-in: who (as far as known), how, from where, and why it failed.
 * Never a password, token, cookie or key: only names and codes.
 */
export interface SignInEvent {
  mode: SignInMode;
  result: SignInResult;
  /** A failure's code: the error code answered (`invalid_credentials`, `account_locked`, …). */
  reason?: string;
  /** A failure's sentence, as answered to the client. */
  detail?: string;
  /** Who: the user's record when known, else the name given (a failed builtin sign-in's username). */
  user?: { id?: string; username?: string; email?: string };
  /** The client's address (as the rate limits see it) and user agent. */
  client: { ip: string; userAgent?: string | undefined };
}

/** Who signed in, from their user or record: id, username and e-mail. */
export function signInUser(user: {
  id: string;
  username: string;
  email?: string | null | undefined;
}): NonNullable<SignInEvent['user']> {
  const who: NonNullable<SignInEvent['user']> = { id: user.id, username: user.username };
  if (typeof user.email === 'string') who.email = user.email;
  return who;
}

/** Longest text taken from the client into a log line: a username, a user agent. */
export const MAX_LOGGED_CHARS = 256;

function clip(text: string | undefined): string | undefined {
  return text === undefined || text.length <= MAX_LOGGED_CHARS
    ? text
    : `${text.slice(0, MAX_LOGGED_CHARS)}…`;
}

/**
 * The log line of a sign-in event: its level, flat fields and stable message. Failures refused
 * by a rate limit are at debug level: the limit already bounds the warnings a source can cause,
 * and a flood must not flood the log.
 */
export function signInLine(event: SignInEvent): {
  level: 'info' | 'warn' | 'debug';
  fields: Record<string, string>;
  message: string;
} {
  const fields: Record<string, string> = { mode: event.mode, result: event.result };
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined && value !== '') fields[name] = value;
  };
  put('reason', event.reason);
  put('detail', event.detail);
  put('userId', event.user?.id);
  put('username', clip(event.user?.username));
  put('email', clip(event.user?.email));
  put('clientIp', event.client.ip);
  put('userAgent', clip(event.client.userAgent));
  if (event.result === 'success') return { level: 'info', fields, message: SIGN_IN_SUCCEEDED };
  const level = event.reason === 'rate_limited' ? 'debug' : 'warn';
  return { level, fields, message: SIGN_IN_FAILED };
}

/** Writes a sign-in event to the service's log. */
export function logSignIn(
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>,
  event: SignInEvent,
): void {
  const { level, fields, message } = signInLine(event);
  logger[level](fields, message);
}
