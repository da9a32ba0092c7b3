import { CodedError, HttpError } from '@paddock/common';
import type { DashboardErrorCode } from '../errors.js';

/** The codes only the HTTP edge raises: the request itself, not the domain, is at fault. */
type EdgeErrorCode =
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'misdirected_request'
  | 'internal_error'
  | 'bad_gateway';

/**
 * Every error code the dashboard answers with, on its one fixed HTTP status: the domain's codes
 * (src/errors.ts) and the edge's own. The body is always `{ "error": "<code>", "message": "<text>" }`.
 */
export const ERROR_STATUS = {
  invalid_request: 400,
  password_too_short: 400,
  invalid_token: 400,
  unauthorized: 401,
  invalid_credentials: 401,
  forbidden: 403,
  email_not_verified: 403,
  signup_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  email_exists: 409,
  already_exists: 409,
  conflict: 409,
  last_owner: 409,
  workspace_suspended: 409,
  username_exists: 409,
  api_key_limit_reached: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  misdirected_request: 421,
  account_locked: 423,
  rate_limited: 429,
  internal_error: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const satisfies Record<DashboardErrorCode | EdgeErrorCode, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The error to throw for a code; its status comes from the table. */
export function apiError(code: ErrorCode, message: string): HttpError {
  return new HttpError(ERROR_STATUS[code], code, message);
}

/** The status of a code of the table; undefined for any other (which then answers 500). */
export function statusOfCode(code: string): number | undefined {
  return Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as ErrorCode] : undefined;
}

/** The status an error answers with, when it is one of the dashboard's (domain or edge). */
export function statusOfError(err: unknown): number | undefined {
  if (err instanceof HttpError) return err.status;
  return err instanceof CodedError ? statusOfCode(err.code) : undefined;
}
