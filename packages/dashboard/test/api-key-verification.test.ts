import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { apiKeySigningKey, sha256Hex } from '../src/auth/apikeys/format.js';
import {
  ApiKeys,
  LAST_USED_RESOLUTION_MS,
  REVOCATION_BOUND_MS,
} from '../src/auth/apikeys/service.js';
import { storeWithOwner } from './support/store-with-owner.js';

// The service over a real SQLite store, on a clock the tests set: what a key string remembered as
// genuine may skip (its signature and secret), and what it may not (revocation, expiry, last use).

const DAY_MS = 86_400_000;
const T0 = Date.UTC(2026, 0, 1);
const signingKey = apiKeySigningKey('verification-test-secret-of-32-characters');
const policy = { maxPerUser: 100, defaultExpirationDays: 0 };

const owned = storeWithOwner('paddock-api-key-verification-');

/** The key string with the character at `index` replaced by another base64url character. */
function altered(key: string, index: number): string {
  const swapped = key[index] === 'A' ? 'B' : 'A';
  return key.slice(0, index) + swapped + key.slice(index + 1);
}

describe('API key verification', () => {
  it('takes the same key again from memory, and refuses an altered copy of it', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await keys.create(owned.ownerId, { name: 'ci' }, T0);
    assert.equal((await keys.verify(key, T0))?.id, record.id);
    assert.equal((await keys.verify(key, T0 + 1))?.id, record.id, 'again, now remembered');
    for (const index of [10, Math.floor(key.length / 2), key.length - 2]) {
      assert.equal(await keys.verify(altered(key, index), T0 + 2), undefined, `index ${index}`);
    }
    assert.equal(await keys.verify(`${key}A`, T0 + 3), undefined, 'a longer string');
    assert.equal(await keys.verify(key.slice(0, -1), T0 + 3), undefined, 'a shorter string');
  });

  it('refuses a key on the very next request once this process revoked it', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await keys.create(owned.ownerId, { name: 'revoked-here' }, T0);
    assert.ok(await keys.verify(key, T0));
    assert.ok(await keys.verify(key, T0));
    assert.equal(await keys.revoke(record.id, T0), true);
    assert.equal(await keys.verify(key, T0), undefined, 'no time passes between the two');
  });

  it('refuses a key revoked by another replica once the bound has passed, however busy it is', async () => {
    const here = new ApiKeys(owned.store, signingKey, policy);
    const there = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await here.create(owned.ownerId, { name: 'revoked-there' }, T0);
    assert.ok(await here.verify(key, T0));
    assert.equal(await there.revoke(record.id, T0 + 1), true);
    // Used without pause meanwhile: use never extends the bound.
    for (let t = T0 + 1; t < T0 + REVOCATION_BOUND_MS; t += REVOCATION_BOUND_MS / 10) {
      await here.verify(key, t);
    }
    assert.equal(await here.verify(key, T0 + REVOCATION_BOUND_MS), undefined);
  });

  it('refuses a remembered key from the moment it expires', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key } = await keys.create(owned.ownerId, { name: 'short', expiresInDays: 1 }, T0);
    const expiresAt = T0 + DAY_MS;
    assert.ok(await keys.verify(key, T0));
    assert.ok(await keys.verify(key, expiresAt - 1));
    assert.equal(await keys.verify(key, expiresAt), undefined);
  });

  it('records the last use in the store, at most once per resolution', async () => {
    const keys = new ApiKeys(owned.store, signingKey, policy);
    const { key, record } = await keys.create(owned.ownerId, { name: 'busy' }, T0);
    const lastUsed = async () => (await owned.store.apiKeys.findById(record.id))?.lastUsedAt;
    assert.equal(await lastUsed(), null);
    await keys.verify(key, T0 + 5);
    assert.equal(await lastUsed(), T0 + 5);
    await keys.verify(key, T0 + 5 + LAST_USED_RESOLUTION_MS - 1);
    assert.equal(await lastUsed(), T0 + 5, 'not written again within the resolution');
    await keys.verify(key, T0 + 5 + LAST_USED_RESOLUTION_MS);
    assert.equal(await lastUsed(), T0 + 5 + LAST_USED_RESOLUTION_MS);
  });
});

describe('sha256Hex', () => {
  it('is SHA-256 in hex', () => {
    for (const text of ['', 'abc', 'svc_sk_é✓', 'x'.repeat(1000)]) {
      assert.equal(sha256Hex(text), createHash('sha256').update(text).digest('hex'));
    }
    assert.equal(
      sha256Hex('abc'),
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
  });
});
