import type { ApiError } from '../api/api-error.js';
import { errors } from '../api/api-error.js';

/** What a list's continue token carries: where the list was taken and where the next page starts. */
export interface ContinueToken {
  /** The first page's version; -1 continues at the current one (the token a 410 hands out). */
  resourceVersion: number;
  /** The `namespace/name` key of the first object of the next page. */
  start: string;
}

const TOKEN_VERSION = 'meta.k8s.io/v1';

/**
 * Why kube-apiserver refuses a paged list it can no longer show as it was. The 410 carries a token
 * that continues from the same place at the current version, for clients that accept an
 * inconsistent list.
 */
const INCONSISTENT_CONTINUE =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

/** Kubernetes' shape: unpadded base64url of `{"v":"meta.k8s.io/v1","rv":…,"start":…}`. */
export function encodeContinue(token: ContinueToken): string {
  return Buffer.from(
    JSON.stringify({ v: TOKEN_VERSION, rv: token.resourceVersion, start: token.start }),
  ).toString('base64url');
}

/** The token, or why it is not one, in kube-apiserver's words (without the 400's prefix). */
export function decodeContinue(text: string): ContinueToken | string {
  let raw: unknown;
  try {
    raw = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch (err) {
    return `continue key is not valid: ${(err as Error).message}`;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return 'continue key is not valid: not a JSON object';
  }
  const { v, rv, start } = raw as Record<string, unknown>;
  if (v !== TOKEN_VERSION) {
    return `continue key is not valid: server does not recognize this encoded version ${typeof v === 'string' ? v : JSON.stringify(v ?? '')}`;
  }
  if (rv !== undefined && !Number.isSafeInteger(rv)) {
    return 'continue key is not valid: rv is not an integer';
  }
  if (rv === undefined || rv === 0) {
    return 'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)';
  }
  if (start === undefined || start === '') {
    return 'continue key is not valid: encoded start key empty (version meta.k8s.io/v1)';
  }
  if (typeof start !== 'string') return 'continue key is not valid: start is not a string';
  return { resourceVersion: rv as number, start };
}

/** The token of a list request, or the 400 kube-apiserver answers for a bad one. */
export function continueOf(text: string): ContinueToken {
  const token = decodeContinue(text);
  if (typeof token === 'string') throw errors.badRequest(`invalid continue token: ${token}`);
  return token;
}

/** 410 Gone for a page whose first page's version is out of reach, with the token to go on anyway. */
export function expiredContinue(start: string): ApiError {
  const error = errors.expired(INCONSISTENT_CONTINUE);
  error.status.metadata = { continue: encodeContinue({ resourceVersion: -1, start }) };
  return error;
}
