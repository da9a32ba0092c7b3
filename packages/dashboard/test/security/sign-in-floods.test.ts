import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN_PASSWORD,
  Client,
  errorOf,
  type Answer,
  type RunningDashboard,
  type RunningSmtp,
} from '@paddock/testing';
import { ARGON2_CONCURRENCY, ARGON2_QUEUE_DEPTH } from '../../src/builtin/password-queue.js';
import {
  ACCOUNT_ATTACK_FAILURES,
  ATTEMPTS_UNDER_ATTACK,
} from '../../src/builtin/sign-in-throttle.js';
import { LIMITED_ENDPOINTS } from '../../src/builtin/source-limits.js';
import { startSignupDashboard, type SignupDashboard } from '../support/signup-dashboard.js';
import { tokenInMail } from '../support/smtp.js';

const MAX_ATTEMPTS = 3;
const RATE_LIMIT = 5;
/** The wrong-password flood of the report. */
const FLOOD_REQUESTS = 600;
const FLOOD_CONCURRENCY = 8;

let started: SignupDashboard;
let smtp: RunningSmtp;
let dashboard: RunningDashboard;

before(async () => {
  started = await startSignupDashboard({
    SVC_BUILTIN_MAX_FAILED_ATTEMPTS: String(MAX_ATTEMPTS),
    SVC_BUILTIN_SOURCE_RATE_LIMIT: String(RATE_LIMIT),
    // The test speaks through 127.0.0.1 as a reverse proxy would: X-Forwarded-For names the client.
    SVC_AUTH_PROXY_TRUSTED_ADDRESSES: '127.0.0.1',
  });
  ({ smtp, dashboard } = started);
});
after(async () => {
  await started?.stop();
});

let nextSource = 1;
/** A client at an address of its own. */
function fromNewAddress(): Client {
  const n = nextSource++;
  return new Client(dashboard.base, {
    'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
}

const login = (client: Client, username: string, password: string) =>
  client.post('/api/auth/builtin/login', { username, password });

/** Runs `count` requests with at most `concurrency` at once. */
async function flood(
  count: number,
  concurrency: number,
  send: (i: number) => Promise<Answer>,
): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) answers.push(await send(next++));
    }),
  );
  return answers;
}

