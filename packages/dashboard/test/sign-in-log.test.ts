import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_PASSWORD,
  Client,
  errorOf,
  freePort,
  SESSION_SECRET,
  startOidcProvider,
  type RunningOidcProvider,
} from '@paddock/testing';
import {
  MAX_LOGGED_CHARS,
  SIGN_IN_FAILED,
  SIGN_IN_SUCCEEDED,
  signInLine,
  type SignInEvent,
} from '../src/auth/sign-in-log.js';
import { loadDashboardConfig } from '../src/config.js';
import { OAuthClient } from '../src/oauth/client.js';
import { startInProcess, type InProcessDashboard } from './support/in-process.js';

const AGENT = 'sign-in-log-test/1.0';
const WRONG_PASSWORD = 'wrong-password-never-logged';

describe('the sign-in log line', () => {
  const client = { ip: '192.0.2.7', userAgent: AGENT };
  const cases: Array<{ name: string; event: SignInEvent; level: string; message: string }> = [
    {
      name: 'a success is info, with who, how and from where',
      event: {
        mode: 'builtin',
        result: 'success',
        user: { id: 'u1', username: 'ada', email: 'ada@example.test' },
        client,
      },
      level: 'info',
      message: SIGN_IN_SUCCEEDED,
    },
    {
      name: 'a failure is a warning with its reason',
      event: { mode: 'api-key', result: 'failure', reason: 'unauthorized', client },
      level: 'warn',
      message: SIGN_IN_FAILED,
    },
    {
      name: 'a failure refused by the rate limit is debug: a flood must not flood the log',
      event: { mode: 'builtin', result: 'failure', reason: 'rate_limited', client },
      level: 'debug',
      message: SIGN_IN_FAILED,
    },
  ];
  for (const { name, event, level, message } of cases) {
    it(name, () => {
      const line = signInLine(event);
      assert.equal(line.level, level);
      assert.equal(line.message, message);
      assert.equal(line.fields.mode, event.mode);
      assert.equal(line.fields.clientIp, '192.0.2.7');
      assert.equal(line.fields.userAgent, AGENT);
      assert.equal(line.fields.reason, event.reason);
    });
  }

  it('clips what the client wrote and leaves out what is unknown', () => {
    const long = 'x'.repeat(MAX_LOGGED_CHARS * 4);
    const line = signInLine({
      mode: 'builtin',
      result: 'failure',
      reason: 'invalid_credentials',
      user: { username: long },
      client: { ip: '192.0.2.7', userAgent: long },
    });
    assert.equal(line.fields.username!.length, MAX_LOGGED_CHARS + 1);
    assert.equal(line.fields.userAgent!.length, MAX_LOGGED_CHARS + 1);
    assert.deepEqual(Object.keys(line.fields).sort(), [
      'clientIp',
      'mode',
      'reason',
      'result',
      'userAgent',
      'username',
    ]);
  });
});

