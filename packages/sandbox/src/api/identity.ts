import type { IncomingHttpHeaders } from 'node:http';

/** Who is calling, as the auth-terminating proxy in front of the sandbox says. */
export interface Identity {
  /** X-Forwarded-Sub: the stable subject; audit identifier and owner of SSH keys. */
  sub: string;
  /** X-Forwarded-User, when given. */
  user: string | undefined;
  /** X-Forwarded-Groups, comma-separated; informational only. */
  groups: string[];
}

/** The placeholder identity of -dev-mode. */
export const DEV_IDENTITY: Identity = { sub: 'dev', user: 'dev', groups: [] };

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

/**
 * The caller's identity from the headers, or undefined when X-Forwarded-Sub is missing and dev mode
 * is off (the caller then gets 401 and no handler runs).
 */
export function identityFromHeaders(
  headers: IncomingHttpHeaders,
  devMode: boolean,
): Identity | undefined {
  const sub = header(headers, 'x-forwarded-sub');
  if (sub === undefined) return devMode ? DEV_IDENTITY : undefined;
  const groups = (header(headers, 'x-forwarded-groups') ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '');
  return { sub, user: header(headers, 'x-forwarded-user'), groups };
}
