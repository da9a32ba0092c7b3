import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { ed25519KeyPair } from '../../src/ssh/key-pair.js';
import WebSocket from 'ws';
import { start, tempDir } from '@paddock/testing';
import {
  createProofKeys,
  PROOF_MAX_LIFETIME_SECONDS,
  proofVerifierFrom,
  proxySecretDigest,
  signIdentityProof,
  verifyProof,
  type ProofSettings,
  type ProofVerifier,
} from '@paddock/common';
import { apiProofFor } from '../../src/api/identity-proof.js';
import { SANDBOX_BIN, startApiSandbox, type RunningApiSandbox } from '../support/sandbox.js';

const run = promisify(execFile);
const AUDIENCE = 'paddock-sandbox:team-a/web';
/** Forged subjects of the registry flood, and how many requests run at once. */
const FLOOD_SUBJECTS = 990;
const FLOOD_CONCURRENCY = 16;

const proxy = createProofKeys();
const verifier = proofVerifierFrom({
  SVC_API_PROOF_PUBLIC_KEY: proxy.publicKeyPem,
  SVC_API_PROOF_AUDIENCE: AUDIENCE,
  SVC_API_PROXY_SECRET_SHA256: undefined,
});
assert.ok('verifier' in verifier && verifier.verifier);
const tokenMode: ProofVerifier = verifier.verifier;

function proofFor(
  sub: string,
  extra: { user?: string; groups?: string[]; audience?: string; now?: Date } = {},
): Promise<string> {
  return signIdentityProof({
    privateKey: proxy.privateKey,
    audience: extra.audience ?? AUDIENCE,
    identity: { sub, user: extra.user ?? sub, groups: extra.groups ?? [] },
    now: extra.now,
  });
}

function sshPublicLine(): string {
  return ed25519KeyPair().public;
}