describe('sign-in floods', () => {
  it('locks only the failing address out of the account, and ends none of its sessions', async () => {
    const owner = fromNewAddress();
    assert.equal((await login(owner, 'admin', ADMIN_PASSWORD)).status, 200);
    const attacker = fromNewAddress();
    for (let i = 0; i < MAX_ATTEMPTS - 1; i++) {
      assert.equal(errorOf(await login(attacker, 'admin', 'guess')), 'invalid_credentials');
    }
    const locked = await login(attacker, 'admin', 'guess');
    assert.equal(locked.status, 423);
    assert.equal(errorOf(locked), 'account_locked');
    assert.equal(errorOf(await login(attacker, 'admin', ADMIN_PASSWORD)), 'account_locked');
    assert.equal((await owner.get('/api/auth/me')).status, 200, 'the session stays');
    const elsewhere = fromNewAddress();
    assert.equal((await login(elsewhere, 'admin', ADMIN_PASSWORD)).status, 200, 'others sign in');
  });

  it('answers a wrong-password flood from one address with 429 and Retry-After, while the real user signs in', async () => {
    const attacker = fromNewAddress();
    let userAnswers = 0;
    const answers = await flood(FLOOD_REQUESTS, FLOOD_CONCURRENCY, async (i) => {
      if (i % 100 === 50) {
        // The real user, at an address of their own each time (a phone, then a laptop, ...).
        assert.equal((await login(fromNewAddress(), 'admin', ADMIN_PASSWORD)).status, 200);
        userAnswers++;
      }
      return login(attacker, i % 2 === 0 ? 'admin' : 'ghost', 'guess');
    });
    const limited = answers.filter((a) => a.status === 429);
    process.stdout.write(`# ${limited.length} of ${FLOOD_REQUESTS} flood requests got 429\n`);
    assert.equal(userAnswers, 6);
    assert.ok(limited.length >= FLOOD_REQUESTS - RATE_LIMIT * 2, `${limited.length} got 429`);
    for (const answer of limited) {
      assert.equal(errorOf(answer), 'rate_limited');
      assert.ok(Number(answer.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
    }
    const others = answers.filter((a) => a.status !== 429).map(errorOf);
    assert.ok(others.every((code) => code === 'invalid_credentials' || code === 'account_locked'));
  });

  it('limits every unauthenticated endpoint that costs work, per address', async () => {
    const bodies: Record<(typeof LIMITED_ENDPOINTS)[number], unknown> = {
      login: { username: 'nobody', password: 'guess' },
      signup: { username: 'x', email: 'not-an-address', password: 'p' },
      'forgot-password': { email: 'nobody@example.com' },
      'resend-verification': { email: 'nobody@example.com' },
      'reset-password': { token: 'unknown', password: 'long-enough-password' },
      'verify-email': { token: 'unknown' },
    };
    for (const endpoint of LIMITED_ENDPOINTS) {
      const client = fromNewAddress();
      const statuses: number[] = [];
      for (let i = 0; i < RATE_LIMIT + 2; i++) {
        statuses.push(
          (await client.post(`/api/auth/builtin/${endpoint}`, bodies[endpoint])).status,
        );
      }
      assert.ok(
        statuses.slice(0, RATE_LIMIT).every((s) => s !== 429),
        `${endpoint}: ${statuses.join(' ')}`,
      );
      assert.deepEqual(
        statuses.slice(RATE_LIMIT),
        [429, 429],
        `${endpoint}: ${statuses.join(' ')}`,
      );
      const other = await fromNewAddress().post(`/api/auth/builtin/${endpoint}`, bodies[endpoint]);
      assert.notEqual(other.status, 429, `${endpoint}: another address is not limited`);
    }
  });

  it('sheds load with 429 when the password hashing queue is full, instead of queueing', async () => {
    // Every request from its own address: only the queue can refuse them.
    const answers = await flood(300, 4 * (ARGON2_CONCURRENCY + ARGON2_QUEUE_DEPTH), () =>
      login(fromNewAddress(), 'ghost', 'guess'),
    );
    const shed = answers.filter((a) => a.status === 429);
    process.stdout.write(`# ${shed.length} of ${answers.length} shed by the argon2 queue\n`);
    assert.ok(shed.length > 0, 'some were shed');
    for (const answer of shed) {
      assert.equal(errorOf(answer), 'rate_limited');
      assert.equal(answer.headers.get('retry-after'), '1');
    }
    assert.ok(answers.every((a) => a.status === 429 || errorOf(a) === 'invalid_credentials'));
  });

  it('under a guessing attack from many addresses, locks each new address sooner, never a right password', async () => {
    const signup = await fromNewAddress().post('/api/auth/builtin/signup', {
      username: 'target',
      email: 'target@example.com',
      password: 'target-password',
    });
    assert.equal(signup.status, 201);
    const guesses = await flood(ACCOUNT_ATTACK_FAILURES, 4, () =>
      login(fromNewAddress(), 'target', 'guess'),
    );
    assert.ok(guesses.every((a) => errorOf(a) === 'invalid_credentials'));
    const guesser = fromNewAddress();
    const answers: Answer[] = [];
    for (let i = 0; i < ATTEMPTS_UNDER_ATTACK; i++)
      answers.push(await login(guesser, 'target', 'guess'));
    assert.deepEqual(answers.map(errorOf), [
      ...Array<string>(ATTEMPTS_UNDER_ATTACK - 1).fill('invalid_credentials'),
      'account_locked',
    ]);
    assert.equal((await login(fromNewAddress(), 'target', 'target-password')).status, 200);
  });

  it('mails a reset link at most once per cooldown, and a new request keeps the link working', async () => {
    const email = 'forgetful@example.com';
    const signup = await fromNewAddress().post('/api/auth/builtin/signup', {
      username: 'forgetful',
      email,
      password: 'first-password',
    });
    assert.equal(signup.status, 201);
    const marker = 'marker@example.com';
    assert.equal(
      (
        await fromNewAddress().post('/api/auth/builtin/signup', {
          username: 'marker',
          email: marker,
          password: 'marker-password',
        })
      ).status,
      201,
    );
    assert.equal(
      (await fromNewAddress().post('/api/auth/builtin/forgot-password', { email })).status,
      200,
    );
    const token = tokenInMail(await smtp.nextMailTo(email), 'reset-password');
    // Someone asks again from elsewhere; then a mail to another account shows the request was done.
    for (const address of [email, email, marker]) {
      const answer = await fromNewAddress().post('/api/auth/builtin/forgot-password', {
        email: address,
      });
      assert.equal(answer.status, 200);
    }
    await smtp.nextMailTo(marker);
    assert.equal(smtp.mails.filter((m) => m.to.includes(email)).length, 1, 'one mail only');
    const reset = await fromNewAddress().post('/api/auth/builtin/reset-password', {
      token,
      password: 'second-password',
    });
    assert.equal(reset.status, 200, JSON.stringify(reset.body));
    assert.equal((await login(fromNewAddress(), 'forgetful', 'second-password')).status, 200);
  });
});
