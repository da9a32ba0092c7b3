import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_PASSWORD,
  Client,
  DASHBOARD_BIN,
  errorOf,
  eventually,
  startDashboard,
  startPostgres,
  type RunningDashboard,
  type RunningSmtp,
} from '@paddock/testing';
import { verifyPassword } from '../src/builtin/passwords.js';
import { openStore } from '../src/store/index.js';
import { startSignupDashboard, type SignupDashboard } from './support/signup-dashboard.js';
import { tokenInMail } from './support/smtp.js';

const MAX_ATTEMPTS = 3;
/** Long enough that no lock runs out during a test however slow the machine. */
const LOCKOUT_SECONDS = 600;

/** A dashboard with mail (SMTP) and one without, both in builtin mode. */
let withMail: SignupDashboard;
let smtp: RunningSmtp;
let mailed: RunningDashboard;
let mailless: RunningDashboard;

before(async () => {
  withMail = await startSignupDashboard({
    SVC_BUILTIN_ALLOW_SIGNUP: 'false',
    SVC_BUILTIN_MAX_FAILED_ATTEMPTS: String(MAX_ATTEMPTS),
    SVC_BUILTIN_LOCKOUT_DURATION: String(LOCKOUT_SECONDS),
  });
  ({ smtp, dashboard: mailed } = withMail);
  mailless = await startDashboard({ SVC_AUTH_MODE: 'builtin' });
});
after(async () => {
  await withMail.stop();
  await mailless.stop();
});

const login = (client: Client, username: string, password: string) =>
  client.post('/api/auth/builtin/login', { username, password });

async function signedIn(base: string, username: string, password: string): Promise<Client> {
  const client = new Client(base);
  const answer = await login(client, username, password);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return client;
}

interface Created {
  user: { id: string; username: string; role: string; emailVerified: boolean };
  initialPassword?: string;
  setPasswordMailSent: boolean;
}

