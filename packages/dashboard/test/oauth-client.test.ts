import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  freePort,
  manyGroups,
  startOidcProvider,
  type RunningOidcProvider,
} from '@paddock/testing';
import { loadDashboardConfig, type DashboardConfig } from '../src/config.js';
import {
  claimAt,
  groupsFrom,
  MAX_GROUP_CHARS,
  MAX_GROUPS,
  profileFromClaims,
  type ClaimNames,
} from '../src/oauth/claims.js';
import { OAuthClient } from '../src/oauth/client.js';
import { OAuthError, type OAuthErrorCode } from '../src/oauth/errors.js';
import { providerSettings, type ProviderConfig } from '../src/oauth/providers.js';

const ORIGIN = 'https://dash.example.test';
const CALLBACK = `${ORIGIN}/api/auth/callback`;

function oauthConfig(env: Record<string, string>): DashboardConfig {
  return loadDashboardConfig(
    { SVC_AUTH_MODE: 'oauth', SVC_BASE_URL: `${ORIGIN}/dashboard`, ...env },
    { randomSecret: () => 'x'.repeat(40) },
  );
}

function genericConfig(op: RunningOidcProvider, env: Record<string, string> = {}): DashboardConfig {
  return oauthConfig({
    SVC_OAUTH_ISSUER_URL: op.issuer,
    SVC_OAUTH_CLIENT_ID: op.clientId,
    SVC_OAUTH_CLIENT_SECRET: op.clientSecret,
    ...env,
  });
}

