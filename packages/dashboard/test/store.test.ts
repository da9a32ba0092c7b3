import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startPostgres, tempDir } from '@paddock/testing';
import { openStore, UniqueViolation, type Store, type StoreOptions } from '../src/store/index.js';

/** Where each backend's store lives for the suite, and how to take it down afterwards. */
interface Backend {
  name: string;
  setUp(): Promise<{ options: StoreOptions; tearDown: () => Promise<void> }>;
}

const BACKENDS: Backend[] = [
  {
    name: 'sqlite',
    async setUp() {
      const dir = await tempDir('paddock-store-');
      // A folder that does not exist yet: opening the store creates it.
      const path = join(dir.path, 'state', 'dashboard.db');
      return { options: { kind: 'sqlite', path }, tearDown: dir.remove };
    },
  },
  {
    name: 'postgresql',
    async setUp() {
      const server = await startPostgres();
      return { options: { kind: 'postgresql', url: server.url }, tearDown: () => server.stop() };
    },
  },
];

function isViolationOf(field: 'username' | 'email') {
  return (error: unknown) => {
    assert.ok(error instanceof UniqueViolation, `expected a UniqueViolation, got ${String(error)}`);
    assert.equal(error.field, field);
    return true;
  };
}

for (const backend of BACKENDS) {
  describe(`the store over ${backend.name}`, () => {
    let options: StoreOptions;
    let tearDown: () => Promise<void>;
    let store: Store;
    /** A second store on the same database: its own connections, for races between them. */
    let other: Store;

    before(async () => {
      ({ options, tearDown } = await backend.setUp());
      store = await openStore(options);
      other = await openStore(options);
    });

    after(async () => {
      await other?.close();
      await store?.close();
      await tearDown?.();
    });

    it('reports which database it is', () => {
      assert.equal(store.kind, backend.name);
    });

    it('knows of no builtin admin until one is created with the admin override', async () => {
      assert.equal(await store.users.hasBuiltinAdmin(), false);
      await store.users.upsertExternal('proxy', 'root-ish', {
        username: 'root-ish',
        email: null,
        displayName: null,
        groups: ['admins'],
      });
      await store.users.create({
        provider: 'builtin',
        username: 'plain-editor',
        roleOverride: 'editor',
      });
      assert.equal(await store.users.hasBuiltinAdmin(), false);
      await store.users.create({
        provider: 'builtin',
        username: 'first-admin',
        roleOverride: 'admin',
      });
      assert.equal(await store.users.hasBuiltinAdmin(), true);
    });

    it('creates a builtin user whose subject is its id, and finds it every way', async () => {
      const alice = await store.users.create({
        provider: 'builtin',
        username: 'Alice',
        email: 'Alice@Example.org',
        displayName: 'Alice A.',
        groups: ['dev', 'ops'],
        passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
      });
      assert.equal(alice.provider, 'builtin');
      assert.equal(alice.subject, alice.id);
      assert.equal(alice.username, 'Alice');
      assert.equal(alice.email, 'Alice@Example.org');
      assert.deepEqual(alice.groups, ['dev', 'ops']);
      assert.equal(alice.roleOverride, null);
      assert.equal(alice.emailVerified, false);
      assert.equal(alice.disabled, false);
      assert.equal(alice.sessionEpoch, 0);
      assert.equal(typeof alice.createdAt, 'number');
      assert.equal(alice.updatedAt, alice.createdAt);

      assert.deepEqual(await store.users.findById(alice.id), alice);
      assert.deepEqual(await store.users.findBuiltinByLogin('alice'), alice);
      assert.deepEqual(await store.users.findBuiltinByLogin('ALICE'), alice);
      assert.deepEqual(await store.users.findBuiltinByLogin('alice@example.ORG'), alice);
      assert.deepEqual(await store.users.findBuiltinByEmail('ALICE@example.org'), alice);
      assert.deepEqual(await store.users.findBySubject('builtin', alice.id), alice);
      assert.deepEqual(await other.users.findById(alice.id), alice);

      assert.equal(await store.users.findById('no-such-id'), undefined);
      assert.equal(await store.users.findBuiltinByLogin('nobody'), undefined);
      assert.equal(await store.users.findBuiltinByEmail('alice'), undefined);
      assert.equal(await store.users.findBySubject('oauth', alice.id), undefined);
    });

    it('refuses a taken builtin username or e-mail in any case, naming the field', async () => {
      await store.users.create({ provider: 'builtin', username: 'Bob', email: 'bob@example.org' });
      await assert.rejects(
        store.users.create({ provider: 'builtin', username: 'bOB', email: 'other@example.org' }),
        isViolationOf('username'),
      );
      await assert.rejects(
        store.users.create({ provider: 'builtin', username: 'robert', email: 'BOB@Example.ORG' }),
        isViolationOf('email'),
      );
      const carol = await store.users.create({ provider: 'builtin', username: 'carol' });
      await assert.rejects(
        store.users.update(carol.id, { username: 'BOB' }),
        isViolationOf('username'),
      );
      await assert.rejects(
        store.users.update(carol.id, { email: 'Bob@example.org' }),
        isViolationOf('email'),
      );
      assert.equal((await store.users.findById(carol.id))?.username, 'carol');
    });

    it('lets proxy and OAuth users share names with builtin accounts without being found as them', async () => {
      const builtin = await store.users.create({
        provider: 'builtin',
        username: 'dora',
        email: 'dora@example.org',
      });
      const proxy = await store.users.upsertExternal('proxy', 'dora', {
        username: 'Dora',
        email: 'dora@example.org',
        displayName: null,
        groups: [],
      });
      const oauth = await store.users.upsertExternal('oauth', 'sub-dora', {
        username: 'dora',
        email: 'DORA@example.org',
        displayName: 'Dora',
        groups: [],
      });
      assert.equal(new Set([builtin.id, proxy.id, oauth.id]).size, 3);
      assert.equal((await store.users.findBuiltinByLogin('DORA'))?.id, builtin.id);
      assert.equal((await store.users.findBuiltinByEmail('dora@example.org'))?.id, builtin.id);
      assert.equal((await store.users.findBySubject('proxy', 'dora'))?.id, proxy.id);
      assert.equal((await store.users.findBySubject('oauth', 'sub-dora'))?.id, oauth.id);
    });

    it('creates an external user on first sight and refreshes its profile without a new id', async () => {
      const first = await store.users.upsertExternal('oauth', 'google|1234', {
        username: 'erin',
        email: 'erin@example.org',
        displayName: 'Erin',
        groups: ['dev'],
      });
      assert.equal(first.provider, 'oauth');
      assert.equal(first.subject, 'google|1234');
      assert.equal(first.passwordHash, null);
      const count = await store.users.count();

      const again = await store.users.upsertExternal('oauth', 'google|1234', {
        username: 'erin.e',
        email: null,
        displayName: 'Erin E.',
        groups: ['dev', 'admins'],
      });
      assert.equal(again.id, first.id);
      assert.equal(again.createdAt, first.createdAt);
      assert.ok(again.updatedAt >= first.updatedAt);
      assert.equal(again.username, 'erin.e');
      assert.equal(again.email, null);
      assert.equal(again.displayName, 'Erin E.');
      assert.deepEqual(again.groups, ['dev', 'admins']);
      assert.equal(await store.users.count(), count);
      assert.deepEqual(await store.users.findBySubject('oauth', 'google|1234'), again);
    });

    it('keeps an admin-set role and session epoch across profile refreshes', async () => {
      const user = await store.users.upsertExternal('proxy', 'frank', {
        username: 'frank',
        email: null,
        displayName: null,
        groups: [],
      });
      await store.users.update(user.id, { roleOverride: 'editor' });
      await store.users.bumpSessionEpoch(user.id);
      const refreshed = await store.users.upsertExternal('proxy', 'frank', {
        username: 'Frank',
        email: null,
        displayName: null,
        groups: ['g'],
      });
      assert.equal(refreshed.roleOverride, 'editor');
      assert.equal(refreshed.sessionEpoch, 1);
    });

    it('updates only the fields given and moves the login to a new username', async () => {
      const grace = await store.users.create({
        provider: 'builtin',
        username: 'grace',
        email: 'grace@example.org',
      });
      const updated = await store.users.update(grace.id, {
        username: 'Grace.H',
        email: 'Grace.H@Example.org',
        displayName: 'Grace H.',
        groups: ['navy'],
        roleOverride: 'admin',
        passwordHash: 'new-hash',
        emailVerified: true,
        disabled: true,
      });
      assert.ok(updated);
      assert.equal(updated.id, grace.id);
      assert.equal(updated.username, 'Grace.H');
      assert.equal(updated.email, 'Grace.H@Example.org');
      assert.equal(updated.displayName, 'Grace H.');
      assert.deepEqual(updated.groups, ['navy']);
      assert.equal(updated.roleOverride, 'admin');
      assert.equal(updated.passwordHash, 'new-hash');
      assert.equal(updated.emailVerified, true);
      assert.equal(updated.disabled, true);
      assert.equal(updated.createdAt, grace.createdAt);
      assert.deepEqual(await store.users.findById(grace.id), updated);

      assert.equal(await store.users.findBuiltinByLogin('grace'), undefined);
      assert.equal(await store.users.findBuiltinByEmail('grace@example.org'), undefined);
      assert.equal((await store.users.findBuiltinByLogin('grace.h'))?.id, grace.id);
      assert.equal((await store.users.findBuiltinByLogin('grace.h@example.org'))?.id, grace.id);
      // The old username is free again.
      await store.users.create({ provider: 'builtin', username: 'GRACE' });

      const partial = await store.users.update(grace.id, { disabled: false, roleOverride: null });
      assert.equal(partial?.disabled, false);
      assert.equal(partial?.roleOverride, null);
      assert.equal(partial?.username, 'Grace.H');
      assert.equal(partial?.passwordHash, 'new-hash');

      const noEmail = await store.users.update(grace.id, { email: null });
      assert.equal(noEmail?.email, null);
      assert.equal(await store.users.findBuiltinByLogin('grace.h@example.org'), undefined);

      assert.equal(await store.users.update('no-such-id', { displayName: 'x' }), undefined);
    });

    it('raises the session epoch by one each time', async () => {
      const user = await store.users.create({ provider: 'builtin', username: 'heidi' });
      await store.users.bumpSessionEpoch(user.id);
      assert.equal((await store.users.findById(user.id))?.sessionEpoch, 1);
      await store.users.bumpSessionEpoch(user.id);
      assert.equal((await store.users.findById(user.id))?.sessionEpoch, 2);
      await store.users.bumpSessionEpoch('no-such-id');
    });

    it('stores unicode and SQL metacharacters verbatim and finds them again', async () => {
      const name = "'; DROP TABLE users; --";
      const tricky = await store.users.create({
        provider: 'builtin',
        username: name,
        email: `"quoted\\"@example.org`,
        displayName: 'Robert"); DELETE FROM api_keys; --',
        groups: ["o'brien", '%_\\', '"g"'],
      });
      assert.equal((await store.users.findBuiltinByLogin(name))?.username, name);
      assert.deepEqual(await store.users.findById(tricky.id), tricky);
      assert.equal(await store.users.findBuiltinByLogin('%'), undefined);
      assert.equal(await store.users.findBuiltinByLogin("' OR '1'='1"), undefined);

      const unicode = await store.users.create({
        provider: 'builtin',
        username: 'Ünïcödé-名前-🦊',
        email: 'ÉLODIE@exemple.fr',
        displayName: 'Ünï 🦊',
        groups: ['équipe', '開発'],
      });
      assert.deepEqual(await store.users.findBuiltinByLogin('ünïcödé-名前-🦊'), unicode);
      assert.deepEqual(await store.users.findBuiltinByLogin('ÜNÏCÖDÉ-名前-🦊'), unicode);
      assert.deepEqual(await store.users.findBuiltinByEmail('élodie@EXEMPLE.fr'), unicode);
      await assert.rejects(
        store.users.create({ provider: 'builtin', username: 'üNÏCÖdé-名前-🦊' }),
        isViolationOf('username'),
      );
      const external = await store.users.upsertExternal('oauth', "sub'; --", {
        username: '名前',
        email: null,
        displayName: null,
        groups: [],
      });
      assert.equal((await store.users.findBySubject('oauth', "sub'; --"))?.id, external.id);
      assert.ok((await store.users.count()) > 0);
    });

    it('lists users by creation then id, in pages, and counts them all', async () => {
      const all = await store.users.list({ limit: 1000, offset: 0 });
      assert.equal(all.length, await store.users.count());
      assert.ok(all.length >= 10);
      const sorted = [...all].sort(
        (a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      );
      assert.deepEqual(
        all.map((u) => u.id),
        sorted.map((u) => u.id),
      );
      const page = await store.users.list({ limit: 3, offset: 2 });
      assert.deepEqual(page, all.slice(2, 5));
      assert.deepEqual(await store.users.list({ limit: 5, offset: all.length }), []);
    });

    it('keeps API keys: found by id, listed newest first without revoked ones, counted when active', async () => {
      const owner = await store.users.create({ provider: 'builtin', username: 'key-owner' });
      const stranger = await store.users.create({ provider: 'builtin', username: 'key-stranger' });
      const key = (id: string, userId: string, createdAt: number, expiresAt: number | null) => ({
        id,
        userId,
        name: `key ${id}`,
        prefix: `pdk_${id}`,
        secretHash: `hash-${id}`,
        createdAt,
        expiresAt,
      });
      const k1 = await store.apiKeys.create(key('k1', owner.id, 1000, null));
      const k2 = await store.apiKeys.create(key('k2', owner.id, 2000, 2500));
      const k3 = await store.apiKeys.create(key('k3', owner.id, 3000, null));
      const s1 = await store.apiKeys.create(key('s1', stranger.id, 1500, null));
      assert.deepEqual(k2, {
        ...key('k2', owner.id, 2000, 2500),
        lastUsedAt: null,
        revokedAt: null,
      });
      assert.deepEqual(await store.apiKeys.findById('k2'), k2);
      assert.equal(await store.apiKeys.findById('nope'), undefined);

      assert.deepEqual(
        (await store.apiKeys.listByUser(owner.id)).map((k) => k.id),
        ['k3', 'k2', 'k1'],
      );
      assert.deepEqual(
        (await store.apiKeys.listAll({ limit: 10, offset: 0 })).map((k) => k.id),
        ['k3', 'k2', 's1', 'k1'],
      );
      assert.deepEqual(
        (await store.apiKeys.listAll({ limit: 2, offset: 1 })).map((k) => k.id),
        ['k2', 's1'],
      );
      assert.equal(await store.apiKeys.countActiveByUser(owner.id, 2499), 3);
      assert.equal(await store.apiKeys.countActiveByUser(owner.id, 2500), 2);

      // Someone else's key is not revoked in the owner's name.
      assert.equal(await store.apiKeys.revoke('k3', 4000, stranger.id), false);
      assert.equal((await store.apiKeys.findById('k3'))?.revokedAt, null);
      assert.equal(await store.apiKeys.revoke('k3', 4000, owner.id), true);
      assert.equal(await store.apiKeys.revoke('k3', 4001, owner.id), false);
      assert.deepEqual(await store.apiKeys.findById('k3'), { ...k3, revokedAt: 4000 });
      assert.equal(await store.apiKeys.revoke('s1', 4002), true);
      assert.equal(await store.apiKeys.revoke('s1', 4003), false);
      assert.equal(await store.apiKeys.revoke('nope', 4004), false);

      assert.deepEqual(
        (await store.apiKeys.listByUser(owner.id)).map((k) => k.id),
        ['k2', 'k1'],
      );
      assert.deepEqual(await store.apiKeys.listByUser(stranger.id), []);
      assert.deepEqual(
        (await store.apiKeys.listAll({ limit: 10, offset: 0 })).map((k) => k.id),
        ['k2', 'k1'],
      );
      assert.equal(await store.apiKeys.countActiveByUser(owner.id, 2000), 2);
      assert.equal(await store.apiKeys.countActiveByUser(owner.id, 3000), 1);
      assert.equal(await store.apiKeys.countActiveByUser(stranger.id, 2000), 0);

      await store.apiKeys.touch('k1', 5000);
      assert.deepEqual(await store.apiKeys.findById('k1'), { ...k1, lastUsedAt: 5000 });
      await store.apiKeys.touch('k1', 6000);
      assert.equal((await store.apiKeys.findById('k1'))?.lastUsedAt, 6000);
      assert.equal(s1.userId, stranger.id);
    });

    it('consumes a token once, for its purpose, before it expires', async () => {
      const user = await store.users.create({ provider: 'builtin', username: 'token-user' });
      await store.tokens.create({
        purpose: 'reset',
        hash: 'h-reset',
        userId: user.id,
        expiresAt: 2000,
        createdAt: 1000,
      });
      assert.equal(await store.tokens.consume('verify', 'h-reset', 1500), undefined);
      assert.equal(await store.tokens.consume('reset', 'h-reset', 2000), undefined);
      assert.equal(await store.tokens.consume('reset', 'unknown', 1500), undefined);
      assert.equal(await store.tokens.consume('reset', 'h-reset', 1999), user.id);
      assert.equal(await store.tokens.consume('reset', 'h-reset', 1999), undefined);
    });

    it('lets exactly one of two concurrent consumers of a token have it', async () => {
      const user = await store.users.create({ provider: 'builtin', username: 'race-user' });
      const hashes = Array.from({ length: 20 }, (_, i) => `race-${i}`);
      for (const hash of hashes) {
        await store.tokens.create({
          purpose: 'verify',
          hash,
          userId: user.id,
          expiresAt: 10_000,
          createdAt: 1000,
        });
      }
      const outcomes = await Promise.all(
        hashes.map((hash) =>
          Promise.all([
            store.tokens.consume('verify', hash, 5000),
            other.tokens.consume('verify', hash, 5000),
          ]),
        ),
      );
      for (const pair of outcomes) {
        assert.deepEqual(
          pair.filter((id) => id !== undefined),
          [user.id],
        );
      }
    });

    it("revokes a user's unused tokens of one purpose and leaves the rest", async () => {
      const user = await store.users.create({ provider: 'builtin', username: 'revoke-user' });
      const someoneElse = await store.users.create({ provider: 'builtin', username: 'keeper' });
      const make = (hash: string, purpose: 'reset' | 'verify', userId: string) =>
        store.tokens.create({ purpose, hash, userId, expiresAt: 9000, createdAt: 1000 });
      await make('r1', 'reset', user.id);
      await make('r2', 'reset', user.id);
      await make('v1', 'verify', user.id);
      await make('r3', 'reset', someoneElse.id);
      await store.tokens.revokeForUser('reset', user.id, 2000);
      assert.equal(await store.tokens.consume('reset', 'r1', 3000), undefined);
      assert.equal(await store.tokens.consume('reset', 'r2', 3000), undefined);
      assert.equal(await store.tokens.consume('verify', 'v1', 3000), user.id);
      assert.equal(await store.tokens.consume('reset', 'r3', 3000), someoneElse.id);
    });

    it('counts login failures to a lock, which lapses and restarts the count from zero', async () => {
      const key = 'user:ivan';
      const max = 3;
      const lockout = 1000;
      assert.equal(await store.loginFailures.lockedUntil(key, 1000), null);
      assert.equal(await store.loginFailures.recordFailure(key, 1000, max, lockout), null);
      assert.equal(await store.loginFailures.recordFailure(key, 1001, max, lockout), null);
      assert.equal(await store.loginFailures.lockedUntil(key, 1001), null);
      assert.equal(await store.loginFailures.recordFailure(key, 1002, max, lockout), 2002);
      assert.equal(await store.loginFailures.lockedUntil(key, 1500), 2002);
      assert.equal(await other.loginFailures.lockedUntil(key, 2001), 2002);
      assert.equal(await store.loginFailures.lockedUntil(key, 2002), null);

      // The lock lapsed: it takes max failures again to lock.
      assert.equal(await store.loginFailures.recordFailure(key, 3000, max, lockout), null);
      assert.equal(await store.loginFailures.recordFailure(key, 3001, max, lockout), null);
      assert.equal(await store.loginFailures.recordFailure(key, 3002, max, lockout), 4002);
      assert.equal(await store.loginFailures.lockedUntil(key, 3500), 4002);
      assert.equal(await store.loginFailures.lockedUntil('user:someone-else', 3500), null);
    });

    it('forgets the failures of a key on reset', async () => {
      const key = 'ip:203.0.113.7';
      await store.loginFailures.recordFailure(key, 1000, 2, 1000);
      assert.equal(await store.loginFailures.recordFailure(key, 1001, 2, 1000), 2001);
      await store.loginFailures.reset(key);
      assert.equal(await store.loginFailures.lockedUntil(key, 1500), null);
      assert.equal(await store.loginFailures.recordFailure(key, 1600, 2, 1000), null);
      assert.equal(await store.loginFailures.recordFailure(key, 1601, 2, 1000), 2601);
      await store.loginFailures.reset('never-seen');
    });

    it('loses no failure when several are recorded at once', async () => {
      const key = 'user:concurrent';
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          (i % 2 === 0 ? store : other).loginFailures.recordFailure(key, 1000, 6, 500),
        ),
      );
      assert.deepEqual(
        results.filter((r) => r !== null),
        [1500],
      );
      assert.equal(await store.loginFailures.lockedUntil(key, 1000), 1500);
    });

    it('records revoked sessions until they would have expired, seen from another connection', async () => {
      const user = await store.users.create({ provider: 'builtin', username: 'logs-out' });
      await store.revokedSessions.revoke('sid-1', user.id, 5_000, 1_000);
      await store.revokedSessions.revoke('sid-1', user.id, 5_000, 1_000);
      assert.equal(await other.revokedSessions.isRevoked('sid-1'), true);
      assert.equal(await other.revokedSessions.isRevoked('sid-2'), false);
      // A later revocation prunes the rows of sessions that have expired since.
      await store.revokedSessions.revoke('sid-2', user.id, 9_000, 6_000);
      assert.equal(await other.revokedSessions.isRevoked('sid-1'), false);
      assert.equal(await other.revokedSessions.isRevoked('sid-2'), true);
    });

    it('stamps when a provider last vouched for an external user’s groups, and whether for its e-mail', async () => {
      const profile = { username: 'gina', email: 'gina@example.org', displayName: null };
      const seen = await store.users.upsertExternal(
        'oauth',
        'sub-gina',
        { ...profile, groups: ['a'] },
        1_000,
      );
      assert.equal(seen.groupsSeenAt, 1_000);
      assert.equal(seen.emailVerified, false);
      const again = await other.users.upsertExternal(
        'oauth',
        'sub-gina',
        { ...profile, groups: ['a'], emailVerified: true },
        2_000,
      );
      assert.equal(again.groupsSeenAt, 2_000);
      assert.equal(again.emailVerified, true);
      const builtin = await store.users.create({ provider: 'builtin', username: 'gina' });
      assert.equal(builtin.groupsSeenAt, null);
    });

    it('doubles each lock in a row up to the maximum, forgets them after a quiet spell', async () => {
      const key = 'user:backoff|src:203.0.113.9';
      const backoff = { maxLockoutMs: 350, memoryMs: 10_000 };
      const lock = async (at: number) => {
        assert.equal(await store.loginFailures.recordFailure(key, at, 2, 100, backoff), null);
        return store.loginFailures.recordFailure(key, at, 2, 100, backoff);
      };
      assert.equal(await lock(1_000), 1_100);
      assert.equal(await lock(2_000), 2_200);
      assert.equal(await lock(3_000), 3_350, 'capped at the maximum');
      assert.equal(await lock(4_000), 4_350);
      assert.equal(await lock(20_000), 20_100, 'forgotten after memoryMs without a failure');
    });

    it('forgets every count of an account at once, and nothing of other accounts', async () => {
      for (const key of [
        'user:a_1',
        'attack:user:a_1',
        'user:a_1|src:1.2.3.4',
        'user:a_10|src:1.2.3.4',
        'user:ab1|src:x',
      ]) {
        await store.loginFailures.recordFailure(key, 1_000, 1, 10_000);
      }
      await store.loginFailures.resetAccount('user:a_1');
      const locked = async (key: string) =>
        (await store.loginFailures.lockedUntil(key, 1_000)) !== null;
      assert.deepEqual(
        await Promise.all(['user:a_1', 'attack:user:a_1', 'user:a_1|src:1.2.3.4'].map(locked)),
        [false, false, false],
      );
      assert.deepEqual(await Promise.all(['user:a_10|src:1.2.3.4', 'user:ab1|src:x'].map(locked)), [
        true,
        true,
      ]);
    });

    it('tells when the newest usable token of a user was issued', async () => {
      const user = await store.users.create({ provider: 'builtin', username: 'mailed' });
      assert.equal(await store.tokens.newestUsable('reset', user.id, 1_000), null);
      await store.tokens.create({
        purpose: 'reset',
        hash: 'h-1',
        userId: user.id,
        createdAt: 1_000,
        expiresAt: 5_000,
      });
      await store.tokens.create({
        purpose: 'reset',
        hash: 'h-2',
        userId: user.id,
        createdAt: 2_000,
        expiresAt: 3_000,
      });
      assert.equal(await store.tokens.newestUsable('reset', user.id, 2_500), 2_000);
      assert.equal(await store.tokens.newestUsable('reset', user.id, 3_000), 1_000, 'h-2 expired');
      assert.equal(await store.tokens.newestUsable('verify', user.id, 2_500), null);
    });

    it('keeps its data when reopened, without running the migrations again', async () => {
      const first = await openStore(options);
      const kept = await first.users.create({ provider: 'builtin', username: 'persistent' });
      await first.close();
      // Were the migrations to run again, creating the tables that exist would fail here.
      const reopened = await openStore(options);
      try {
        assert.deepEqual(await reopened.users.findById(kept.id), kept);
        assert.equal(await reopened.users.count(), await store.users.count());
      } finally {
        await reopened.close();
      }
    });
  });
}
