import type { IncomingHttpHeaders } from 'node:http';
import { PROOF_HEADER, type ProofIdentity } from '@paddock/common';
import type { User } from '../auth/user.js';

/**
 * Who the sandbox is told the caller is, and the request headers it gets. The dashboard is the
 * auth-terminating proxy of the sandbox's human API: whatever identity or credential the client
 * sent is removed, and the signed-in user is said in the sandbox's X-Forwarded-* headers and,
 * signed, in X-Paddock-Proof (docs/decisions/0022).
 */

/** A value an HTTP header carries as it is: printable ASCII. */
const HEADER_SAFE = /^[\x20-\x7e]*$/;

/** Printable ASCII as it is; anything else percent-encoded, the same in the header and the proof. */
function headerText(value: string): string {
  return HEADER_SAFE.test(value) ? value : encodeURIComponent(value);
}

/**
 * The identity of a dashboard user as the sandbox takes it: sub and user are the username (unique
 * in the dashboard's one authentication mode, and what the sandbox's audit lines should name);
 * groups as the user has them, less any the comma-separated header could not carry.
 */
export function sandboxIdentity(user: Pick<User, 'username' | 'groups'>): Required<ProofIdentity> {
  const name = headerText(user.username);
  return {
    sub: name,
    user: name,
    groups: user.groups.map(headerText).filter((g) => g.trim() !== '' && !g.includes(',')),
  };
}

/** Headers that carry a credential of the dashboard's: never sent on to a pod. */
const CREDENTIALS = ['authorization', 'cookie', 'x-api-key', 'proxy-authorization'];
/** Headers that say who or where the client is, which only the dashboard may set. */
const CLIENT_CLAIMS = ['forwarded', 'x-real-ip', PROOF_HEADER.toLowerCase()];

/**
 * Rewrites a request's headers, in place, for a pod: credentials and every identity claim the
 * client made go (all X-Forwarded-*, and the names the proxy auth mode reads, `claimHeaders`),
 * then the user's identity and, when given, the proof.
 */
export function headersForSandbox(
  headers: IncomingHttpHeaders,
  identity: Required<ProofIdentity>,
  proof: string | undefined,
  claimHeaders: readonly string[] = [],
): void {
  const claims = new Set([
    ...CREDENTIALS,
    ...CLIENT_CLAIMS,
    ...claimHeaders.map((h) => h.toLowerCase()),
  ]);
  for (const name of Object.keys(headers)) {
    if (claims.has(name) || name.startsWith('x-forwarded-')) delete headers[name];
  }
  headers['x-forwarded-sub'] = identity.sub;
  headers['x-forwarded-user'] = identity.user;
  headers['x-forwarded-groups'] = identity.groups.join(',');
  if (proof !== undefined) headers[PROOF_HEADER.toLowerCase()] = proof;
}

/**
 * The headers a pod's answer may not bring to the dashboard's origin, and the ones it gets instead:
 * a pod runs the agent's code, so what it serves is untrusted content. No cookie may be set for
 * the dashboard, nothing it serves may run scripts or be framed there, and the type it says is
 * the type the browser uses.
 */
export function hardenSandboxResponse(
  headers: Record<string, string | string[] | undefined>,
): void {
  delete headers['set-cookie'];
  delete headers['set-cookie2'];
  delete headers['clear-site-data'];
  delete headers['access-control-allow-origin'];
  delete headers['access-control-allow-credentials'];
  headers['content-security-policy'] = "default-src 'none'; sandbox";
  headers['x-content-type-options'] = 'nosniff';
  headers['cross-origin-resource-policy'] = 'same-origin';
  headers['x-frame-options'] = 'DENY';
}
