import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '@paddock/common';
import { Client, freePort, SESSION_SECRET, tempDir } from '@paddock/testing';
import { dashboardContext } from '../../src/assemble.js';
import { EXTERNAL_GROUPS_MAX_AGE_MS, keyGroups } from '../../src/auth/external-groups.js';
import { loadDashboardConfig } from '../../src/config.js';
import { createDashboardApp, type DashboardApp } from '../../src/http/app.js';
import { withUserCache } from '../../src/store/cached-users.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/types.js';

/** The dashboard's clock in this suite: moved by the tests, never by waiting. */
let clock = Date.UTC(2026, 0, 1);
let dashboard: DashboardApp;
let store: Store;
let removeDir: () => Promise<void>;
let base: string;

/** A proxy-mode dashboard on a real socket and a real SQLite file, with an injected clock. */
before(async () => {
  const dir = await tempDir('paddock-external-keys-');
  removeDir = dir.remove;
  const port = await freePort();
  const config = loadDashboardConfig(
    {
      SVC_AUTH_MODE: 'proxy',
      SVC_LISTEN_ADDR: `127.0.0.1:${port}`,
      SVC_SESSION_SECRET: SESSION_SECRET,
      SVC_AUTH_ROLE_ADMIN_GROUPS: 'admins',
      SVC_AUTH_ROLE_EDITOR_GROUPS: 'devs',
    },
    { randomSecret: () => SESSION_SECRET },
  );
  store = withUserCache(await openStore({ kind: 'sqlite', path: join(dir.path, 'users.db') }));
  const ctx = dashboardContext(config, { store, logger: silentLogger() });
  ctx.now = () => clock;
  dashboard = await createDashboardApp(ctx);
  base = await dashboard.app.listen({ host: '127.0.0.1', port });
});
after(async () => {
  await dashboard?.app.close();
  await store?.close();
  await removeDir?.();
});

const viaProxy = (groups: string) =>
  new Client(base, { 'x-forwarded-user': 'ops-lead', 'x-forwarded-groups': groups });

async function roleOf(client: Client): Promise<{ role: string; groups: string[] }> {
  const answer = await client.get('/api/auth/me');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return (answer.body as { user: { role: string; groups: string[] } }).user;
}

describe('API keys of proxy users', () => {
  it('lose the groups of a user who is no longer seen, and follow the groups of the latest sign-in', async () => {
    const admin = viaProxy('admins');
    assert.equal((await roleOf(admin)).role, 'admin');
    const created = await admin.post('/api/settings/api-keys', { name: 'ops-script' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const script = new Client(base, {
      authorization: `Bearer ${(created.body as { key: string }).key}`,
    });
    assert.equal((await roleOf(script)).role, 'admin', 'groups vouched for just now');

    clock += EXTERNAL_GROUPS_MAX_AGE_MS - 1_000;
    assert.equal((await roleOf(script)).role, 'admin', 'still within the maximum age');
    clock += 2_000;
    const stale = await roleOf(script);
    assert.deepEqual([stale.role, stale.groups], ['viewer', []], 'past it: no groups, viewer');

    // The user comes back through the proxy: the key has the groups of that sign-in again.
    assert.equal((await roleOf(admin)).role, 'admin');
    assert.equal((await roleOf(script)).role, 'admin');
    // Removed from the admin group at the identity provider: the key follows at once.
    assert.equal((await roleOf(viaProxy('devs'))).role, 'editor');
    assert.equal((await roleOf(script)).role, 'editor');
    // And a removed admin who never comes back keeps no role through the key past the age.
    assert.equal((await roleOf(viaProxy('admins'))).role, 'admin');
    clock += EXTERNAL_GROUPS_MAX_AGE_MS + 1;
    assert.equal((await roleOf(script)).role, 'viewer');
  });
});

describe('the groups an API key acts with', () => {
  const now = 10 * EXTERNAL_GROUPS_MAX_AGE_MS;
  const cases: Array<{
    name: string;
    provider: 'builtin' | 'proxy' | 'oauth';
    seenAt: number | null;
    groups: string[];
  }> = [
    {
      name: 'builtin users keep their stored groups',
      provider: 'builtin',
      seenAt: null,
      groups: ['g'],
    },
    { name: 'proxy groups seen just now count', provider: 'proxy', seenAt: now, groups: ['g'] },
    {
      name: 'oauth groups exactly at the maximum age count',
      provider: 'oauth',
      seenAt: now - EXTERNAL_GROUPS_MAX_AGE_MS,
      groups: ['g'],
    },
    {
      name: 'groups older than the maximum age do not',
      provider: 'oauth',
      seenAt: now - EXTERNAL_GROUPS_MAX_AGE_MS - 1,
      groups: [],
    },
    { name: 'groups never stamped do not', provider: 'proxy', seenAt: null, groups: [] },
  ];
  for (const { name, provider, seenAt, groups } of cases) {
    it(name, () => {
      assert.deepEqual(keyGroups({ provider, groups: ['g'], groupsSeenAt: seenAt }, now), groups);
    });
  }
});
