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

/** Host names a dashboard without SVC_BASE_URL answers to (with its port), beside its listen host. */
export const LOCAL_HOST_NAMES = ['localhost', '127.0.0.1', '[::1]'] as const;

/** Longest Host value quoted back in a refusal. */
const MAX_QUOTED_HOST_CHARS = 100;

/** What the Host check compares against: normalized `hostname:port` forms, and the scheme. */
export interface HostAllowList {
  scheme: 'http:' | 'https:';
  hosts: ReadonlySet<string>;
}

function defaultPort(scheme: 'http:' | 'https:'): string {
  return scheme === 'https:' ? '443' : '80';
}

/**
 * A Host header as `hostname:port` (lower-case, IPv6 in brackets, the scheme's default port made
 * explicit), or undefined when it is not a bare `host[:port]` (a path, user info, spaces...).
 */
export function normalizedHost(value: string, scheme: 'http:' | 'https:'): string | undefined {
  if (value === '' || /[/\\@?#\s]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`${scheme}//${value}`);
  } catch {
    return undefined;
  }
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined;
  return `${url.hostname}:${url.port === '' ? defaultPort(scheme) : url.port}`;
}

/**
 * The host names the dashboard answers to: SVC_BASE_URL's host when it is set; otherwise the
 * local names (LOCAL_HOST_NAMES) and the listen host (unless it is every interface), each with the
 * port the dashboard listens on.
 */
export function hostAllowList(options: {
  baseUrl: URL | undefined;
  listenHost: string;
  port: number;
}): HostAllowList {
  const { baseUrl, listenHost, port } = options;
  if (baseUrl !== undefined) {
    const scheme = baseUrl.protocol === 'https:' ? 'https:' : 'http:';
    const host = normalizedHost(baseUrl.host, scheme);
    return { scheme, hosts: new Set(host === undefined ? [] : [host]) };
  }
  const names: string[] = [...LOCAL_HOST_NAMES];
  if (!['', '0.0.0.0', '::'].includes(listenHost)) {
    names.push(listenHost.includes(':') ? `[${listenHost}]` : listenHost);
  }
  const hosts = names.flatMap((name) => normalizedHost(`${name}:${port}`, 'http:') ?? []);
  return { scheme: 'http:', hosts: new Set(hosts) };
}

/**
 * Why a request's Host is refused, or undefined when it is one of the allowed ones. A browser
 * led to the dashboard by DNS rebinding sends the attacker's name as Host: refusing every name
 * but the dashboard's own keeps such a page from reading or changing anything.
 */
export function hostRefusal(host: string | undefined, allowed: HostAllowList): string | undefined {
  // The usual Host is already in the list's form, which normalizedHost leaves as it is: no parsing.
  if (host !== undefined && allowed.hosts.has(host)) return undefined;
  const normalized = host === undefined ? undefined : normalizedHost(host, allowed.scheme);
  if (normalized !== undefined && allowed.hosts.has(normalized)) return undefined;
  const shown =
    host === undefined
      ? 'no Host header'
      : `the Host "${host.length > MAX_QUOTED_HOST_CHARS ? `${host.slice(0, MAX_QUOTED_HOST_CHARS)}…` : host}"`;
  return (
    `${shown} is not a name of this dashboard (it answers to ${[...allowed.hosts].join(', ')}); ` +
    'to reach it under another name or port, set SVC_BASE_URL to that address'
  );
}
