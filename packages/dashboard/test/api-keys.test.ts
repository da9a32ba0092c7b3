import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ApiKeyView } from '../src/auth/apikeys/service.js';
import {
  ADMIN_PASSWORD,
  Client,
  errorOf,
  startDashboard,
  type RunningDashboard,
} from '@paddock/testing';

type KeyView = ApiKeyView;

const MAX_KEYS = 4;
let dashboard: RunningDashboard;
let admin: Client;
let member: Client;
let memberId: string;

before(async () => {
  dashboard = await startDashboard({
    SVC_AUTH_MODE: 'builtin',
    SVC_BUILTIN_ALLOW_SIGNUP: 'true',
    SVC_AUTH_API_KEYS_MAX_PER_USER: String(MAX_KEYS),
  });
  admin = new Client(dashboard.base);
  assert.equal(
    (await admin.post('/api/auth/builtin/login', { username: 'admin', password: ADMIN_PASSWORD }))
      .status,
    200,
  );
  member = new Client(dashboard.base);
  const signup = await member.post('/api/auth/builtin/signup', {
    username: 'keyholder',
    email: 'keyholder@example.com',
    password: 'keyholder-password',
  });
  assert.equal(signup.status, 201);
  memberId = (signup.body as { user: { id: string } }).user.id;
});
after(() => dashboard.stop());

async function createKey(client: Client, body: Record<string, unknown>) {
  const answer = await client.post('/api/settings/api-keys', body);
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
  return answer.body as { key: string; apiKey: KeyView };
}

const withKey = (key: string) => new Client(dashboard.base, { authorization: `Bearer ${key}` });

