import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { decodeJwt, decodeProtectedHeader, type JWK } from 'jose';
import {
  adminTokenMatches,
  adminUser,
  createTokenAuthority,
  DEFAULT_ISSUER,
  generateSigningKey,
  signingKeyFromJwk,
  signingKeyToJwk,
  userOfServiceAccount,
  type SigningKey,
} from '../src/auth/tokens.js';

const NOW = Date.parse('2030-01-02T03:04:05.678Z');
const HOUR = 3600;
const request = {
  namespace: 'ws-a',
  serviceAccountName: 'builder',
  serviceAccountUid: 'uid-1',
  expirationSeconds: HOUR,
  now: NOW,
};
const builder = {
  username: 'system:serviceaccount:ws-a:builder',
  uid: 'uid-1',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:ws-a', 'system:authenticated'],
};

let key: SigningKey;
before(async () => {
  key = await generateSigningKey();
});

describe('service account tokens', () => {
  it('verifies an issued token as its service account', async () => {
    const authority = createTokenAuthority(key);
    const { token, expirationTimestamp } = await authority.issue(request);
    assert.equal(expirationTimestamp, '2030-01-02T04:04:05Z');
    assert.deepEqual(await authority.verify(token, NOW + 1000), builder);
  });

  it("carries Kubernetes' bound token claims", async () => {
    const { token } = await createTokenAuthority(key).issue(request);
    const iat = Math.floor(NOW / 1000);
    const { jti, ...claims } = decodeJwt(token);
    assert.deepEqual(claims, {
      iss: DEFAULT_ISSUER,
      sub: 'system:serviceaccount:ws-a:builder',
      aud: [DEFAULT_ISSUER],
      iat,
      nbf: iat,
      exp: iat + HOUR,
      'kubernetes.io': { namespace: 'ws-a', serviceaccount: { name: 'builder', uid: 'uid-1' } },
    });
    assert.equal(typeof jti, 'string');
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'ES256', kid: key.keyId });
  });

  it('refuses a token once expired, and before it is valid', async () => {
    const authority = createTokenAuthority(key);
    const { token } = await authority.issue(request);
    assert.deepEqual(await authority.verify(token, NOW + (HOUR - 1) * 1000), builder);
    assert.equal(await authority.verify(token, NOW + (HOUR + 10) * 1000), undefined);
    assert.equal(await authority.verify(token, NOW - 60_000), undefined);
  });

  it('refuses a token signed with another key', async () => {
    const { token } = await createTokenAuthority(await generateSigningKey()).issue(request);
    assert.equal(await createTokenAuthority(key).verify(token, NOW), undefined);
  });

  it('refuses a tampered token', async () => {
    const authority = createTokenAuthority(key);
    const { token } = await authority.issue(request);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<
      string,
      unknown
    >;
    const forged = Buffer.from(
      JSON.stringify({ ...claims, sub: 'system:serviceaccount:kube-system:admin' }),
    ).toString('base64url');
    assert.equal(await authority.verify(`${header}.${forged}.${signature}`, NOW), undefined);
    const flipped = signature.startsWith('A') ? `B${signature.slice(1)}` : `A${signature.slice(1)}`;
    assert.equal(await authority.verify(`${header}.${payload}.${flipped}`, NOW), undefined);
    assert.equal(await authority.verify('not a token', NOW), undefined);
  });

  it('refuses a token of another issuer', async () => {
    const other = createTokenAuthority(key, { issuer: 'https://other.example' });
    const { token } = await other.issue(request);
    assert.equal(await createTokenAuthority(key).verify(token, NOW), undefined);
    assert.equal(decodeJwt(token).iss, 'https://other.example');
    assert.equal((await other.verify(token, NOW))?.username, builder.username);
  });

  it('accepts only tokens meant for the API server among their audiences', async () => {
    const authority = createTokenAuthority(key);
    const both = await authority.issue({ ...request, audiences: ['vault', DEFAULT_ISSUER] });
    assert.deepEqual(decodeJwt(both.token).aud, ['vault', DEFAULT_ISSUER]);
    assert.deepEqual(await authority.verify(both.token, NOW), builder);
    const vaultOnly = await authority.issue({ ...request, audiences: ['vault'] });
    assert.equal(await authority.verify(vaultOnly.token, NOW), undefined);
    const vault = createTokenAuthority(key, { apiAudiences: ['vault'] });
    assert.deepEqual(await vault.verify(vaultOnly.token, NOW), builder);
  });

  it('refuses the token of a deleted or recreated service account', async () => {
    const accounts = new Map([['ws-a/builder', 'uid-1']]);
    const live = (namespace: string, name: string, uid: string) =>
      accounts.get(`${namespace}/${name}`) === uid;
    const authority = createTokenAuthority(key, { isServiceAccountLive: live });
    const { token } = await authority.issue(request);
    assert.deepEqual(await authority.verify(token, NOW), builder);
    accounts.set('ws-a/builder', 'uid-2');
    assert.equal(await authority.verify(token, NOW), undefined);
    accounts.delete('ws-a/builder');
    assert.equal(await authority.verify(token, NOW), undefined);
    assert.deepEqual(await authority.verify(token, NOW, () => true), builder);
    assert.equal(await createTokenAuthority(key).verify(token, NOW, () => false), undefined);
  });

  it('keeps tokens valid across a restart through the stored JWK', async () => {
    const original = createTokenAuthority(key);
    const { token } = await original.issue(request);
    const stored = JSON.stringify(await signingKeyToJwk(key));
    const restored = await signingKeyFromJwk(JSON.parse(stored) as JWK);
    assert.equal(restored.keyId, key.keyId);
    const restarted = createTokenAuthority(restored);
    assert.deepEqual(await restarted.verify(token, NOW), builder);
    const issuedAfter = await restarted.issue(request);
    assert.deepEqual(await original.verify(issuedAfter.token, NOW), builder);
  });

  it('refuses to load a key that cannot sign', async () => {
    const { d: _private, ...publicOnly } = await signingKeyToJwk(key);
    await assert.rejects(signingKeyFromJwk(publicOnly), /private P-256 EC JWK/);
    await assert.rejects(signingKeyFromJwk({ kty: 'oct', k: 'c2VjcmV0' }), /private P-256 EC JWK/);
  });
});

describe('users', () => {
  it('gives a service account its Kubernetes groups', () => {
    assert.deepEqual(userOfServiceAccount('ws-a', 'builder', 'uid-1'), builder);
  });

  it('puts the admin in system:masters', () => {
    assert.deepEqual(adminUser(), {
      username: 'admin',
      groups: ['system:masters', 'system:authenticated'],
    });
  });
});

describe('admin token', () => {
  const expected = 'a-long-random-admin-token';
  const cases: [string, string | undefined, string, boolean][] = [
    ['the same token', expected, expected, true],
    ['another token of the same length', 'b-long-random-admin-token', expected, false],
    ['a prefix of the token', 'a-long', expected, false],
    ['a longer token', `${expected}x`, expected, false],
    ['no token', undefined, expected, false],
    ['an empty token when none is configured', '', '', false],
  ];
  for (const [name, given, configured, matches] of cases) {
    it(`${matches ? 'accepts' : 'refuses'} ${name}`, () => {
      assert.equal(adminTokenMatches(given, configured), matches);
    });
  }
});
