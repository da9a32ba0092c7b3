import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { User } from '../src/auth/user.js';
import { Client, errorOf, startDashboard, type RunningDashboard } from '@paddock/testing';

interface Me {
  user: User;
}

const asUser = (username: string, groups = '', extra: Record<string, string> = {}) => ({
  'x-forwarded-user': username,
  'x-forwarded-groups': groups,
  ...extra,
});

describe('anonymous mode', () => {
  let dashboard: RunningDashboard;
  before(async () => {
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'anonymous',
      SVC_AUTH_ANONYMOUS_ROLE: 'editor',
    });
  });
  after(() => dashboard.stop());

  it('makes every request the anonymous user with SVC_AUTH_ANONYMOUS_ROLE', async () => {
    const me = await new Client(dashboard.base).get('/api/auth/me');
    assert.equal(me.status, 200);
    assert.deepEqual((me.body as Me).user, {
      id: 'anonymous',
      username: 'anonymous',
      groups: [],
      role: 'editor',
      provider: 'anonymous',
    });
  });

  it('never lets a bogus API key fall through to the anonymous user, nor mint keys', async () => {
    const client = new Client(dashboard.base);
    const attempts: Array<Record<string, string>> = [
      { authorization: 'Bearer svc_sk_bogus' },
      { authorization: 'Bearer svc_sk_' },
      { 'x-api-key': 'svc_sk_bogus' },
      { 'x-api-key': 'not-even-prefixed' },
      { authorization: 'Bearer header.payload.signature' },
    ];
    for (const headers of attempts) {
      const me = await client.get('/api/auth/me', headers);
      assert.equal(me.status, 401, JSON.stringify(headers));
      assert.equal(errorOf(me), 'unauthorized');
      const mint = await client.post('/api/settings/api-keys', { name: 'steal' }, headers);
      assert.equal(mint.status, 401, JSON.stringify(headers));
    }
    const anonymousMint = await client.post('/api/settings/api-keys', { name: 'mine' });
    assert.equal(anonymousMint.status, 403, 'the anonymous user owns no keys');
  });
});

describe('proxy mode', () => {
  let dashboard: RunningDashboard;
  before(async () => {
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'proxy',
      SVC_AUTH_ROLE_ADMIN_GROUPS: 'platform',
      SVC_AUTH_ROLE_EDITOR_GROUPS: 'dev,platform',
    });
  });
  after(() => dashboard.stop());

  it('takes the identity from the configured headers and records the user on first sight', async () => {
    const client = new Client(dashboard.base);
    const me = await client.get(
      '/api/auth/me',
      asUser('alice', 'dev, qa', {
        'x-forwarded-email': 'Alice@Example.com',
        'x-forwarded-preferred-username': 'Alice A.',
      }),
    );
    assert.equal(me.status, 200);
    const { user } = me.body as Me;
    assert.deepEqual(
      { ...user, id: typeof user.id },
      {
        id: 'string',
        username: 'alice',
        email: 'alice@example.com',
        displayName: 'Alice A.',
        groups: ['dev', 'qa'],
        role: 'editor',
        provider: 'proxy',
      },
    );
    const again = (await client.get('/api/auth/me', asUser('alice', 'platform'))).body as Me;
    assert.equal(again.user.id, user.id, 'the same user, recorded once');
    assert.equal(again.user.role, 'admin', 'the role follows the groups of this request');
  });

  it('answers 401 without the user header, and 401 for a header credential that fails', async () => {
    const client = new Client(dashboard.base);
    assert.equal((await client.get('/api/auth/me')).status, 401);
    assert.equal(
      (await client.get('/api/auth/me', { 'x-forwarded-groups': 'platform' })).status,
      401,
    );
    const bad = await client.get('/api/auth/me', {
      ...asUser('alice', 'platform'),
      authorization: 'Bearer svc_sk_x',
    });
    assert.equal(bad.status, 401, 'a failing API key does not fall back to the proxy identity');
  });

  it('lets an admin see every user', async () => {
    const client = new Client(dashboard.base);
    await client.get('/api/auth/me', asUser('bob', 'qa'));
    const viewer = await client.get('/api/users', asUser('bob', 'qa'));
    assert.equal(viewer.status, 403);
    const list = await client.get('/api/users', asUser('root', 'platform'));
    assert.equal(list.status, 200);
    const names = (list.body as { users: Array<{ username: string; provider: string }> }).users.map(
      (u) => u.username,
    );
    assert.ok(names.includes('bob') && names.includes('root'), names.join());
  });
});

describe('proxy mode without auto sign-up, behind trusted proxies', () => {
  let closed: RunningDashboard;
  let elsewhere: RunningDashboard;
  before(async () => {
    closed = await startDashboard({
      SVC_AUTH_MODE: 'proxy',
      SVC_AUTH_PROXY_AUTO_SIGNUP: 'false',
      SVC_AUTH_ROLE_ADMIN_GROUPS: 'platform',
    });
    elsewhere = await startDashboard({
      SVC_AUTH_MODE: 'proxy',
      SVC_AUTH_PROXY_TRUSTED_ADDRESSES: '10.0.0.0/8,192.0.2.1',
    });
  });
  after(async () => {
    await closed.stop();
    await elsewhere.stop();
  });

  it('refuses an unknown user with 403, and admits admins so the first one can get in', async () => {
    const client = new Client(closed.base);
    const stranger = await client.get('/api/auth/me', asUser('mallory'));
    assert.equal(stranger.status, 403);
    assert.equal(errorOf(stranger), 'forbidden');
    assert.equal((await client.get('/api/auth/me', asUser('root', 'platform'))).status, 200);
    assert.equal((await client.get('/api/auth/me', asUser('root'))).status, 200, 'recorded now');
  });

  it('ignores identity headers from a peer that is not a trusted proxy', async () => {
    const me = await new Client(elsewhere.base).get('/api/auth/me', asUser('alice', 'platform'));
    assert.equal(me.status, 401, 'requests from 127.0.0.1 cannot assert identity');
  });
});
