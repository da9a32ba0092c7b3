import { CodedError } from '@paddock/common';

/**
 * The dashboard's domain error codes: the specification's named ones and the general ones. What
 * each answers over HTTP is the edge's business (http/errors.ts); domain code only names the code.
 */
export const DASHBOARD_ERROR_CODES = [
  'invalid_request',
  'password_too_short',
  'invalid_token',
  'unauthorized',
  'invalid_credentials',
  'forbidden',
  'email_not_verified',
  'signup_disabled',
  'not_found',
  'email_exists',
  'already_exists',
  'conflict',
  'last_owner',
  'workspace_suspended',
  'username_exists',
  'api_key_limit_reached',
  'account_locked',
  'rate_limited',
  'unavailable',
] as const;

export type DashboardErrorCode = (typeof DASHBOARD_ERROR_CODES)[number];

/** A failure of the dashboard's domain, named by its code (jose-style: `err.code`). */
export class DashboardError extends CodedError {
  declare readonly code: DashboardErrorCode;

  constructor(code: DashboardErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = 'DashboardError';
  }
}

/** Whether `err` is a dashboard error, of `code` when one is given. */
export function isDashboardError(err: unknown, code?: DashboardErrorCode): err is DashboardError {
  return err instanceof DashboardError && (code === undefined || err.code === code);
}