async function rejectsWith(
  promise: Promise<unknown>,
  code: OAuthErrorCode,
  message?: RegExp,
): Promise<void> {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof OAuthError, `expected an OAuthError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    return true;
  });
}

const ACCOUNTS = {
  alice: {
    preferred_username: 'alice',
    email: 'alice@example.test',
    email_verified: true,
    name: 'Alice Liddell',
    groups: ['ops', 'dev'],
  },
  mailonly: { email: 'mail@example.test', groups: 'dev, qa' },
  nameless: { name: 'No Name', groups: ['dev'] },
  crowd: { preferred_username: 'crowd', email: 'crowd@example.test', groups: manyGroups(600) },
};

describe('OAuth client against a real OpenID provider', () => {
  let op: RunningOidcProvider;
  let client: OAuthClient;

  before(async () => {
    op = await startOidcProvider({
      redirectUris: [CALLBACK],
      postLogoutRedirectUris: [`${ORIGIN}/login`],
      accounts: ACCOUNTS,
    });
    client = await OAuthClient.create(genericConfig(op));
  });
  after(async () => op.stop());

  async function signIn(account: string) {
    const { redirectUrl, pkce } = await client.startLogin('/');
    return { pkce, callback: await op.signIn(redirectUrl, account) };
  }

  it('signs a user in with PKCE and returns the profile, groups and tokens', async () => {
    const { redirectUrl, pkce } = await client.startLogin('/workspaces/a?tab=agents');
    const asked = new URL(redirectUrl).searchParams;
    assert.ok(redirectUrl.startsWith(`${op.issuer}/`));
    assert.equal(asked.get('redirect_uri'), CALLBACK);
    assert.equal(asked.get('code_challenge_method'), 'S256');
    assert.equal(asked.get('code_challenge'), pkce.codeChallenge);
    assert.equal(asked.get('state'), pkce.state);
    assert.equal(asked.get('nonce'), pkce.nonce);
    assert.equal(asked.get('scope'), 'openid profile email');
    assert.equal(pkce.returnTo, '/workspaces/a?tab=agents');

    const callback = await op.signIn(redirectUrl, 'alice');
    assert.equal(`${callback.origin}${callback.pathname}`, CALLBACK);
    const before = Date.now();
    const { profile, oauth } = await client.finishLogin(callback, pkce);
    assert.deepEqual(profile, {
      subject: 'alice',
      username: 'alice',
      email: 'alice@example.test',
      emailVerified: true,
      displayName: 'Alice Liddell',
      groups: ['ops', 'dev'],
    });
    assert.equal(oauth.provider, 'generic');
    assert.ok(oauth.accessToken);
    assert.ok(oauth.refreshToken);
    assert.equal(oauth.idToken?.split('.').length, 3);
    assert.ok(oauth.expiresAt! >= before + 3000_000 && oauth.expiresAt! <= Date.now() + 3600_000);
  });

  it('keeps only a same-origin path as returnTo', async () => {
    assert.equal((await client.startLogin('//evil.example/x')).pkce.returnTo, '/');
    assert.equal((await client.startLogin('https://evil.example/')).pkce.returnTo, '/');
  });

  it('fails with callback_failed when the code verifier is not the one of the challenge', async () => {
    const { pkce, callback } = await signIn('alice');
    const other = (await client.startLogin('/')).pkce.codeVerifier;
    await rejectsWith(
      client.finishLogin(callback, { ...pkce, codeVerifier: other }),
      'callback_failed',
      /invalid_grant/,
    );
  });

  it('refuses a callback whose state is not the sign-in’s with invalid_state', async () => {
    const { pkce, callback } = await signIn('alice');
    await rejectsWith(client.finishLogin(callback, { ...pkce, state: 'another' }), 'invalid_state');
  });

  it('refuses a callback without a code with no_code', async () => {
    const { pkce, callback } = await signIn('alice');
    callback.searchParams.delete('code');
    await rejectsWith(client.finishLogin(callback, pkce), 'no_code');
  });

  it('reports denied consent as access_denied', async () => {
    const { redirectUrl, pkce } = await client.startLogin('/');
    const callback = await op.deny(redirectUrl);
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    await rejectsWith(client.finishLogin(callback, pkce), 'access_denied');
  });

  it('refuses an account with neither a username nor an e-mail with invalid_claims', async () => {
    const { pkce, callback } = await signIn('nameless');
    await rejectsWith(client.finishLogin(callback, pkce), 'invalid_claims');
  });

  it('uses the e-mail as username when there is no username claim, and comma-separated groups', async () => {
    const { pkce, callback } = await signIn('mailonly');
    const { profile } = await client.finishLogin(callback, pkce);
    assert.equal(profile.username, 'mail@example.test');
    assert.deepEqual(profile.groups, ['dev', 'qa']);
  });

  it('maps an account with hundreds of groups', async () => {
    const { pkce, callback } = await signIn('crowd');
    const { profile, oauth } = await client.finishLogin(callback, pkce);
    assert.equal(profile.groups.length, 600);
    assert.deepEqual(profile.groups, ACCOUNTS.crowd.groups);
    assert.equal((await client.verifyBearer(oauth.idToken!)).groups.length, 600);
    // Too long to be a hint in a URL: the logout is still accepted, by client_id.
    const logout = new URL(client.endSessionUrl(oauth.idToken)!);
    assert.equal(logout.searchParams.get('id_token_hint'), null);
    assert.equal((await fetch(logout)).status, 200);
  });

  it('renews the access token with the refresh token, which stays when not rotated', async () => {
    const { pkce, callback } = await signIn('alice');
    const { oauth } = await client.finishLogin(callback, pkce);
    const renewed = await client.refresh(oauth.refreshToken!);
    assert.notEqual(renewed.accessToken, oauth.accessToken);
    assert.equal(renewed.refreshToken, oauth.refreshToken);
    assert.equal(renewed.provider, 'generic');
    assert.ok(renewed.expiresAt! > Date.now());
    const userinfo = await fetch(`${op.issuer}/me`, {
      headers: { authorization: `Bearer ${renewed.accessToken}` },
    });
    assert.equal(userinfo.status, 200);
    assert.equal(((await userinfo.json()) as { sub: string }).sub, 'alice');
  });

  it('fails a refresh with an unknown refresh token with callback_failed', async () => {
    await rejectsWith(client.refresh('not-a-refresh-token'), 'callback_failed', /invalid_grant/);
  });

  it('points logout at the provider’s end-session endpoint with the post-logout address', async () => {
    const { pkce, callback } = await signIn('alice');
    const { oauth } = await client.finishLogin(callback, pkce);
    const logout = new URL(client.endSessionUrl(oauth.idToken)!);
    assert.equal(`${logout.origin}${logout.pathname}`, `${op.issuer}/session/end`);
    assert.equal(logout.searchParams.get('post_logout_redirect_uri'), `${ORIGIN}/login`);
    assert.equal(logout.searchParams.get('id_token_hint'), oauth.idToken);
    assert.equal(logout.searchParams.get('client_id'), op.clientId);
    // The provider accepts it: it answers with its logout confirmation, not an error.
    assert.equal((await fetch(logout)).status, 200);
    const withoutHint = new URL(client.endSessionUrl(undefined)!);
    assert.equal(withoutHint.searchParams.get('id_token_hint'), null);
  });

  describe('Bearer JWTs', () => {
    it('accepts an ID token of the provider for this client', async () => {
      const { pkce, callback } = await signIn('alice');
      const { oauth } = await client.finishLogin(callback, pkce);
      const profile = await client.verifyBearer(oauth.idToken!);
      assert.equal(profile.subject, 'alice');
      assert.deepEqual(profile.groups, ['ops', 'dev']);
    });

    it('accepts a token signed by the provider’s key with its issuer and audience', async () => {
      const profile = await client.verifyBearer(await op.mintJwt({ account: 'alice' }));
      assert.equal(profile.username, 'alice');
    });

    it('refuses a token for another audience', async () => {
      const jwt = await op.mintJwt({ account: 'alice', audience: 'another-client' });
      await rejectsWith(client.verifyBearer(jwt), 'invalid_claims', /"aud"/);
    });

    it('refuses a token of another issuer', async () => {
      const jwt = await op.mintJwt({ account: 'alice', issuer: 'https://elsewhere.example' });
      await rejectsWith(client.verifyBearer(jwt), 'invalid_claims');
    });

    it('refuses an expired token', async () => {
      const jwt = await op.mintJwt({ account: 'alice', expiresInSeconds: -3600 });
      await rejectsWith(client.verifyBearer(jwt), 'invalid_claims', /"exp"/);
    });

    it('refuses a token whose claims were changed after signing', async () => {
      const [header, , signature] = (await op.mintJwt({ account: 'alice' })).split('.');
      const forged = Buffer.from(
        JSON.stringify({
          sub: 'alice',
          preferred_username: 'alice',
          groups: ['admins'],
          iss: op.issuer,
          aud: op.clientId,
          exp: Math.floor(Date.now() / 1000) + 3600,
        }),
      ).toString('base64url');
      await rejectsWith(
        client.verifyBearer(`${header}.${forged}.${signature}`),
        'invalid_claims',
        /signature verification failed/,
      );
    });

    it('refuses an unsigned token and one that is not a JWT', async () => {
      const [, payload] = (await op.mintJwt({ account: 'alice' })).split('.');
      const none = Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url');
      await rejectsWith(client.verifyBearer(`${none}.${payload}.`), 'invalid_claims');
      await rejectsWith(client.verifyBearer('svc_sk_not-a-jwt'), 'invalid_claims');
    });

    it('maps a token with hundreds of groups', async () => {
      const jwt = await op.mintJwt({ account: 'crowd', claims: { groups: manyGroups(900) } });
      assert.equal((await client.verifyBearer(jwt)).groups.length, 900);
    });
  });
});

describe('OAuth client with claims only at the userinfo endpoint and rotated refresh tokens', () => {
  let op: RunningOidcProvider;
  let client: OAuthClient;

  before(async () => {
    op = await startOidcProvider({
      redirectUris: [CALLBACK],
      accounts: { alice: ACCOUNTS.alice },
      claimsInIdToken: false,
      rotateRefreshTokens: true,
    });
    client = await OAuthClient.create(
      genericConfig(op, { SVC_OAUTH_SCOPES: 'openid,profile,email,groups' }),
    );
  });
  after(async () => op.stop());

  it('completes the ID token’s claims with the userinfo endpoint’s', async () => {
    const { redirectUrl, pkce } = await client.startLogin('/');
    assert.equal(new URL(redirectUrl).searchParams.get('scope'), 'openid profile email groups');
    const { profile, oauth } = await client.finishLogin(
      await op.signIn(redirectUrl, 'alice'),
      pkce,
    );
    const idClaims = JSON.parse(
      Buffer.from(oauth.idToken!.split('.')[1]!, 'base64url').toString(),
    ) as Record<string, unknown>;
    assert.equal(idClaims.groups, undefined);
    assert.deepEqual(profile.groups, ['ops', 'dev']);
    assert.equal(profile.username, 'alice');

    const renewed = await client.refresh(oauth.refreshToken!);
    assert.ok(renewed.refreshToken);
    assert.notEqual(renewed.refreshToken, oauth.refreshToken);
  });
});

describe('OAuth client configuration', () => {
  it('fails with config_error when the issuer cannot be discovered', async () => {
    const port = await freePort();
    const config = oauthConfig({
      SVC_OAUTH_ISSUER_URL: `http://127.0.0.1:${port}`,
      SVC_OAUTH_CLIENT_ID: 'c',
      SVC_OAUTH_CLIENT_SECRET: 's',
    });
    await rejectsWith(OAuthClient.create(config), 'config_error');
  });
});