describe('sign-ins logged in builtin mode', () => {
  let dashboard: InProcessDashboard;
  before(async () => {
    dashboard = await startInProcess({ SVC_AUTH_MODE: 'builtin' });
  });
  after(async () => {
    await dashboard?.stop();
  });

  it('logs a sign-in with who, how and from where, and a failure with its reason, never the password', async () => {
    const browser = new Client(dashboard.base, { 'user-agent': AGENT });
    const signedIn = await browser.post('/api/auth/builtin/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    assert.equal(signedIn.status, 200);
    const wrong = await browser.post('/api/auth/builtin/login', {
      username: 'admin',
      password: WRONG_PASSWORD,
    });
    assert.equal(errorOf(wrong), 'invalid_credentials');
    const stranger = await browser.post('/api/auth/builtin/login', {
      username: 'nobody-here',
      password: WRONG_PASSWORD,
    });
    assert.equal(errorOf(stranger), 'invalid_credentials');

    // Written before the answer: no waiting.
    const { log } = dashboard;
    assert.equal(log.withMessage(SIGN_IN_FAILED).length, 2, log.all());
    const [success] = log.withMessage(SIGN_IN_SUCCEEDED);
    assert.ok(success, log.all());
    const admin = await dashboard.store.users.findBuiltinByLogin('admin');
    assert.equal(success.level, 30);
    assert.equal(success.mode, 'builtin');
    assert.equal(success.result, 'success');
    assert.equal(success.userId, admin!.id);
    assert.equal(success.username, 'admin');
    assert.equal(success.email, admin!.email);
    assert.equal(success.clientIp, '127.0.0.1');
    assert.equal(success.userAgent, AGENT);
    assert.equal(typeof success.reqId, 'string', 'the line names its request');

    const [wrongLine, strangerLine] = log.withMessage(SIGN_IN_FAILED);
    assert.equal(wrongLine!.level, 40);
    assert.equal(wrongLine!.reason, 'invalid_credentials');
    assert.equal(wrongLine!.username, 'admin');
    assert.equal(strangerLine!.username, 'nobody-here');
    assert.equal(strangerLine!.clientIp, '127.0.0.1');

    const written = log.all();
    assert.ok(!written.includes(WRONG_PASSWORD), 'a password was logged');
    assert.ok(!written.includes(ADMIN_PASSWORD), 'a password was logged');
    for (const cookie of browser.jar.values()) assert.ok(!written.includes(cookie));
  });

  it('logs an API key that fails, without the key', async () => {
    const bogus = 'svc_sk_this-key-was-never-issued';
    const answer = await new Client(dashboard.base, {
      authorization: `Bearer ${bogus}`,
      'user-agent': AGENT,
    }).get('/api/auth/me');
    assert.equal(answer.status, 401);
    const { log } = dashboard;
    const failed = () => log.withMessage(SIGN_IN_FAILED).filter((l) => l.mode === 'api-key');
    assert.equal(failed().length, 1, log.all());
    assert.equal(failed()[0]!.reason, 'unauthorized');
    assert.equal(failed()[0]!.detail, 'the API key is invalid, revoked or expired');
    assert.equal(failed()[0]!.userAgent, AGENT);
    assert.ok(!log.all().includes('this-key-was-never-issued'), 'the key was logged');
  });
});

describe('sign-ins logged in proxy mode', () => {
  let dashboard: InProcessDashboard;
  before(async () => {
    dashboard = await startInProcess({
      SVC_AUTH_MODE: 'proxy',
      SVC_AUTH_PROXY_AUTO_SIGNUP: 'false',
    });
  });
  after(async () => {
    await dashboard?.stop();
  });

  it('logs a proxied identity the dashboard refuses, with the name it claimed', async () => {
    const answer = await new Client(dashboard.base, { 'x-forwarded-user': 'mallory' }).get(
      '/api/auth/me',
    );
    assert.equal(answer.status, 403);
    const { log } = dashboard;
    assert.equal(log.withMessage(SIGN_IN_FAILED).length, 1, log.all());
    const [line] = log.withMessage(SIGN_IN_FAILED);
    assert.equal(line!.mode, 'proxy');
    assert.equal(line!.reason, 'forbidden');
    assert.equal(line!.username, 'mallory');
  });
});

describe('sign-ins logged in oauth mode', () => {
  let op: RunningOidcProvider;
  let dashboard: InProcessDashboard;
  before(async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    op = await startOidcProvider({
      redirectUris: [`${origin}/api/auth/callback`],
      accounts: {
        alice: { preferred_username: 'alice', email: 'alice@example.test', email_verified: true },
      },
    });
    const env = {
      SVC_AUTH_MODE: 'oauth',
      SVC_BASE_URL: origin,
      SVC_OAUTH_ISSUER_URL: op.issuer,
      SVC_OAUTH_CLIENT_ID: op.clientId,
      SVC_OAUTH_CLIENT_SECRET: op.clientSecret,
    };
    const oauth = await OAuthClient.create(
      loadDashboardConfig(
        { ...env, SVC_SESSION_SECRET: SESSION_SECRET },
        { randomSecret: () => SESSION_SECRET },
      ),
    );
    dashboard = await startInProcess(env, { oauth }, port);
  });
  after(async () => {
    await dashboard?.stop();
    await op?.stop();
  });

  it('logs the callback that signs in and the one that fails, with its code', async () => {
    const browser = new Client(dashboard.base, { 'user-agent': AGENT });
    const start = await browser.get('/api/auth/login');
    assert.equal(start.status, 302);
    const back = await op.signIn(start.headers.get('location')!, 'alice');
    const done = await browser.get(`${back.pathname}${back.search}`);
    assert.equal(done.headers.get('location'), '/');
    const stray = await new Client(dashboard.base).get('/api/auth/callback?state=x&code=y');
    assert.equal(stray.headers.get('location'), '/login?error=invalid_state');

    const { log } = dashboard;
    assert.equal(log.withMessage(SIGN_IN_FAILED).length, 1, log.all());
    const [success] = log.withMessage(SIGN_IN_SUCCEEDED);
    assert.equal(success!.mode, 'oauth');
    assert.equal(success!.username, 'alice');
    assert.equal(success!.email, 'alice@example.test');
    assert.equal(success!.userAgent, AGENT);
    const [failure] = log.withMessage(SIGN_IN_FAILED);
    assert.equal(failure!.mode, 'oauth');
    assert.equal(failure!.reason, 'invalid_state');
    const events = JSON.stringify([success, failure]);
    for (const cookie of browser.jar.values()) assert.ok(!events.includes(cookie));
    assert.ok(
      !events.includes(back.searchParams.get('code')!),
      'the authorization code was logged',
    );
  });
});
