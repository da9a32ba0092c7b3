/** The OAuth callback error codes of the specification. */
export const OAUTH_ERROR_CODES = [
  'invalid_state',
  'no_code',
  'callback_failed',
  'access_denied',
  'invalid_claims',
  'config_error',
] as const;

export type OAuthErrorCode = (typeof OAUTH_ERROR_CODES)[number];

/** A failed OAuth step, named by the callback error code the browser is sent back with. */
export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'OAuthError';
  }
}