/** A GitHub-compatible OAuth server and REST API: GitHub itself cannot be reached from tests. */
async function startGitHub(clientId: string, clientSecret: string) {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const readBody = async (req: IncomingMessage) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    return new URLSearchParams(body);
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const authorized = () => tokens.has((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    void (async () => {
      if (url.pathname === '/login/oauth/authorize') {
        const q = url.searchParams;
        assert.equal(q.get('client_id'), clientId);
        assert.equal(q.get('code_challenge_method'), 'S256');
        const code = randomBytes(8).toString('hex');
        codes.set(code, {
          challenge: q.get('code_challenge')!,
          redirectUri: q.get('redirect_uri')!,
        });
        const back = new URL(q.get('redirect_uri')!);
        back.searchParams.set('code', code);
        back.searchParams.set('state', q.get('state')!);
        res.writeHead(302, { location: back.href });
        res.end();
      } else if (url.pathname === '/login/oauth/access_token' && req.method === 'POST') {
        const form = await readBody(req);
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (
          form.get('client_id') !== clientId ||
          form.get('client_secret') !== clientSecret ||
          grant === undefined ||
          grant.challenge !== challenge ||
          grant.redirectUri !== form.get('redirect_uri')
        ) {
          // GitHub reports a bad code as an error body with status 200.
          json(200, { error: 'bad_verification_code' });
          return;
        }
        const token = `gho_${randomBytes(12).toString('hex')}`;
        tokens.add(token);
        json(200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
      } else if (url.pathname === '/api/v3/user' && authorized()) {
        assert.ok(req.headers['user-agent']);
        json(200, { id: 4242, login: 'octocat', name: 'Mona Octocat', email: null });
      } else if (url.pathname === '/api/v3/user/emails' && authorized()) {
        json(200, [
          { email: 'old@example.test', primary: false, verified: true },
          { email: 'unverified@example.test', primary: false, verified: false },
          { email: 'mona@example.test', primary: true, verified: true },
        ]);
      } else {
        json(401, { message: 'Bad credentials' });
      }
    })().catch((err: unknown) => json(500, { message: String(err) }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('OAuth client for GitHub', () => {
  let github: Awaited<ReturnType<typeof startGitHub>>;
  let client: OAuthClient;

  before(async () => {
    github = await startGitHub('gh-client', 'gh-secret');
    client = await OAuthClient.create(
      oauthConfig({
        SVC_OAUTH_PROVIDER: 'provider_code',
        SVC_OAUTH_CLIENT_ID: 'gh-client',
        SVC_OAUTH_CLIENT_SECRET: 'gh-secret',
        SVC_OAUTH_GITHUB_URL: github.base,
        SVC_OAUTH_GITHUB_API_URL: `${github.base}/api/v3`,
      }),
    );
  });
  after(async () => github.stop());

  async function authorize(redirectUrl: string): Promise<URL> {
    const response = await fetch(redirectUrl, { redirect: 'manual' });
    assert.equal(response.status, 302);
    return new URL(response.headers.get('location')!);
  }

  it('signs a user in from the REST API: numeric id, login, primary verified e-mail, no groups', async () => {
    const { redirectUrl, pkce } = await client.startLogin('/');
    const asked = new URL(redirectUrl);
    assert.equal(`${asked.origin}${asked.pathname}`, `${github.base}/login/oauth/authorize`);
    assert.equal(asked.searchParams.get('scope'), 'read:user user:email');
    assert.equal(asked.searchParams.get('nonce'), null);
    assert.equal(pkce.nonce, undefined);

    const { profile, oauth } = await client.finishLogin(await authorize(redirectUrl), pkce);
    assert.deepEqual(profile, {
      subject: '4242',
      username: 'octocat',
      email: 'mona@example.test',
      emailVerified: true,
      displayName: 'Mona Octocat',
      groups: [],
    });
    assert.equal(oauth.provider, 'github');
    assert.ok(oauth.accessToken.startsWith('gho_'));
    assert.equal(oauth.idToken, undefined);
  });

  it('fails with callback_failed when the code verifier is wrong', async () => {
    const { redirectUrl, pkce } = await client.startLogin('/');
    const other = (await client.startLogin('/')).pkce.codeVerifier;
    const callback = await authorize(redirectUrl);
    await rejectsWith(
      client.finishLogin(callback, { ...pkce, codeVerifier: other }),
      'callback_failed',
    );
  });

  it('has no single sign-on logout and no Bearer JWTs', async () => {
    assert.equal(client.endSessionUrl('anything'), undefined);
    assert.equal(client.bearerSupported, false);
    await rejectsWith(client.verifyBearer('a.b.c'), 'config_error');
  });
});

describe('provider settings', () => {
  const base: ProviderConfig = {
    SVC_OAUTH_PROVIDER: 'generic',
    SVC_OAUTH_ISSUER_URL: new URL('https://id.example.test/realms/main'),
    SVC_OAUTH_SCOPES: [],
    SVC_OAUTH_DIRECTORY_TENANT_ID: 'tenant-1',
    SVC_OAUTH_WORKFORCE_DOMAIN: 'acme.okta.example',
    SVC_OAUTH_GITHUB_URL: new URL('https://github.com'),
    SVC_OAUTH_GITHUB_API_URL: new URL('https://api.github.com'),
  };
  const cases: Array<[ProviderConfig['SVC_OAUTH_PROVIDER'], string, string[], boolean]> = [
    ['generic', 'https://id.example.test/realms/main', ['openid', 'profile', 'email'], true],
    ['google', 'https://accounts.google.com', ['openid', 'profile', 'email'], true],
    [
      'azure',
      'https://login.microsoftonline.com/tenant-1/v2.0',
      ['openid', 'profile', 'email'],
      true,
    ],
    [
      'okta',
      'https://acme.okta.example/oauth2/default',
      ['openid', 'profile', 'email', 'groups'],
      true,
    ],
    ['github', 'https://github.com/', ['read:user', 'user:email'], false],
  ];
  for (const [name, issuer, scopes, singleSignOut] of cases) {
    it(`${name}: issuer ${issuer}, scopes ${scopes.join(' ')}`, () => {
      const settings = providerSettings({ ...base, SVC_OAUTH_PROVIDER: name });
      assert.equal(settings.issuer, issuer);
      assert.deepEqual(settings.scopes, scopes);
      assert.equal(settings.singleSignOut, singleSignOut);
      assert.equal(settings.protocol, name === 'github' ? 'github' : 'oidc');
    });
  }

  it('puts GitHub’s endpoints under the configured web and API addresses (Enterprise Server)', () => {
    const settings = providerSettings({
      ...base,
      SVC_OAUTH_PROVIDER: 'github',
      SVC_OAUTH_GITHUB_URL: new URL('https://git.corp.example'),
      SVC_OAUTH_GITHUB_API_URL: new URL('https://git.corp.example/api/v3'),
    });
    assert.equal(settings.protocol, 'github');
    if (settings.protocol !== 'github') return;
    assert.equal(settings.authorizationEndpoint, 'https://git.corp.example/login/oauth/authorize');
    assert.equal(settings.tokenEndpoint, 'https://git.corp.example/login/oauth/access_token');
    assert.equal(settings.apiUrl, 'https://git.corp.example/api/v3/');
  });

  it('takes SVC_OAUTH_SCOPES over the defaults, always with openid for OpenID providers', () => {
    const scopes = (provider: ProviderConfig['SVC_OAUTH_PROVIDER'], configured: string[]) =>
      providerSettings({ ...base, SVC_OAUTH_PROVIDER: provider, SVC_OAUTH_SCOPES: configured })
        .scopes;
    assert.deepEqual(scopes('okta', ['openid', 'email']), ['openid', 'email']);
    assert.deepEqual(scopes('generic', ['email', 'offline_access']), [
      'openid',
      'email',
      'offline_access',
    ]);
    assert.deepEqual(scopes('github', ['read:user', 'read:org']), ['read:user', 'read:org']);
  });

  it('allows plain http only for an http issuer', () => {
    assert.equal(providerSettings(base).plainHttp, false);
    const local = { ...base, SVC_OAUTH_ISSUER_URL: new URL('http://127.0.0.1:9000') };
    assert.equal(providerSettings(local).plainHttp, true);
  });

  it('reports a missing issuer, tenant or domain as config_error', () => {
    const missing: Array<Partial<ProviderConfig>> = [
      { SVC_OAUTH_PROVIDER: 'generic', SVC_OAUTH_ISSUER_URL: undefined },
      { SVC_OAUTH_PROVIDER: 'azure', SVC_OAUTH_DIRECTORY_TENANT_ID: undefined },
      { SVC_OAUTH_PROVIDER: 'okta', SVC_OAUTH_WORKFORCE_DOMAIN: undefined },
      { SVC_OAUTH_PROVIDER: 'okta', SVC_OAUTH_WORKFORCE_DOMAIN: 'evil.example/path?' },
    ];
    for (const change of missing) {
      assert.throws(
        () => providerSettings({ ...base, ...change }),
        (err: unknown) => err instanceof OAuthError && err.code === 'config_error',
      );
    }
  });
});

describe('claim mapping', () => {
  const names: ClaimNames = {
    username: 'preferred_username',
    email: 'email',
    displayName: 'name',
    groups: 'groups',
  };

  it('reads dotted paths, an exact top-level key winning', () => {
    const claims = {
      realm_access: { roles: ['admin', 'user'] },
      'https://example.test/groups': ['exact'],
      https: { 'example.test/groups': ['nested'] },
      'a.b': 'top',
      a: { b: 'nested' },
      list: ['x'],
    };
    const cases: Array<[string, unknown]> = [
      ['realm_access.roles', ['admin', 'user']],
      ['https://example.test/groups', ['exact']],
      ['a.b', 'top'],
      ['realm_access.missing', undefined],
      ['list.0', undefined],
      ['__proto__', undefined],
      ['realm_access.constructor', undefined],
      ['a.b.c', undefined],
    ];
    for (const [path, expected] of cases) assert.deepEqual(claimAt(claims, path), expected, path);
  });

  it('takes groups from an array of strings or a comma-separated string, nothing else', () => {
    const cases: Array<[unknown, string[]]> = [
      [
        ['ops', 'dev'],
        ['ops', 'dev'],
      ],
      ['ops, dev,,qa ', ['ops', 'dev', 'qa']],
      [
        ['ops', 42, null, { name: 'x' }, ' dev ', 'ops', ''],
        ['ops', 'dev'],
      ],
      [42, []],
      [{ ops: true }, []],
      [null, []],
      [undefined, []],
    ];
    for (const [value, expected] of cases) {
      assert.deepEqual(groupsFrom(value), expected, JSON.stringify(value));
    }
  });

  it('bounds the groups a hostile token can carry', () => {
    assert.equal(groupsFrom(manyGroups(100_000)).length, MAX_GROUPS);
    assert.equal(groupsFrom(manyGroups(100_000).join(',')).length, MAX_GROUPS);
    const long = 'g'.repeat(MAX_GROUP_CHARS + 1);
    assert.deepEqual(groupsFrom(['ok', long, 'g'.repeat(MAX_GROUP_CHARS)]), [
      'ok',
      'g'.repeat(MAX_GROUP_CHARS),
    ]);
  });

  it('maps claims with configured, dotted claim names', () => {
    const profile = profileFromClaims(
      {
        sub: 'u-1',
        user: { login: 'jdoe' },
        mail: 'jdoe@example.test',
        display: 'J. Doe',
        realm_access: { roles: ['editors'] },
      },
      {
        username: 'user.login',
        email: 'mail',
        displayName: 'display',
        groups: 'realm_access.roles',
      },
    );
    assert.deepEqual(profile, {
      subject: 'u-1',
      username: 'jdoe',
      email: 'jdoe@example.test',
      emailVerified: false,
      displayName: 'J. Doe',
      groups: ['editors'],
    });
  });

  it('reads the e-mail as verified only when email_verified is the boolean true', () => {
    const names = { username: 'u', email: 'e', displayName: 'd', groups: 'g' };
    const cases: Array<[unknown, boolean]> = [
      [true, true],
      [false, false],
      ['true', false],
      [1, false],
      [undefined, false],
    ];
    for (const [claim, verified] of cases) {
      const profile = profileFromClaims(
        { sub: 's', u: 'n', e: 'a@x.test', email_verified: claim },
        names,
      );
      assert.equal(profile.emailVerified, verified, String(claim));
    }
  });

  it('requires a subject and a username or e-mail', () => {
    const invalid: Array<Record<string, unknown>> = [
      { preferred_username: 'a' },
      { sub: '', preferred_username: 'a' },
      { sub: 42, preferred_username: 'a' },
      { sub: 'x'.repeat(256), preferred_username: 'a' },
      { sub: 'u', name: 'Only A Name' },
      { sub: 'u', preferred_username: ['a'] },
      { sub: 'u', preferred_username: 'a'.repeat(257) },
    ];
    for (const claims of invalid) {
      assert.throws(
        () => profileFromClaims(claims, names),
        (err: unknown) => err instanceof OAuthError && err.code === 'invalid_claims',
        JSON.stringify(claims).slice(0, 80),
      );
    }
    assert.equal(profileFromClaims({ sub: 'u', email: 'e@x.test' }, names).username, 'e@x.test');
  });

  it('shortens a long display name and leaves out absent optional claims', () => {
    const profile = profileFromClaims(
      { sub: 'u', preferred_username: 'u', name: 'n'.repeat(10_000), groups: 'not,an,array' },
      names,
    );
    assert.equal(profile.displayName?.length, 256);
    assert.deepEqual(profile.groups, ['not', 'an', 'array']);
    assert.deepEqual(profileFromClaims({ sub: 'u', preferred_username: 'u' }, names), {
      subject: 'u',
      username: 'u',
      groups: [],
    });
  });
});
