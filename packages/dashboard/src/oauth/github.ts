import { profileFromClaims } from './claims.js';
import { OAuthError } from './errors.js';
import type { OAuthProfile } from './login.js';

/** GitHub's user has no claims to configure: these are the REST API's field names. */
const GITHUB_FIELDS = { username: 'login', email: 'email', displayName: 'name', groups: 'groups' };

const TIMEOUT_MS = 10_000;

interface GitHubEmail {
  email?: unknown;
  primary?: unknown;
  verified?: unknown;
}

async function getJson(
  fetchImpl: typeof fetch,
  apiUrl: string,
  path: string,
  accessToken: string,
): Promise<{ ok: true; body: unknown } | { ok: false; status: number }> {
  const response = await fetchImpl(new URL(path, apiUrl), {
    headers: {
      accept: 'application/vnd.github+json',
      authorization: `Bearer ${accessToken}`,
      // The GitHub API refuses requests without a User-Agent.
      'user-agent': 'paddock-dashboard',
      'x-github-api-version': '2022-11-28',
    },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) {
    await response.body?.cancel();
    return { ok: false, status: response.status };
  }
  return { ok: true, body: await response.json() };
}

/** The primary e-mail, if GitHub has verified it. */
export function primaryVerifiedEmail(emails: unknown): string | undefined {
  if (!Array.isArray(emails)) return undefined;
  const primary = (emails as GitHubEmail[]).find(
    (e) => e !== null && typeof e === 'object' && e.primary === true && e.verified === true,
  );
  return typeof primary?.email === 'string' ? primary.email : undefined;
}

/**
 * The signed-in GitHub user from the REST API (`GET /user`, `GET /user/emails`): subject is the
 * numeric user id (logins can be renamed), username the login, no groups. `apiUrl` ends in `/`.
 */
export async function fetchGitHubProfile(
  apiUrl: string,
  accessToken: string,
  fetchImpl: typeof fetch = fetch,
): Promise<OAuthProfile> {
  let user: Awaited<ReturnType<typeof getJson>>;
  let emails: Awaited<ReturnType<typeof getJson>>;
  try {
    [user, emails] = await Promise.all([
      getJson(fetchImpl, apiUrl, 'user', accessToken),
      getJson(fetchImpl, apiUrl, 'user/emails', accessToken),
    ]);
  } catch (err) {
    throw new OAuthError('callback_failed', 'the GitHub API could not be reached', { cause: err });
  }
  if (!user.ok) {
    throw new OAuthError('callback_failed', `the GitHub API answered ${user.status} to GET /user`);
  }
  const body = user.body as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object' || !Number.isSafeInteger(body.id)) {
    throw new OAuthError('invalid_claims', 'the GitHub user has no numeric id');
  }
  // Without the user:email scope the list is refused: the user then simply has no e-mail.
  const email = emails.ok ? primaryVerifiedEmail(emails.body) : undefined;
  return profileFromClaims(
    // Only the primary verified address is read: it is verified by construction.
    { sub: String(body.id), login: body.login, name: body.name, email, email_verified: true },
    GITHUB_FIELDS,
  );
}
