import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { silentLogger } from '@paddock/common';
import { SESSION_SECRET } from '@paddock/testing';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { dashboardContext } from '../src/assemble.js';
import { apiKeySigningKey } from '../src/auth/apikeys/format.js';
import {
  ApiKeys,
  LAST_USED_RESOLUTION_MS,
  REVOCATION_BOUND_MS,
} from '../src/auth/apikeys/service.js';
import type { Authentication } from '../src/auth/authenticator.js';
import { presentedCredential } from '../src/auth/identity.js';
import { loadDashboardConfig } from '../src/config.js';
import type { DashboardContext } from '../src/http/context.js';
import { DashboardMetrics } from '../src/http/metrics.js';
import { SignIns } from '../src/http/sign-ins.js';
import { settle, then, type MaybePromise } from '../src/maybe-promise.js';
import { withUserCache } from '../src/store/cached-users.js';
import { storeWithOwner } from './support/store-with-owner.js';

// A key presented again is decided from memory without a promise; everything a key is checked
// for (revocation, expiry, its owner's state and role) is still checked on every request.

const T0 = Date.UTC(2026, 0, 1);
const policy = { maxPerUser: 100, defaultExpirationDays: 0 };

describe('MaybePromise', () => {
  const twice = (n: number) => n * 2;
  const fails = (): number => {
    throw new Error('refused');
  };
  const cases: Array<{
    name: string;
    value: MaybePromise<number>;
    fn: (n: number) => number;
    sync: boolean;
    result: number | 'throws';
  }> = [
    { name: 'a known value', value: 2, fn: twice, sync: true, result: 4 },
    { name: 'a promise', value: Promise.resolve(2), fn: twice, sync: false, result: 4 },
    { name: 'a known value, fn throws', value: 2, fn: fails, sync: true, result: 'throws' },
    {
      name: 'a promise, fn throws',
      value: Promise.resolve(2),
      fn: fails,
      sync: false,
      result: 'throws',
    },
  ];
  for (const c of cases) {
    it(`then: ${c.name}`, async () => {
      if (c.sync && c.result === 'throws') {
        assert.throws(() => then(c.value, c.fn), /refused/);
        return;
      }
      const out = then(c.value, c.fn);
      assert.equal(out instanceof Promise, !c.sync);
      if (c.result === 'throws') await assert.rejects(Promise.resolve(out), /refused/);
      else assert.equal(await out, c.result);
    });
  }

  it('settle reports a known value before it returns, a promise once it settles', async () => {
    const reports: unknown[] = [];
    settle(
      () => 1,
      (err, value) => reports.push([err, value]),
    );
    assert.deepEqual([...reports], [[undefined, 1]], 'at once');
    const refusals: string[] = [];
    settle(
      () => {
        throw new Error('sync refusal');
      },
      (err) => refusals.push((err as Error).message),
    );
    assert.deepEqual(refusals, ['sync refusal'], 'at once');
    const settled = new Promise<unknown>((resolve) =>
      settle(
        () => Promise.reject(new Error('later')),
        (err) => resolve((err as Error).message),
      ),
    );
    assert.equal(await settled, 'later');
    const resolved = new Promise<unknown>((resolve) =>
      settle(
        () => Promise.resolve(7),
        (_err, value) => resolve(value),
      ),
    );
    assert.equal(await resolved, 7);
  });
});

const owned = storeWithOwner('paddock-api-key-fast-path-', withUserCache);

