import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client,
  errorOf,
  manyGroups,
  startOAuthDashboard,
  type Answer,
  type OAuthDashboard,
  type RunningDashboard,
  type RunningOidcProvider,
} from '@paddock/testing';
import type { User } from '../src/auth/user.js';

const COOKIE = 'svc_session';
const ADMIN_GROUP = 'platform-admins';
const EDITOR_GROUP = 'dev';

const ACCOUNTS = {
  alice: {
    preferred_username: 'alice',
    email: 'alice@example.test',
    email_verified: true,
    name: 'Alice Liddell',
    groups: [EDITOR_GROUP, 'qa'],
  },
  bob: {
    preferred_username: 'bob',
    email: 'bob@example.test',
    name: 'Bob Builder',
    groups: [ADMIN_GROUP, EDITOR_GROUP],
  },
  nameless: { name: 'No Name', groups: [EDITOR_GROUP] },
  crowd: { preferred_username: 'crowd', email: 'crowd@example.test', groups: manyGroups(400) },
};

interface UserBody {
  user: User;
}

let oauth: OAuthDashboard;
let op: RunningOidcProvider;
let dashboard: RunningDashboard;
let origin: string;

before(async () => {
  oauth = await startOAuthDashboard(ACCOUNTS, {
    SVC_OAUTH_PROVIDER: 'generic',
    SVC_AUTH_ROLE_ADMIN_GROUPS: ADMIN_GROUP,
    SVC_AUTH_ROLE_EDITOR_GROUPS: EDITOR_GROUP,
  });
  ({ op, dashboard, origin } = oauth);
  assert.equal(dashboard.base, origin);
});
after(async () => {
  await oauth?.stop();
});

const newClient = () => new Client(dashboard.base);

function locationOf(answer: Answer): string {
  const location = answer.headers.get('location');
  assert.ok(location !== null, `expected a Location header on a ${answer.status} answer`);
  return location;
}

/** Starts a sign-in on the dashboard; the provider's authorization URL it redirects to. */
async function startLogin(client: Client, returnTo?: string): Promise<string> {
  const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  const answer = await client.get(`/api/auth/login${query}`);
  assert.equal(answer.status, 302);
  return locationOf(answer);
}

/** Brings the browser back to the dashboard's callback; the dashboard's answer. */
function callback(client: Client, url: URL): Promise<Answer> {
  assert.equal(url.origin, origin, `the provider sent the browser to ${url.href}`);
  return client.get(`${url.pathname}${url.search}`);
}

/** Signs `account` in through the whole flow; the callback's answer. */
async function signIn(client: Client, account: string, returnTo?: string): Promise<Answer> {
  const authorizationUrl = await startLogin(client, returnTo);
  return callback(client, await op.signIn(authorizationUrl, account));
}

async function signedIn(account: string): Promise<Client> {
  const client = newClient();
  const answer = await signIn(client, account);
  assert.equal(answer.status, 302);
  assert.equal(locationOf(answer), '/');
  return client;
}

async function me(client: Client, headers?: Record<string, string>): Promise<Answer> {
  return client.get('/api/auth/me', headers);
}

function userOf(answer: Answer): UserBody['user'] {
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as UserBody).user;
}

async function assertNoSession(client: Client): Promise<void> {
  assert.ok(![...client.jar.keys()].some((name) => name.startsWith(COOKIE)), 'a session cookie');
  const answer = await me(client);
  assert.equal(answer.status, 401);
  assert.equal(errorOf(answer), 'unauthorized');
}

async function providerMetadata(): Promise<Record<string, string>> {
  const response = await fetch(`${op.issuer}/.well-known/openid-configuration`);
  return (await response.json()) as Record<string, string>;
}