describe('API keys', () => {
  it('shows a new key once, lists only its prefix, and authenticates as its owner by Bearer or X-API-Key', async () => {
    const { key, apiKey } = await createKey(member, { name: 'ci' });
    assert.match(key, /^svc_sk_[A-Za-z0-9_-]+$/);
    assert.equal(apiKey.name, 'ci');
    assert.ok(key.startsWith(apiKey.prefix) && apiKey.prefix.length < key.length / 2);
    const days = (Date.parse(apiKey.expires!) - Date.parse(apiKey.created)) / 86_400_000;
    assert.equal(Math.round(days), 90, 'SVC_AUTH_API_KEYS_DEFAULT_EXPIRATION');
    const listed = (await member.get('/api/settings/api-keys')).body as { keys: KeyView[] };
    assert.ok(listed.keys.some((k) => k.id === apiKey.id));
    assert.ok(!JSON.stringify(listed).includes(key), 'the key itself is never listed');

    for (const client of [withKey(key), new Client(dashboard.base, { 'x-api-key': key })]) {
      const me = await client.get('/api/auth/me');
      assert.equal(me.status, 200);
      const { user } = me.body as { user: { id: string; provider: string; role: string } };
      assert.deepEqual([user.id, user.provider, user.role], [memberId, 'api-key', 'viewer']);
    }
    const used = (await member.get('/api/settings/api-keys')).body as { keys: KeyView[] };
    assert.ok(used.keys.find((k) => k.id === apiKey.id)!.lastUsed !== null, 'last use recorded');
  });

  it('acts with the owner’s current role', async () => {
    const { key } = await createKey(member, { name: 'role-follower', expiresInDays: 0 });
    const patched = await admin.request('PATCH', `/api/users/${memberId}`, {
      json: { role: 'editor' },
    });
    assert.equal(patched.status, 200);
    const me = (await withKey(key).get('/api/auth/me')).body as { user: { role: string } };
    assert.equal(me.user.role, 'editor');
    await admin.request('PATCH', `/api/users/${memberId}`, { json: { role: null } });
    const back = (await withKey(key).get('/api/auth/me')).body as { user: { role: string } };
    assert.equal(back.user.role, 'viewer');
  });

  it('cannot create keys with a key', async () => {
    const { key } = await createKey(member, { name: 'no-minting' });
    const minted = await withKey(key).post('/api/settings/api-keys', { name: 'child' });
    assert.equal(minted.status, 403);
    assert.equal(errorOf(minted), 'forbidden');
  });

  it('enforces the number of keys per user', async () => {
    const other = new Client(dashboard.base);
    await other.post('/api/auth/builtin/signup', {
      username: 'collector',
      email: 'collector@example.com',
      password: 'collector-password',
    });
    for (let i = 0; i < MAX_KEYS; i++) await createKey(other, { name: `k${i}` });
    const over = await other.post('/api/settings/api-keys', { name: 'one too many' });
    assert.equal(over.status, 409);
    assert.equal(errorOf(over), 'api_key_limit_reached');
  });

  it('refuses a revoked key, and forged, tampered or malformed ones, with 401', async () => {
    const { key, apiKey } = await createKey(admin, { name: 'to revoke' });
    assert.equal((await withKey(key).get('/api/auth/me')).status, 200);
    const revoked = await admin.request('DELETE', `/api/settings/api-keys/${apiKey.id}`);
    assert.equal(revoked.status, 200);
    assert.equal(
      (await admin.request('DELETE', `/api/settings/api-keys/${apiKey.id}`)).status,
      404,
    );
    const data = Buffer.from(key.slice(7), 'base64url').toString().split('.');
    const forgedOwner = `svc_sk_${Buffer.from([data[0], memberId, ...data.slice(2)].join('.')).toString('base64url')}`;
    for (const bad of [
      key,
      `${key.slice(0, -4)}AAAA`,
      forgedOwner,
      'svc_sk_',
      `svc_sk_${'A'.repeat(100)}`,
    ]) {
      const me = await withKey(bad).get('/api/auth/me');
      assert.equal(me.status, 401, bad.slice(0, 30));
      assert.equal(errorOf(me), 'unauthorized');
    }
  });

  it('validates the name and the expiry', async () => {
    for (const body of [
      {},
      { name: '' },
      { name: 'x'.repeat(101) },
      { name: 'ok', expiresInDays: -1 },
      { name: 'ok', expiresInDays: 1.5 },
    ]) {
      const answer = await member.post('/api/settings/api-keys', body);
      assert.equal(errorOf(answer), 'invalid_request', JSON.stringify(body));
    }
  });

  it('lets a user delete only their own keys, and an admin list and revoke everyone’s', async () => {
    const { key, apiKey } = await createKey(member, { name: 'admin will revoke' });
    assert.equal(
      (await admin.request('DELETE', `/api/settings/api-keys/${apiKey.id}`)).status,
      404,
      'not the admin’s own',
    );
    assert.equal((await member.get('/api/admin/api-keys')).status, 403);
    const all = (await admin.get('/api/admin/api-keys')).body as { keys: KeyView[] };
    assert.ok(all.keys.some((k) => k.id === apiKey.id && k.userId === memberId));
    assert.equal((await admin.request('DELETE', `/api/admin/api-keys/${apiKey.id}`)).status, 200);
    assert.equal((await withKey(key).get('/api/auth/me')).status, 401);
  });

  it('stops working when its owner is disabled', async () => {
    const owner = new Client(dashboard.base);
    const signup = await owner.post('/api/auth/builtin/signup', {
      username: 'leaver',
      email: 'leaver@example.com',
      password: 'leaver-password',
    });
    const { key } = await createKey(owner, { name: 'leaver key' });
    const id = (signup.body as { user: { id: string } }).user.id;
    await admin.request('PATCH', `/api/users/${id}`, { json: { disabled: true } });
    assert.equal((await withKey(key).get('/api/auth/me')).status, 401);
  });
});

describe('API keys when disabled by configuration', () => {
  let off: RunningDashboard;
  before(async () => {
    off = await startDashboard({ SVC_AUTH_MODE: 'anonymous', SVC_AUTH_API_KEYS_ENABLED: 'false' });
  });
  after(() => off.stop());

  it('answers a request carrying a key with 401', async () => {
    const me = await new Client(off.base, { 'x-api-key': 'svc_sk_anything' }).get('/api/auth/me');
    assert.equal(me.status, 401);
  });
});
