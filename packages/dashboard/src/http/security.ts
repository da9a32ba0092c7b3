/** The specification's four response headers, on every response. */
export const SPEC_SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'x-xss-protection': '1; mode=block',
  'referrer-policy': 'strict-origin-when-cross-origin',
} as const;

/** Everything comes from the dashboard's own origin; no inline script, no framing. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Methods that change state: a cookie-authenticated one must come from the dashboard's origin. */
export function isUnsafeMethod(method: string): boolean {
  return !['GET', 'HEAD', 'OPTIONS'].includes(method);
}

/**
 * Whether a state-changing request may go on, as far as cross-site forgery goes. Requests that
 * carry their credential in a header (API key, Bearer) cannot be forged by another site and pass.
 * Otherwise the Origin header (or, without it, the Referer's origin) must be one of the dashboard's
 * origins; with neither, only a request without the session cookie passes (a script or curl,
 * which holds no ambient authority).
 */
export function passesOriginCheck(request: {
  origin: string | undefined;
  referer: string | undefined;
  hasCredentialHeader: boolean;
  hasSessionCookie: boolean;
  allowedOrigins: readonly string[];
}): boolean {
  if (request.hasCredentialHeader) return true;
  if (request.origin !== undefined) return request.allowedOrigins.includes(request.origin);
  if (request.referer !== undefined) {
    try {
      return request.allowedOrigins.includes(new URL(request.referer).origin);
    } catch {
      return false;
    }
  }
  return !request.hasSessionCookie;
}
