import { HttpError } from '@paddock/common';

/**
 * Every error code the dashboard answers with, on its one fixed HTTP status: the specification's
 * named codes and the general ones. The body is always `{ "error": "<code>", "message": "<text>" }`.
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
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** The error to throw for a code; its status comes from the table. */
export function apiError(code: ErrorCode, message: string): HttpError {
  return new HttpError(ERROR_STATUS[code], code, message);
}