/** An admin creates a user on the mail-less dashboard and hands back a signed-in client of it. */
async function newUser(admin: Client, username: string, body: Record<string, unknown> = {}) {
  const created = await admin.post('/api/users', {
    username,
    email: `${username}@example.com`,
    ...body,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const { user, initialPassword } = created.body as Created;
  assert.ok(initialPassword !== undefined);
  return {
    user,
    password: initialPassword,
    client: await signedIn(admin.base, username, initialPassword),
  };
}

const changePassword = (client: Client, currentPassword: string, newPassword: string) =>
  client.post('/api/auth/builtin/change-password', { currentPassword, newPassword });

/** Runs the compiled paddock-dashboard with arguments, environment and stdin; waits for its exit. */
async function runDashboardBin(args: string[], env: Record<string, string>, input = '') {
  const child = spawn(process.execPath, [DASHBOARD_BIN, ...args], {
    env: { PATH: process.env.PATH, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(input);
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

describe('changing one’s own password', () => {
  it('refuses a wrong current password and a short new one, then changes it: other sessions end, this one and the API keys stay', async () => {
    const admin = await signedIn(mailless.base, 'admin', ADMIN_PASSWORD);
    const { client, password } = await newUser(admin, 'changer');
    const elsewhere = await signedIn(mailless.base, 'changer', password);
    const keyAnswer = await client.post('/api/settings/api-keys', { name: 'ci' });
    assert.equal(keyAnswer.status, 201);
    const key = (keyAnswer.body as { key: string }).key;

    const wrong = await changePassword(client, 'not-the-password', 'a-new-good-password');
    assert.equal(wrong.status, 401);
    assert.equal(errorOf(wrong), 'invalid_credentials');
    const short = await changePassword(client, password, 'short');
    assert.equal(short.status, 400);
    assert.equal(errorOf(short), 'password_too_short');
    assert.equal((await client.get('/api/auth/me')).status, 200, 'refusals end nothing');

    const changed = await changePassword(client, password, 'a-new-good-password');
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.ok(
      changed.cookies.some((c) => c.startsWith('svc_session=')),
      'a new session cookie',
    );
    assert.equal((await client.get('/api/auth/me')).status, 200, 'the caller stays signed in');
    assert.equal((await elsewhere.get('/api/auth/me')).status, 401, 'the other session ended');
    const byKey = new Client(mailless.base, { authorization: `Bearer ${key}` });
    assert.equal((await byKey.get('/api/auth/me')).status, 200, 'API keys stay valid');
    assert.equal(
      errorOf(await login(new Client(mailless.base), 'changer', password)),
      'invalid_credentials',
    );
    await signedIn(mailless.base, 'changer', 'a-new-good-password');
    assert.match(mailless.output(), /"msg":"password changed"/);
  });

  it('counts wrong current passwords as failed sign-ins: the address gets locked out', async () => {
    const admin = await signedIn(mailed.base, 'admin', ADMIN_PASSWORD);
    const created = await admin.post('/api/users', {
      username: 'guessed',
      email: 'guessed@example.com',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const token = tokenInMail(await smtp.nextMailTo('guessed@example.com'), 'reset-password');
    const anyone = new Client(mailed.base);
    const set = await anyone.post('/api/auth/builtin/reset-password', {
      token,
      password: 'guessed-password',
    });
    assert.equal(set.status, 200);
    const session = await signedIn(mailed.base, 'guessed', 'guessed-password');
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      const answer = await changePassword(session, `guess-${attempt}`, 'another-password');
      assert.equal(errorOf(answer), 'invalid_credentials');
    }
    const last = await changePassword(session, 'guess-last', 'another-password');
    assert.equal(last.status, 423);
    assert.equal(errorOf(last), 'account_locked');
    const right = await changePassword(session, 'guessed-password', 'another-password');
    assert.equal(errorOf(right), 'account_locked', 'even the right password waits out the lock');
    const signIn = await login(new Client(mailed.base), 'guessed', 'guessed-password');
    assert.equal(errorOf(signIn), 'account_locked', 'the sign-in form shares the lock');
    assert.match(mailed.output(), /"msg":"password change refused"/);
  });
});

describe('admins create users and send reset mails', () => {
  it('creates a user with a generated password without mail, and refuses a taken name or address', async () => {
    const admin = await signedIn(mailless.base, 'admin', ADMIN_PASSWORD);
    const { user, client } = await newUser(admin, 'made', {
      displayName: 'Made By Admin',
      role: 'editor',
      groups: ['team'],
    });
    assert.equal(user.role, 'editor');
    assert.equal(user.emailVerified, true, 'the admin vouches for the address');
    const me = (await client.get('/api/auth/me')).body as {
      user: { role: string; groups: string[]; displayName: string };
    };
    assert.deepEqual(
      [me.user.role, me.user.groups, me.user.displayName],
      ['editor', ['team'], 'Made By Admin'],
    );
    const again = (body: Record<string, unknown>) => admin.post('/api/users', body);
    assert.equal(
      errorOf(await again({ username: 'MADE', email: 'other@example.com' })),
      'username_exists',
    );
    assert.equal(
      errorOf(await again({ username: 'other', email: 'Made@Example.com' })),
      'email_exists',
    );
    assert.equal(
      errorOf(await again({ username: 'a@b', email: 'x@example.com' })),
      'invalid_request',
    );
    assert.equal(errorOf(await again({ username: 'nomail' })), 'invalid_request');
  });

  it('answers conflict to a reset mail when no mail can be sent', async () => {
    const admin = await signedIn(mailless.base, 'admin', ADMIN_PASSWORD);
    const { user } = await newUser(admin, 'unmailable');
    const answer = await admin.post(`/api/users/${user.id}/reset-password`);
    assert.equal(answer.status, 409);
    assert.equal(errorOf(answer), 'conflict');
  });

  it('with mail, sends the new user a link to choose a password, and a reset mail on request', async () => {
    const admin = await signedIn(mailed.base, 'admin', ADMIN_PASSWORD);
    const created = await admin.post('/api/users', {
      username: 'welcomed',
      email: 'welcomed@example.com',
    });
    assert.equal(created.status, 201);
    const body = created.body as Created;
    assert.equal(body.setPasswordMailSent, true);
    assert.equal(body.initialPassword, undefined, 'nobody but the user knows the password');
    const welcome = await smtp.nextMailTo('welcomed@example.com');
    const anyone = new Client(mailed.base);
    const chosen = await anyone.post('/api/auth/builtin/reset-password', {
      token: tokenInMail(welcome, 'reset-password'),
      password: 'my-own-password',
    });
    assert.equal(chosen.status, 200);
    const session = await signedIn(mailed.base, 'welcomed', 'my-own-password');

    const sent = await admin.post(`/api/users/${body.user.id}/reset-password`);
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    const reset = await smtp.nextMailTo('welcomed@example.com');
    const again = await anyone.post('/api/auth/builtin/reset-password', {
      token: tokenInMail(reset, 'reset-password'),
      password: 'after-the-reset',
    });
    assert.equal(again.status, 200);
    assert.equal((await session.get('/api/auth/me')).status, 401, 'the reset ended the sessions');
    await signedIn(mailed.base, 'welcomed', 'after-the-reset');
    assert.equal(errorOf(await admin.post('/api/users/no-such-id/reset-password')), 'not_found');
  });

  it('refuses both to non-admins with 403', async () => {
    const admin = await signedIn(mailless.base, 'admin', ADMIN_PASSWORD);
    const { client: viewer } = await newUser(admin, 'plainviewer');
    const create = await viewer.post('/api/users', { username: 'x1', email: 'x1@example.com' });
    assert.equal(create.status, 403);
    const adminId = ((await admin.get('/api/auth/me')).body as { user: { id: string } }).user.id;
    assert.equal((await viewer.post(`/api/users/${adminId}/reset-password`)).status, 403);
  });
});

describe('users reset-password from the machine', () => {
  it('resets the password in the store of a running dashboard: old sessions end, the new password signs in', async () => {
    const env = { SVC_BUILTIN_SQLITE_PATH: join(mailless.dataDir, 'users.db') };
    const admin = await signedIn(mailless.base, 'admin', ADMIN_PASSWORD);
    const { client } = await newUser(admin, 'forgetful');
    const run = await runDashboardBin(['users', 'reset-password', 'forgetful'], env);
    assert.equal(run.code, 0, run.stderr);
    const generated = /^New password: (\S+)$/m.exec(run.stdout)?.[1];
    assert.ok(generated !== undefined, run.stdout);
    await signedIn(mailless.base, 'forgetful', generated);
    // The running dashboard reads the new epoch within its user cache's second.
    await eventuallyStatus(client, 401);

    const piped = await runDashboardBin(
      ['users', 'reset-password', 'forgetful', '--password-stdin'],
      env,
      'piped-password\n',
    );
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stdout, /New password/);
    await signedIn(mailless.base, 'forgetful', 'piped-password');

    const short = await runDashboardBin(
      ['users', 'reset-password', 'forgetful', '--password-stdin'],
      env,
      'short\n',
    );
    assert.equal(short.code, 1);
    assert.match(short.stderr, /at least 8 characters/);
    const unknown = await runDashboardBin(['users', 'reset-password', 'nobody'], env);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no user of the built-in store is named "nobody"/);
    const usage = await runDashboardBin(['users', 'rename', 'x'], env);
    assert.equal(usage.code, 2);
  });

  it('works on a PostgreSQL store', async () => {
    const postgres = await startPostgres();
    try {
      const store = await openStore({ kind: 'postgresql', url: postgres.url });
      try {
        await store.users.create({
          provider: 'builtin',
          username: 'pguser',
          email: 'pg@example.com',
        });
        const run = await runDashboardBin(['users', 'reset-password', 'pguser'], {
          SVC_BUILTIN_STORE_TYPE: 'postgresql',
          SVC_BUILTIN_POSTGRES_URL: postgres.url,
        });
        assert.equal(run.code, 0, run.stderr);
        const generated = /^New password: (\S+)$/m.exec(run.stdout)![1]!;
        const record = await store.users.findBuiltinByLogin('pguser');
        assert.equal(record?.sessionEpoch, 1, 'sessions ended');
        assert.ok(await verifyPassword(record.passwordHash!, generated));
      } finally {
        await store.close();
      }
    } finally {
      await postgres.stop();
    }
  });
});

/** Asks for the session until it answers `status` (a change made elsewhere reaches the cache). */
async function eventuallyStatus(client: Client, status: number): Promise<void> {
  await eventually(`GET /api/auth/me to answer ${status}`, async () =>
    (await client.get('/api/auth/me')).status === status ? true : undefined,
  );
}

describe('passwords and users in the other modes', () => {
  it('answers why not: the identity provider keeps them', async () => {
    const anonymous = await startDashboard({
      SVC_AUTH_MODE: 'anonymous',
      SVC_AUTH_ANONYMOUS_ROLE: 'admin',
    });
    try {
      const client = new Client(anonymous.base);
      const change = await changePassword(client, 'whatever', 'a-new-good-password');
      assert.equal(errorOf(change), 'invalid_request');
      assert.match(
        (change.body as { message: string }).message,
        /keeps no passwords in anonymous mode/,
      );
      const create = await client.post('/api/users', { username: 'x2', email: 'x2@example.com' });
      assert.equal(errorOf(create), 'invalid_request');
      assert.match(
        (create.body as { message: string }).message,
        /identity provider keeps the users/,
      );
    } finally {
      await anonymous.stop();
    }
  });
});