describe('the proof decision', () => {
  const now = new Date('2026-11-26T00:00:00Z');
  const at = (seconds: number) => new Date(now.getTime() + seconds * 1000);

  it('takes the identity from a valid token and checks the X-Forwarded headers against it', async () => {
    const token = await proofFor('alice', { user: 'Alice', groups: ['dev', 'ops'], now });
    assert.deepEqual(await verifyProof({ 'x-paddock-proof': token }, tokenMode, now), {
      ok: true,
      identity: { sub: 'alice', user: 'Alice', groups: ['dev', 'ops'] },
    });
    const same = {
      'x-paddock-proof': token,
      'x-forwarded-sub': 'alice',
      'x-forwarded-user': 'Alice',
      'x-forwarded-groups': 'dev, ops',
    };
    assert.equal((await verifyProof(same, tokenMode, now)).ok, true);
    for (const [name, value] of [
      ['x-forwarded-sub', 'bob'],
      ['x-forwarded-user', 'Bob'],
      ['x-forwarded-groups', 'dev,ops,admins'],
    ] as const) {
      const outcome = await verifyProof({ ...same, [name]: value }, tokenMode, now);
      assert.equal(outcome.ok, false, name);
      assert.match(!outcome.ok ? outcome.reason : '', /does not match the proof/);
    }
  });

  const refused: Array<[string, () => Promise<Record<string, string>>, RegExp]> = [
    ['no proof at all', () => Promise.resolve({ 'x-forwarded-sub': 'alice' }), /is required/],
    [
      'a token for another sandbox',
      async () => ({ 'x-paddock-proof': await proofFor('alice', { audience: 'other', now }) }),
      /not valid here \(aud\)/,
    ],
    [
      'an expired token (beyond the skew)',
      async () => ({ 'x-paddock-proof': await proofFor('alice', { now: at(-200) }) }),
      /expired/,
    ],
    [
      'a token from the future (beyond the skew)',
      async () => ({ 'x-paddock-proof': await proofFor('alice', { now: at(120) }) }),
      /not valid here \(iat\)/,
    ],
    [
      'a token signed by another key',
      async () => ({
        'x-paddock-proof': await signIdentityProof({
          privateKey: createProofKeys().privateKey,
          audience: AUDIENCE,
          identity: { sub: 'alice' },
          now,
        }),
      }),
      /not valid/,
    ],
    [
      'a token that claims too long a life',
      async () => ({
        'x-paddock-proof': await new SignJWT({ groups: [] })
          .setProtectedHeader({ alg: 'EdDSA' })
          .setSubject('alice')
          .setAudience(AUDIENCE)
          .setIssuedAt(Math.floor(now.getTime() / 1000))
          .setExpirationTime(Math.floor(now.getTime() / 1000) + PROOF_MAX_LIFETIME_SECONDS + 60)
          .sign(proxy.privateKey),
      }),
      /names no valid identity/,
    ],
    [
      'an HS256 token keyed with the public key',
      async () => ({
        'x-paddock-proof': await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject('alice')
          .setAudience(AUDIENCE)
          .setIssuedAt(Math.floor(now.getTime() / 1000))
          .setExpirationTime('1m')
          .sign(Buffer.from(proxy.publicKeyPem)),
      }),
      /not valid/,
    ],
    [
      'an unsigned token (alg none)',
      () => {
        const part = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
        const iat = Math.floor(now.getTime() / 1000);
        return Promise.resolve({
          'x-paddock-proof': `${part({ alg: 'none' })}.${part({ sub: 'alice', aud: AUDIENCE, iat, exp: iat + 60 })}.`,
        });
      },
      /not valid/,
    ],
  ];
  for (const [what, headers, reason] of refused) {
    it(`refuses ${what}`, async () => {
      const outcome = await verifyProof(await headers(), tokenMode, now);
      assert.equal(outcome.ok, false);
      assert.match(!outcome.ok ? outcome.reason : '', reason);
    });
  }

  it('accepts a static secret by its SHA-256 only, with the identity from the headers', async () => {
    const secret: ProofVerifier = {
      mode: 'secret',
      secretSha256: Buffer.from(proxySecretDigest('s3cret-s3cret-s3cret-s3cret-s3cret'), 'hex'),
    };
    const good = {
      'x-paddock-proof': 's3cret-s3cret-s3cret-s3cret-s3cret',
      'x-forwarded-sub': 'a',
    };
    assert.deepEqual(await verifyProof(good, secret), {
      ok: true,
      identity: { sub: 'a', user: undefined, groups: [] },
    });
    assert.equal((await verifyProof({ ...good, 'x-paddock-proof': 'guess' }, secret)).ok, false);
  });

  it('requires a proof outside dev mode and reports every configuration mistake', () => {
    const none: ProofSettings = {
      SVC_API_PROOF_PUBLIC_KEY: undefined,
      SVC_API_PROOF_AUDIENCE: undefined,
      SVC_API_PROXY_SECRET_SHA256: undefined,
    };
    assert.equal(apiProofFor(true, none), undefined);
    assert.throws(() => apiProofFor(false, none), /requires a proof of the proxy/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .publicKey.export({ type: 'spki', format: 'pem' })
      .toString();
    const cases: Array<[Partial<ProofSettings>, RegExp]> = [
      [{ SVC_API_PROOF_PUBLIC_KEY: proxy.publicKeyPem }, /AUDIENCE is required/],
      [{ SVC_API_PROOF_PUBLIC_KEY: rsa, SVC_API_PROOF_AUDIENCE: 'a' }, /Ed25519 or P-256/],
      [{ SVC_API_PROOF_AUDIENCE: 'a' }, /without SVC_API_PROOF_PUBLIC_KEY/],
      [{ SVC_API_PROXY_SECRET_SHA256: 'abc' }, /64 hex digits/],
      [
        {
          SVC_API_PROOF_PUBLIC_KEY: proxy.publicKeyPem,
          SVC_API_PROOF_AUDIENCE: 'a',
          SVC_API_PROXY_SECRET_SHA256: 'a'.repeat(64),
        },
        /exclusive/,
      ],
    ];
    for (const [settings, message] of cases) {
      assert.throws(() => apiProofFor(true, { ...none, ...settings }), message);
    }
  });
});

describe('a sandbox whose human API requires the proxy’s signed proof', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let sandbox: RunningApiSandbox;

  before(async () => {
    folder = await tempDir('paddock-identity-proof-');
    sandbox = await startApiSandbox(folder.path, ['-enable-api', '-enable-exec', '-enable-ssh'], {
      SVC_API_PROOF_PUBLIC_KEY: proxy.publicKeyPem,
      SVC_API_PROOF_AUDIENCE: AUDIENCE,
    });
  });
  after(async () => {
    await sandbox.stop();
    await folder.remove();
  });

  const keys = (headers: Record<string, string>, init: RequestInit = {}) =>
    fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, {
      ...init,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('refuses forged X-Forwarded-Sub from a process on the same host (curl), before any handler', async () => {
    const alice = { 'x-paddock-proof': await proofFor('alice') };
    const registered = await keys(alice, {
      method: 'POST',
      body: JSON.stringify({ publicKey: sshPublicLine() }),
    });
    assert.equal(registered.status, 201);
    const { id } = (await registered.json()) as { id: string };

    const url = `${sandbox.apiBase}/api/ssh-authorized-keys`;
    const list = await run('curl', [
      '-s',
      '-w',
      '\\n%{http_code}',
      '-H',
      'X-Forwarded-Sub: alice',
      url,
    ]);
    assert.match(list.stdout, /"error":"unauthorized"[^]*\n401$/);
    assert.doesNotMatch(list.stdout, new RegExp(id));
    const post = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-H',
      'X-Forwarded-Sub: alice',
      '-H',
      'content-type: application/json',
      '--data',
      JSON.stringify({ publicKey: sshPublicLine() }),
      url,
    ]);
    assert.equal(post.stdout, '401');
    const del = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '-X',
      'DELETE',
      '-H',
      'X-Forwarded-Sub: alice',
      `${url}/${id}`,
    ]);
    assert.equal(del.stdout, '401');
    // Alice's key is still hers, and only hers.
    const mine = (await (await keys(alice)).json()) as { keys: { id: string }[] };
    assert.deepEqual(
      mine.keys.map((k) => k.id),
      [id],
    );
  });

  it('refuses a valid proof of one user carrying another user’s X-Forwarded-Sub', async () => {
    const res = await keys({
      'x-paddock-proof': await proofFor('bob'),
      'x-forwarded-sub': 'alice',
    });
    assert.equal(res.status, 401);
    assert.match(
      ((await res.json()) as { message: string }).message,
      /X-Forwarded-Sub does not match/,
    );
  });

  it('refuses a WebSocket upgrade without a proof before the handshake', async () => {
    const ws = new WebSocket(`${sandbox.apiBase.replace(/^http/, 'ws')}/api/exec`, {
      headers: { 'x-forwarded-sub': 'alice' },
    });
    const status = await new Promise<number>((resolve, reject) => {
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('the upgrade was accepted')));
      ws.once('error', () => {});
    });
    ws.terminate();
    assert.equal(status, 401);
  });

  it(`keeps the key registry for real users while ${FLOOD_SUBJECTS} forged subjects flood it`, async () => {
    const lines = Array.from({ length: FLOOD_SUBJECTS }, sshPublicLine);
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: FLOOD_CONCURRENCY }, async () => {
        while (next < lines.length) {
          const i = next++;
          const res = await keys(
            { 'x-forwarded-sub': `forged-${i}` },
            { method: 'POST', body: JSON.stringify({ publicKey: lines[i] }) },
          );
          await res.body?.cancel();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    assert.deepEqual([...statuses], [[401, FLOOD_SUBJECTS]]);
    const carol = await keys(
      { 'x-paddock-proof': await proofFor('carol') },
      { method: 'POST', body: JSON.stringify({ publicKey: sshPublicLine() }) },
    );
    assert.equal(carol.status, 201);
  });
});

describe('the default outside dev mode', () => {
  it('refuses to start a human API that has no proof configured, in one clear line', async () => {
    const folder = await tempDir('paddock-identity-default-');
    try {
      const child = start(process.execPath, [
        SANDBOX_BIN,
        '-addr',
        '127.0.0.1:0',
        '-api-addr',
        '127.0.0.1:0',
        '-enable-ssh',
        '-workspace',
        folder.path,
      ]);
      const { code } = await child.exited;
      assert.equal(code, 2);
      assert.match(child.output(), /the human API \(-api-addr\) requires a proof of the proxy/);
    } finally {
      await folder.remove();
    }
  });
});
