import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { logMailer, silentLogger } from '@paddock/common';
import {
  tempDir,
  startPostgres,
  type RunningSmtp,
  type StartedPostgres,
  ADMIN_PASSWORD,
  Client,
  errorOf,
  startDashboard,
  type Answer,
  type RunningDashboard,
} from '@paddock/testing';
import { startSignupDashboard, type SignupDashboard } from './support/signup-dashboard.js';
import { tokenInMail } from './support/smtp.js';
import { Accounts } from '../src/builtin/accounts.js';
import { openStore } from '../src/store/index.js';

/** Long enough that no lock runs out during a test however slow the machine; expiry is proven with a given clock. */
const LOCKOUT_SECONDS = 600;
const MAX_ATTEMPTS = 3;

let started: SignupDashboard;
let smtp: RunningSmtp;
let dashboard: RunningDashboard;

before(async () => {
  started = await startSignupDashboard({
    SVC_BUILTIN_VERIFY_EMAIL: 'true',
    SVC_BUILTIN_MAX_FAILED_ATTEMPTS: String(MAX_ATTEMPTS),
    SVC_BUILTIN_LOCKOUT_DURATION: String(LOCKOUT_SECONDS),
    SVC_AUTH_ROLE_EDITOR_GROUPS: 'dev',
  });
  ({ smtp, dashboard } = started);
});
after(async () => {
  await started.stop();
});

const login = (client: Client, username: string, password: string) =>
  client.post('/api/auth/builtin/login', { username, password });

/** Signs a new account up, follows the verification mail, and returns a signed-in client. */
async function newAccount(name: string, password = 'a-good-password'): Promise<Client> {
  const client = new Client(dashboard.base);
  const email = `${name}@example.com`;
  const signup = await client.post('/api/auth/builtin/signup', { username: name, email, password });
  assert.equal(signup.status, 201, JSON.stringify(signup.body));
  const token = tokenInMail(await smtp.nextMailTo(email), 'verify-email');
  assert.equal((await client.post('/api/auth/builtin/verify-email', { token })).status, 200);
  assert.equal((await login(client, name, password)).status, 200);
  return client;
}

