import { DEFAULT_RETURN_PATH, safeReturnPath } from '@paddock/common';

/** Where the browser goes after sign-in when nothing (or nothing acceptable) was asked for. */
export const DEFAULT_RETURN_TO = DEFAULT_RETURN_PATH;

/**
 * The returnTo of a sign-in, if it is a same-origin path; anything else becomes DEFAULT_RETURN_TO.
 * The decision is the one the web interface makes too (`safeReturnPath` of @paddock/common).
 */
export function safeReturnTo(value: unknown): string {
  return safeReturnPath(value);
}