describe('oauth mode: sign-in', () => {
  it('redirects GET login to the provider with PKCE S256, state, nonce and the callback URI', async () => {
    const client = newClient();
    const answer = await client.get('/api/auth/login?returnTo=/workspaces/a');
    assert.equal(answer.status, 302);
    const url = new URL(locationOf(answer));
    const { authorization_endpoint } = await providerMetadata();
    assert.equal(`${url.origin}${url.pathname}`, authorization_endpoint);
    const asked = url.searchParams;
    assert.equal(asked.get('client_id'), op.clientId);
    assert.equal(asked.get('response_type'), 'code');
    assert.equal(asked.get('redirect_uri'), `${origin}/api/auth/callback`);
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.match(asked.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.ok((asked.get('state') ?? '').length >= 16, 'a state');
    assert.ok((asked.get('nonce') ?? '').length >= 16, 'a nonce');
    assert.ok(
      answer.cookies.some((line) => line.startsWith(`${COOKIE}=`)),
      'the sign-in in progress is kept in the session cookie',
    );
  });

  it('signs the user in and returns to the page asked for, with the provider’s claims and a mapped role', async () => {
    const client = newClient();
    const answer = await signIn(client, 'alice', '/workspaces/a');
    assert.equal(answer.status, 302);
    assert.equal(locationOf(answer), '/workspaces/a');
    const cookie = answer.cookies.find((line) => line.startsWith(`${COOKIE}=`));
    assert.ok(cookie, 'a session cookie');
    for (const attribute of [/HttpOnly/i, /Secure/i, /SameSite=Lax/i, /Path=\//i]) {
      assert.match(cookie, attribute);
    }
    const user = userOf(await me(client));
    assert.ok(user.id);
    assert.deepEqual(
      { ...user, id: undefined },
      {
        id: undefined,
        username: 'alice',
        email: 'alice@example.test',
        displayName: 'Alice Liddell',
        groups: [EDITOR_GROUP, 'qa'],
        role: 'editor',
        provider: 'oauth',
      },
    );
  });

  it('gives the admin role to a member of an admin group', async () => {
    const user = userOf(await me(await signedIn('bob')));
    assert.equal(user.username, 'bob');
    assert.equal(user.role, 'admin');
  });

  it('answers POST login with 303 to the provider', async () => {
    const client = newClient();
    const answer = await client.post('/api/auth/login');
    assert.equal(answer.status, 303);
    const url = new URL(locationOf(answer));
    const { authorization_endpoint } = await providerMetadata();
    assert.equal(`${url.origin}${url.pathname}`, authorization_endpoint);
    assert.equal(url.searchParams.get('code_challenge_method'), 'S256');
    assert.equal(url.searchParams.get('redirect_uri'), `${origin}/api/auth/callback`);
    // The flow started by POST completes like the one started by GET.
    const done = await callback(client, await op.signIn(url.href, 'alice'));
    assert.equal(done.status, 302);
    assert.equal(userOf(await me(client)).username, 'alice');
  });

  for (const returnTo of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
    it(`refuses the open redirect ${returnTo} and returns to / instead`, async () => {
      const client = newClient();
      const answer = await signIn(client, 'alice', returnTo);
      assert.equal(answer.status, 302);
      assert.equal(locationOf(answer), '/');
      assert.equal(userOf(await me(client)).username, 'alice');
    });
  }
});

describe('oauth mode: callback failures', () => {
  async function assertFailed(client: Client, answer: Answer, code: string): Promise<void> {
    assert.equal(answer.status, 302);
    assert.equal(locationOf(answer), `/login?error=${code}`);
    await assertNoSession(client);
  }

  it('refuses a callback whose state does not match the sign-in (invalid_state)', async () => {
    const client = newClient();
    const url = await op.signIn(await startLogin(client), 'alice');
    url.searchParams.set('state', 'tampered-state-value-0123456789');
    // Refused without touching the session: the sign-in in progress stays, nobody is signed in.
    const answer = await callback(client, url);
    assert.equal(answer.status, 302);
    assert.equal(locationOf(answer), '/login?error=invalid_state');
    assert.deepEqual(answer.cookies, []);
    assert.equal((await me(client)).status, 401);
  });

  it('refuses a callback without an authorization code (no_code)', async () => {
    const client = newClient();
    const state = new URL(await startLogin(client)).searchParams.get('state')!;
    const answer = await client.get(`/api/auth/callback?state=${encodeURIComponent(state)}`);
    await assertFailed(client, answer, 'no_code');
  });

  it('reports a consent the user denied at the provider (access_denied)', async () => {
    const client = newClient();
    const url = await op.deny(await startLogin(client));
    assert.equal(url.searchParams.get('error'), 'access_denied');
    await assertFailed(client, await callback(client, url), 'access_denied');
  });

  it('refuses an account with neither a username nor an e-mail claim (invalid_claims)', async () => {
    const client = newClient();
    await assertFailed(client, await signIn(client, 'nameless'), 'invalid_claims');
  });

  it('refuses a callback with no sign-in in progress (invalid_state)', async () => {
    const starter = newClient();
    const url = await op.signIn(await startLogin(starter), 'alice');
    const stranger = newClient();
    await assertFailed(stranger, await callback(stranger, url), 'invalid_state');
  });

  it('reports a code exchange the provider refuses, such as a replayed code (callback_failed)', async () => {
    const client = newClient();
    const url = await op.signIn(await startLogin(client), 'alice');
    // A copy of the browser's state before the code is used.
    const replayer = newClient();
    for (const [name, value] of client.jar) replayer.jar.set(name, value);
    assert.equal((await callback(client, url)).status, 302);
    assert.equal(userOf(await me(client)).username, 'alice');
    await assertFailed(replayer, await callback(replayer, url), 'callback_failed');
  });
});

describe('oauth mode: refresh and logout', () => {
  it('renews the provider tokens and keeps the session', async () => {
    const started = Date.now();
    const client = await signedIn('alice');
    const first = await client.post('/api/auth/refresh');
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const { success, expiresAt } = first.body as { success: boolean; expiresAt: number };
    assert.equal(success, true);
    assert.equal(typeof expiresAt, 'number');
    assert.ok(expiresAt > started, 'expiresAt lies in the future');
    assert.ok(
      first.cookies.some((line) => line.startsWith(`${COOKIE}=`)),
      'the session rewritten',
    );
    const second = await client.post('/api/auth/refresh');
    assert.equal(second.status, 200, JSON.stringify(second.body));
    assert.ok((second.body as { expiresAt: number }).expiresAt >= expiresAt);
    assert.equal(userOf(await me(client)).username, 'alice');
  });

  it('refuses refresh without a session', async () => {
    const answer = await newClient().post('/api/auth/refresh');
    assert.equal(answer.status, 401);
    assert.equal(errorOf(answer), 'unauthorized');
  });

  it('logs out: clears the cookie and sends the browser to the provider’s end-session endpoint', async () => {
    const client = await signedIn('alice');
    const answer = await client.post('/api/auth/logout');
    assert.equal(answer.status, 200);
    const { success, redirectUrl } = answer.body as { success: boolean; redirectUrl: string };
    assert.equal(success, true);
    const url = new URL(redirectUrl);
    const { end_session_endpoint } = await providerMetadata();
    assert.equal(`${url.origin}${url.pathname}`, end_session_endpoint);
    assert.equal(url.searchParams.get('post_logout_redirect_uri'), `${origin}/login`);
    assert.equal(url.searchParams.get('client_id'), op.clientId);
    assert.ok(
      answer.cookies.some((line) => line.startsWith(`${COOKIE}=;`)),
      'the session cookie is cleared',
    );
    await assertNoSession(client);
    // The provider accepts the logout request (a registered post-logout URI, a valid hint).
    const atProvider = await fetch(url, { redirect: 'manual' });
    await atProvider.body?.cancel();
    assert.equal(atProvider.status, 200);
  });
});

describe('oauth mode: Bearer JWTs', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('authenticates a JWT the provider issued for the dashboard, with the role of its groups', async () => {
    const token = await op.mintJwt({ account: 'bob' });
    const user = userOf(await me(newClient(), bearer(token)));
    assert.equal(user.username, 'bob');
    assert.equal(user.email, 'bob@example.test');
    assert.deepEqual(user.groups, [ADMIN_GROUP, EDITOR_GROUP]);
    assert.equal(user.role, 'admin');
    assert.equal(user.provider, 'oauth');
  });

  async function refused(token: string, client = newClient()): Promise<void> {
    const answer = await me(client, bearer(token));
    assert.equal(answer.status, 401, JSON.stringify(answer.body));
    assert.equal(errorOf(answer), 'unauthorized');
  }

  it('refuses a JWT for another audience', async () => {
    await refused(await op.mintJwt({ account: 'alice', audience: 'another-client' }));
  });

  it('refuses an expired JWT', async () => {
    await refused(await op.mintJwt({ account: 'alice', expiresInSeconds: -600 }));
  });

  it('refuses a JWT whose claims were changed after signing', async () => {
    const [header, payload, signature] = (await op.mintJwt({ account: 'alice' })).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    claims.groups = [ADMIN_GROUP];
    const forged = Buffer.from(JSON.stringify(claims)).toString('base64url');
    await refused(`${header}.${forged}.${signature}`);
  });

  it('refuses a JWT from another issuer', async () => {
    await refused(await op.mintJwt({ account: 'alice', issuer: 'https://other-issuer.example' }));
  });

  it('refuses a bad JWT even alongside a valid session cookie', async () => {
    const client = await signedIn('alice');
    await refused(await op.mintJwt({ account: 'alice', expiresInSeconds: -600 }), client);
  });
});

describe('oauth mode: large sessions and API keys', () => {
  it('splits the session of a member of hundreds of groups over several cookies', async () => {
    const client = newClient();
    const answer = await signIn(client, 'crowd');
    assert.equal(answer.status, 302, JSON.stringify(answer.body));
    const chunks = answer.cookies.filter((line) => /^svc_session(\.\d+)?=[^;]/.test(line));
    assert.ok(chunks.length >= 2, `the session is split (${chunks.length} cookie)`);
    assert.ok(chunks[0]!.startsWith(`${COOKIE}=`));
    assert.ok(chunks[1]!.startsWith(`${COOKIE}.1=`));
    for (const line of chunks) {
      assert.ok(Buffer.byteLength(line) < 4096, `a cookie of ${Buffer.byteLength(line)} bytes`);
    }
    const user = userOf(await me(client));
    assert.equal(user.username, 'crowd');
    assert.deepEqual(user.groups, manyGroups(400));
    const logout = await client.post('/api/auth/logout');
    assert.equal(logout.status, 200);
    await assertNoSession(client);
  });

  it('authenticates an API key created by a signed-in user as that user', async () => {
    const client = await signedIn('alice');
    const owner = userOf(await me(client));
    const created = await client.post('/api/settings/api-keys', { name: 'ci' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const { key } = created.body as { key: string };
    assert.match(key, /^svc_sk_/);
    const user = userOf(await me(newClient(), { 'x-api-key': key }));
    assert.deepEqual(user, { ...owner, provider: 'api-key' });
  });
});

describe('oauth mode: response headers', () => {
  function assertSecurityHeaders(answer: Answer): void {
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(answer.headers.get('x-frame-options'), 'DENY');
  }

  it('sets nosniff and DENY on redirects and on errors', async () => {
    const client = newClient();
    const login = await client.get('/api/auth/login');
    assert.equal(login.status, 302);
    assertSecurityHeaders(login);
    const failed = await newClient().get('/api/auth/callback?code=x&state=y');
    assert.equal(failed.status, 302);
    assertSecurityHeaders(failed);
    const unauthorized = await me(newClient());
    assert.equal(unauthorized.status, 401);
    assertSecurityHeaders(unauthorized);
  });
});

describe('oauth mode: revoking sessions', () => {
  /** A client that sends the cookies another client holds: a copied cookie. */
  const copyOf = (client: Client) => {
    const copy = newClient();
    for (const [name, value] of client.jar) copy.jar.set(name, value);
    return copy;
  };

  it('makes a copied session cookie useless after logout, leaving other sessions alone', async () => {
    const client = await signedIn('alice');
    const other = await signedIn('alice');
    const copy = copyOf(client);
    assert.equal((await me(copy)).status, 200);
    assert.equal((await client.post('/api/auth/logout')).status, 200);
    assert.equal((await me(copy)).status, 401);
    assert.equal((await copy.post('/api/settings/api-keys', { name: 'stolen' })).status, 401);
    assert.equal((await me(other)).status, 200);
  });

  it('signs out everywhere: every session of the user ends', async () => {
    const first = await signedIn('alice');
    const second = await signedIn('alice');
    const answer = await first.post('/api/auth/logout-everywhere');
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    await assertNoSession(first);
    assert.equal((await me(second)).status, 401);
    assert.equal((await me(await signedIn('alice'))).status, 200, 'a new sign-in works');
  });
});