describe('builtin mode: sign-in', () => {
  it('signs the initial admin in with a session cookie of the specified attributes', async () => {
    const client = new Client(dashboard.base);
    const answer = await login(client, 'admin', ADMIN_PASSWORD);
    assert.equal(answer.status, 200);
    const body = answer.body as { success: boolean; user: Record<string, unknown> };
    assert.equal(body.success, true);
    assert.deepEqual(Object.keys(body.user).sort(), ['email', 'id', 'role', 'username']);
    assert.equal(body.user.role, 'admin');
    const cookie = answer.cookies.find((c) => c.startsWith('svc_session='))!;
    for (const attribute of [/HttpOnly/, /Secure/, /SameSite=Lax/, /Path=\//, /Max-Age=86400/]) {
      assert.match(cookie, attribute);
    }
    const me = await client.get('/api/auth/me');
    assert.equal(me.status, 200);
    const user = (me.body as { user: Record<string, unknown> }).user;
    assert.equal(user.provider, 'builtin');
    assert.equal(user.username, 'admin');
    assert.deepEqual(user.groups, []);
  });

  it('answers an unknown user and a wrong password identically', async () => {
    const client = new Client(dashboard.base);
    const wrong = await login(client, 'admin', 'not-the-password');
    const unknown = await login(client, 'nobody-at-all', 'not-the-password');
    assert.equal(wrong.status, 401);
    assert.deepEqual(wrong.body, unknown.body);
    assert.equal(errorOf(wrong), 'invalid_credentials');
    const injected = await login(client, "admin' OR '1'='1", "' OR '1'='1");
    assert.equal(errorOf(injected), 'invalid_credentials');
  });

  it('locks the account for the failing address after the failed attempts and keeps its sessions', async () => {
    const owner = await newAccount('locky');
    const attacker = new Client(dashboard.base);
    for (let i = 0; i < MAX_ATTEMPTS - 1; i++) {
      assert.equal(errorOf(await login(attacker, 'locky', 'guess')), 'invalid_credentials');
    }
    assert.equal(errorOf(await login(attacker, 'locky@example.com', 'guess')), 'account_locked');
    const locked = await login(attacker, 'locky', 'a-good-password');
    assert.equal(locked.status, 423);
    assert.equal(
      errorOf(locked),
      'account_locked',
      'even the right password is refused while locked',
    );
    assert.equal((await owner.get('/api/auth/me')).status, 200, 'a lockout ends no session');
  });

  it('lets the locked address in again once the lockout has run out', async () => {
    // Time is the subject: the accounts' rules over a real store, on a clock the test sets.
    const dir = await tempDir('paddock-lockout-');
    const store = await openStore({ kind: 'sqlite', path: join(dir.path, 'dashboard.db') });
    try {
      const lockoutMs = LOCKOUT_SECONDS * 1000;
      const accounts = new Accounts(
        store,
        logMailer(silentLogger()),
        {
          allowSignup: true,
          verifyEmail: false,
          minPasswordLength: 8,
          maxFailedAttempts: MAX_ATTEMPTS,
          lockoutSeconds: LOCKOUT_SECONDS,
          resetTokenSeconds: 3600,
          verificationTokenSeconds: 3600,
          publicOrigin: 'https://paddock.example.com',
          mailConfigured: false,
        },
        silentLogger(),
      );
      const start = 1_000_000;
      await accounts.signup(
        { username: 'locky', email: 'locky@example.com', password: 'a-good-password' },
        start,
      );
      const source = '203.0.113.7';
      const attempt = (password: string, now: number) =>
        accounts.login('locky', password, source, now).then(
          (user) => user.username,
          (err: unknown) => (err as { code: string }).code,
        );
      for (let i = 0; i < MAX_ATTEMPTS - 1; i++) {
        assert.equal(await attempt('guess', start + i), 'invalid_credentials');
      }
      const lockedAt = start + MAX_ATTEMPTS - 1;
      assert.equal(await attempt('guess', lockedAt), 'account_locked');
      assert.equal(await attempt('a-good-password', lockedAt + lockoutMs - 1), 'account_locked');
      assert.equal(await attempt('a-good-password', lockedAt + lockoutMs), 'locky');
    } finally {
      await store.close();
      await dir.remove();
    }
  });

  it('locks an identifier that names no account the same way', async () => {
    const client = new Client(dashboard.base);
    const answers: Answer[] = [];
    for (let i = 0; i < MAX_ATTEMPTS + 1; i++) answers.push(await login(client, 'ghost', 'guess'));
    assert.deepEqual(answers.map(errorOf), [
      ...Array<string>(MAX_ATTEMPTS - 1).fill('invalid_credentials'),
      'account_locked',
      'account_locked',
    ]);
  });
});

describe('builtin mode: sign-up, verification and password reset', () => {
  it('signs up, refuses sign-in until the e-mail is verified, then lets the user in', async () => {
    const client = new Client(dashboard.base);
    const signup = await client.post('/api/auth/builtin/signup', {
      username: 'Zoë',
      email: 'Zoe@Example.com',
      password: 'long-enough-pw',
      displayName: 'Zoë Z.',
    });
    assert.equal(signup.status, 201);
    assert.equal((signup.body as { verificationRequired: boolean }).verificationRequired, true);
    const refused = await login(client, 'zoë', 'long-enough-pw');
    assert.equal(refused.status, 403);
    assert.equal(errorOf(refused), 'email_not_verified');
    const mail = await smtp.nextMailTo('zoe@example.com');
    const token = tokenInMail(mail, 'verify-email');
    assert.equal((await client.post('/api/auth/builtin/verify-email', { token })).status, 200);
    const replay = await client.post('/api/auth/builtin/verify-email', { token });
    assert.equal(errorOf(replay), 'invalid_token');
    const ok = await login(client, 'zoe@example.com', 'long-enough-pw');
    assert.equal(ok.status, 200);
    const me = (await client.get('/api/auth/me')).body as { user: Record<string, unknown> };
    assert.equal(me.user.displayName, 'Zoë Z.');
    assert.equal(me.user.role, 'viewer');
  });

  it('refuses a taken username or e-mail, a short password and malformed input', async () => {
    const client = new Client(dashboard.base);
    const signup = (body: Record<string, unknown>) => client.post('/api/auth/builtin/signup', body);
    const base = {
      username: 'unique-one',
      email: 'unique@example.com',
      password: 'long-enough-pw',
    };
    assert.equal((await signup(base)).status, 201);
    const taken = await signup({ ...base, email: 'other@example.com', username: 'UNIQUE-ONE' });
    assert.equal(taken.status, 409);
    assert.equal(errorOf(taken), 'username_exists');
    assert.equal(
      errorOf(await signup({ ...base, username: 'other', email: 'UNIQUE@example.com' })),
      'email_exists',
    );
    const short = await signup({
      ...base,
      username: 'shorty',
      email: 's@example.com',
      password: 'short',
    });
    assert.equal(short.status, 400);
    assert.equal(errorOf(short), 'password_too_short');
    for (const bad of [
      { ...base, username: 'x'.repeat(300), email: 'x@example.com' },
      { ...base, username: "'; DROP TABLE users; --", email: 'd@example.com' },
      { ...base, username: 'mail-less', email: 'not-an-email' },
      { ...base, username: 42 },
    ]) {
      assert.equal(errorOf(await signup(bad)), 'invalid_request', JSON.stringify(bad).slice(0, 50));
    }
  });

  it('answers forgot-password alike for every address, mails a link that resets once', async () => {
    const owner = await newAccount('forgetful', 'first-password');
    const stranger = new Client(dashboard.base);
    const unknown = await stranger.post('/api/auth/builtin/forgot-password', {
      email: 'nobody@example.com',
    });
    const known = await stranger.post('/api/auth/builtin/forgot-password', {
      email: 'forgetful@example.com',
    });
    assert.deepEqual([unknown.status, unknown.body], [200, { success: true }]);
    assert.deepEqual([known.status, known.body], [200, { success: true }]);
    const token = tokenInMail(await smtp.nextMailTo('forgetful@example.com'), 'reset-password');

    const short = await stranger.post('/api/auth/builtin/reset-password', {
      token,
      password: 'tiny',
    });
    assert.equal(errorOf(short), 'password_too_short');
    const reset = await stranger.post('/api/auth/builtin/reset-password', {
      token,
      password: 'second-password',
    });
    assert.equal(reset.status, 200, 'a short password did not use the token up');
    const replay = await stranger.post('/api/auth/builtin/reset-password', {
      token,
      password: 'third-password',
    });
    assert.equal(replay.status, 400);
    assert.equal(errorOf(replay), 'invalid_token');
    assert.equal((await owner.get('/api/auth/me')).status, 401, 'the reset ended the old session');
    assert.equal(
      errorOf(await login(stranger, 'forgetful', 'first-password')),
      'invalid_credentials',
    );
    assert.equal((await login(stranger, 'forgetful', 'second-password')).status, 200);
    assert.equal(smtp.mails.filter((m) => m.to.includes('nobody@example.com')).length, 0);
  });

  it('refuses forged tokens', async () => {
    const client = new Client(dashboard.base);
    for (const token of ['', 'x'.repeat(43), 'y'.repeat(5000), 7]) {
      const answer = await client.post('/api/auth/builtin/verify-email', { token });
      assert.equal(errorOf(answer), 'invalid_token', String(token).slice(0, 10));
    }
  });
});

describe('builtin mode: sessions and request hygiene', () => {
  it('clears a tampered or foreign session cookie and treats the request as signed out', async () => {
    const client = new Client(dashboard.base);
    await login(client, 'admin', ADMIN_PASSWORD);
    const sealed = client.jar.get('svc_session')!;
    for (const value of [
      `${sealed.slice(0, -3)}abc`,
      'not-a-session',
      sealed.split('').reverse().join(''),
    ]) {
      const answer = await client.get('/api/auth/me', { cookie: `svc_session=${value}` });
      assert.equal(answer.status, 401);
      assert.ok(
        answer.cookies.some((c) => /^svc_session=;/.test(c)),
        'the bad cookie is cleared',
      );
    }
  });

  it('logs out: the cookie is cleared', async () => {
    const client = new Client(dashboard.base);
    await login(client, 'admin', ADMIN_PASSWORD);
    const out = await client.post('/api/auth/logout');
    assert.deepEqual(out.body, { success: true });
    assert.equal((await client.get('/api/auth/me')).status, 401);
  });

  it('refuses cross-site state changes made with the session cookie', async () => {
    const client = new Client(dashboard.base);
    await login(client, 'admin', ADMIN_PASSWORD);
    const evil = await client.post(
      '/api/settings/api-keys',
      { name: 'x' },
      { origin: 'https://evil.example' },
    );
    assert.equal(evil.status, 403);
    assert.equal(errorOf(evil), 'forbidden');
    const blind = await client.request('POST', '/api/settings/api-keys', {
      json: { name: 'x' },
      headers: { origin: '' },
    });
    assert.equal(blind.status, 403, 'the session cookie without Origin or Referer');
    const referred = await client.request('POST', '/api/settings/api-keys', {
      json: { name: 'x' },
      headers: { origin: '', referer: `${dashboard.base}/settings` },
    });
    assert.equal(referred.status, 201, 'a same-origin Referer stands in for Origin');
  });

  it('puts the security headers on every answer and maps malformed bodies to the envelope', async () => {
    const client = new Client(dashboard.base);
    const answers = [
      await client.get('/api/auth/config'),
      await client.get('/api/auth/me'),
      await client.get('/api/nothing-here'),
      await client.request('POST', '/api/auth/builtin/login', {
        body: '{"username":',
        headers: { 'content-type': 'application/json' },
      }),
      await client.request('POST', '/api/auth/builtin/login', {
        body: JSON.stringify({ username: 'a'.repeat(100_000) }),
        headers: { 'content-type': 'application/json' },
      }),
      await client.request('POST', '/api/auth/builtin/login', {
        body: 'username=admin',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
    ];
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 401, 401, 400, 413, 415],
    );
    assert.deepEqual(answers.slice(3).map(errorOf), [
      'invalid_request',
      'payload_too_large',
      'unsupported_media_type',
    ]);
    for (const answer of answers) {
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
      assert.equal(answer.headers.get('x-frame-options'), 'DENY');
      assert.equal(answer.headers.get('x-xss-protection'), '1; mode=block');
      assert.equal(answer.headers.get('referrer-policy'), 'strict-origin-when-cross-origin');
      assert.match(answer.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    }
  });
});

describe('builtin mode: administration', () => {
  it('lets an admin list users, change a role and disable a user, which ends their sessions', async () => {
    const admin = new Client(dashboard.base);
    await login(admin, 'admin', ADMIN_PASSWORD);
    const member = await newAccount('member');
    assert.equal((await member.get('/api/users')).status, 403, 'a viewer cannot list users');
    const list = await admin.get('/api/users');
    assert.equal(list.status, 200);
    const users = (list.body as { users: Array<{ id: string; username: string }>; total: number })
      .users;
    const target = users.find((u) => u.username === 'member')!;
    const promote = await admin.request('PATCH', `/api/users/${target.id}`, {
      json: { groups: ['dev'] },
    });
    assert.equal((promote.body as { user: { role: string } }).user.role, 'editor');
    assert.equal(
      ((await member.get('/api/auth/me')).body as { user: { role: string } }).user.role,
      'editor',
    );
    const disable = await admin.request('PATCH', `/api/users/${target.id}`, {
      json: { disabled: true },
    });
    assert.equal(disable.status, 200);
    assert.equal((await member.get('/api/auth/me')).status, 401, 'disabling ended the session');
    assert.equal(
      (await login(new Client(dashboard.base), 'member', 'a-good-password')).status,
      403,
    );
    const adminId = ((await admin.get('/api/auth/me')).body as { user: { id: string } }).user.id;
    const self = await admin.request('PATCH', `/api/users/${adminId}`, {
      json: { disabled: true },
    });
    assert.equal(errorOf(self), 'invalid_request', 'an admin cannot lock themselves out');
    const unknownField = await admin.request('PATCH', `/api/users/${target.id}`, {
      json: { password: 'x' },
    });
    assert.equal(errorOf(unknownField), 'invalid_request');
  });
});

describe('builtin mode on PostgreSQL', () => {
  let postgres: StartedPostgres;
  let pgDashboard: RunningDashboard;
  before(async () => {
    postgres = await startPostgres();
    pgDashboard = await startDashboard({
      SVC_AUTH_MODE: 'builtin',
      SVC_BUILTIN_STORE_TYPE: 'postgresql',
      SVC_BUILTIN_POSTGRES_URL: postgres.url,
    });
  });
  after(async () => {
    await pgDashboard.stop();
    await postgres.stop();
  });

  it('creates the initial admin there and signs it in', async () => {
    assert.match(pgDashboard.output(), /"store":"postgresql"/);
    const client = new Client(pgDashboard.base);
    assert.equal((await login(client, 'admin', ADMIN_PASSWORD)).status, 200);
    assert.equal(
      ((await client.get('/api/auth/me')).body as { user: { role: string } }).user.role,
      'admin',
    );
  });
});