describe('API key verification from memory', () => {
  const signingKey = apiKeySigningKey('fast-path-test-secret-of-32-characters!!');

  it('answers a remembered key without a promise, and reads the store past its bounds', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await keys.create(owned.ownerId, { name: 'script' }, T0);
    const first = keys.verify(key, T0);
    assert.ok(first instanceof Promise, 'the first time reads the store');
    assert.equal((await first)?.id, record.id);
    const again = keys.verify(key, T0 + 1);
    assert.ok(!(again instanceof Promise), 'decided from memory');
    assert.equal(again?.id, record.id);
    const reread = keys.verify(key, T0 + REVOCATION_BOUND_MS);
    assert.ok(reread instanceof Promise, 'the record is read again once the bound has passed');
    assert.equal((await reread)?.id, record.id);
  });

  it('writes the last use, with a promise, when it is due', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await keys.create(owned.ownerId, { name: 'touched' }, T0);
    await keys.verify(key, T0);
    // Inside the record's bound, but the last use is a resolution old: it is written.
    const at = T0 + LAST_USED_RESOLUTION_MS;
    const due = keys.verify(key, at);
    assert.ok(due instanceof Promise);
    assert.equal((await due)?.lastUsedAt, at);
    assert.equal((await owned.store.apiKeys.findById(record.id))?.lastUsedAt, at);
  });

  it('refuses, from memory, a key revoked here and one altered by a character', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await keys.create(owned.ownerId, { name: 'revoked' }, T0);
    await keys.verify(key, T0);
    const altered = key.slice(0, -3) + (key.at(-3) === 'A' ? 'B' : 'A') + key.slice(-2);
    assert.equal(await keys.verify(altered, T0 + 1), undefined);
    assert.equal(await keys.revoke(record.id, T0 + 2), true);
    assert.equal(await keys.verify(key, T0 + 2), undefined);
  });
});

describe('the authenticator with a remembered key', () => {
  let ctx: DashboardContext;
  let signIns: SignIns;
  let metrics: DashboardMetrics;
  let key: string;
  const clock = Date.now();
  before(async () => {
    const config = loadDashboardConfig(
      {
        SVC_AUTH_MODE: 'builtin',
        SVC_LISTEN_ADDR: '127.0.0.1:0',
        SVC_SESSION_SECRET: SESSION_SECRET,
        SVC_BUILTIN_ADMIN_PASSWORD: 'admin-password-for-tests',
      },
      { randomSecret: () => SESSION_SECRET },
    );
    ctx = dashboardContext(config, { store: owned.store, logger: silentLogger() });
    metrics = new DashboardMetrics({ processMetrics: false });
    signIns = new SignIns(metrics, {
      mode: 'builtin',
      trustedProxies: [],
      proxyUserHeader: 'x-forwarded-user',
    });
    const holder = await owned.store.users.create({
      provider: 'builtin',
      username: 'holder',
      email: 'holder@example.com',
    });
    key = (await ctx.apiKeys.create(holder.id, { name: 'k' }, clock)).key;
  });

  const request = () =>
    ({
      headers: { authorization: `Bearer ${key}` },
      socket: { remoteAddress: '127.0.0.1' },
      log: silentLogger(),
    }) as unknown as FastifyRequest;
  const authenticate = (): MaybePromise<Authentication> => {
    const req = request();
    return signIns.authenticate(
      ctx.authenticator,
      req,
      {} as FastifyReply,
      clock,
      presentedCredential(req.headers),
    );
  };
  const counted = async (result: string) => {
    const text = (await metrics.exposition()).body;
    const line = text.split('\n').find((l) => l.includes(`result="${result}"`));
    return Number(line?.split(' ').at(-1) ?? 0);
  };

  it('decides at once, with one frozen principal shared by the requests', async () => {
    const first = await authenticate();
    assert.equal(first.principal?.via, 'api-key');
    const again = authenticate();
    assert.ok(!(again instanceof Promise), 'decided from memory');
    assert.equal(again.principal, first.principal, 'the same principal');
    assert.ok(Object.isFrozen(again.principal) && Object.isFrozen(again.principal.user));
    assert.ok(Object.isFrozen(again.principal.user.groups));
    assert.equal(again.principal.user.role, 'viewer');
    assert.equal(await counted('valid'), 2, 'each request counted');
  });

  it('follows a change of the owner made here on the very next request', async () => {
    const before = await authenticate();
    const id = before.principal!.user.id;
    await owned.store.users.update(id, { roleOverride: 'admin' });
    const promoted = await authenticate();
    assert.equal(promoted.principal?.user.role, 'admin');
    assert.notEqual(promoted.principal, before.principal);
    await owned.store.users.update(id, { disabled: true });
    await assert.rejects(
      async () => authenticate(),
      (err: Error) => err.message === 'the API key’s owner cannot sign in',
    );
    assert.equal(await counted('invalid'), 1);
    await owned.store.users.update(id, { disabled: false });
  });
});
