import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  API_KEY_PREFIX,
  apiKeySigningKey,
  mintApiKey,
  verifyApiKeySignature,
} from '../src/auth/apikeys/format.js';
import { presentedCredential } from '../src/auth/identity.js';
import { can, PERMISSIONS } from '../src/auth/permissions.js';
import { parseGroups, proxyProfile, trustedPeers } from '../src/auth/proxy.js';
import { safeReturnTo } from '../src/auth/return-to.js';
import { resolveRole } from '../src/auth/roles.js';
import {
  joinChunks,
  MAX_COOKIE_CHUNKS,
  PKCE_TTL_MS,
  sealSession,
  sessionKey,
  splitIntoChunks,
  unsealSession,
  type SessionData,
  type SessionKey,
} from '../src/auth/session.js';
import { checkEmail, checkPassword, checkUsername } from '../src/builtin/validation.js';
import { passesOriginCheck } from '../src/http/security.js';

describe('role resolution', () => {
  const mapping = { adminGroups: ['ops', 'root'], editorGroups: ['dev', 'ops'] };
  const cases: Array<[string[], string]> = [
    [['ops'], 'admin'], // in both lists: the first match (admin) wins
    [['dev', 'root'], 'admin'],
    [['dev'], 'editor'],
    [['qa'], 'viewer'],
    [[], 'viewer'],
    [['OPS'], 'viewer'], // groups compare exactly
  ];
  for (const [groups, role] of cases) {
    it(`gives ${JSON.stringify(groups)} the role ${role}`, () => {
      assert.equal(resolveRole(groups, mapping), role);
    });
  }
});

describe('the permission table', () => {
  it('matches the specification row by row, and the door’s rows', () => {
    const expected: Record<string, [boolean, boolean, boolean]> = {
      viewAgents: [true, true, true],
      viewLogs: [true, true, true],
      viewMetrics: [true, true, true],
      scaleAgents: [false, true, true],
      createAgents: [false, true, true],
      deleteAgents: [false, true, true],
      modifyPrompts: [false, true, true],
      modifyTools: [false, true, true],
      manageOwnApiKeys: [true, true, true],
      manageAllApiKeys: [false, false, true],
      viewAllUsers: [false, false, true],
      // Beyond the specification: the door into agent workspaces (decision 0022).
      viewFiles: [true, true, true],
      useTerminal: [false, true, true],
      useMcp: [false, true, true],
      // The agent loop's runs through the door: viewers read them, editors also start and cancel.
      viewRuns: [true, true, true],
      startRuns: [false, true, true],
      // Beyond the specification: creating Workspaces from the dashboard, for its admins.
      createWorkspaces: [false, false, true],
    };
    assert.deepEqual(Object.keys(PERMISSIONS).sort(), Object.keys(expected).sort());
    for (const [action, [viewer, editor, admin]] of Object.entries(expected)) {
      const a = action as keyof typeof PERMISSIONS;
      assert.deepEqual(
        [can('viewer', a), can('editor', a), can('admin', a)],
        [viewer, editor, admin],
        action,
      );
    }
  });
});

describe('returnTo', () => {
  it('keeps same-origin relative paths with their query and fragment', () => {
    for (const path of ['/', '/workspaces/alpha', '/a?b=c#d', '/caf%C3%A9']) {
      assert.equal(safeReturnTo(path), path);
    }
  });

  it('refuses everything that could leave the origin', () => {
    for (const value of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example',
      'http:evil.example',
      'javascript:alert(1)',
      '/\t/evil.example',
      '/\n/evil.example',
      'evil',
      '',
      42,
      undefined,
      `/${'a'.repeat(5000)}`,
    ]) {
      assert.equal(safeReturnTo(value), '/', String(value));
    }
  });
});

describe('API key format', () => {
  const key = apiKeySigningKey('k'.repeat(40));
  const other = apiKeySigningKey('o'.repeat(40));

  it('mints svc_sk_ keys whose signature verifies under the same secret only', () => {
    const { key: minted, parts } = mintApiKey(
      '2b1c0f3e-0000-4000-8000-000000000001',
      1_700_000_000_000,
      key,
    );
    assert.ok(minted.startsWith(API_KEY_PREFIX));
    assert.deepEqual(verifyApiKeySignature(minted, key), parts);
    assert.equal(verifyApiKeySignature(minted, other), undefined);
  });

  it('refuses tampered, truncated, padded and foreign strings', () => {
    const { key: minted } = mintApiKey('user-1', 1_700_000_000_000, key);
    const data = Buffer.from(minted.slice(API_KEY_PREFIX.length), 'base64url').toString();
    const [id, , created, secret, sig] = data.split('.');
    const forged = `${API_KEY_PREFIX}${Buffer.from(`${id}.admin-user.${created}.${secret}.${sig}`).toString('base64url')}`;
    for (const bad of [
      forged,
      minted.slice(0, -2),
      `${minted}AA`,
      `${API_KEY_PREFIX}`,
      `${API_KEY_PREFIX}not-base64!`,
      `${API_KEY_PREFIX}${Buffer.from('a.b.c').toString('base64url')}`,
      `${API_KEY_PREFIX}${'A'.repeat(600)}`,
      'svc_pk_whatever',
    ]) {
      assert.equal(verifyApiKeySignature(bad, key), undefined, bad.slice(0, 40));
    }
  });
});

describe('presented credentials', () => {
  it('tells API keys, JWTs, nothing and malformed headers apart', () => {
    assert.deepEqual(presentedCredential({}), { kind: 'none' });
    assert.deepEqual(presentedCredential({ 'x-api-key': 'svc_sk_abc' }), {
      kind: 'api-key',
      key: 'svc_sk_abc',
    });
    assert.deepEqual(presentedCredential({ authorization: 'Bearer svc_sk_abc' }), {
      kind: 'api-key',
      key: 'svc_sk_abc',
    });
    assert.deepEqual(presentedCredential({ authorization: 'bearer aaa.bbb.ccc' }), {
      kind: 'jwt',
      token: 'aaa.bbb.ccc',
    });
    for (const headers of [
      { authorization: 'Basic dXNlcjpwYXNz' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer svc_not_a_key' },
      { authorization: `Bearer ${'a'.repeat(20_000)}` },
      { authorization: 'Bearer svc_sk_a', 'x-api-key': 'svc_sk_b' },
      { 'x-api-key': '' },
      { 'x-api-key': ['svc_sk_a', 'svc_sk_b'] },
    ]) {
      assert.equal(
        presentedCredential(headers).kind,
        'malformed',
        JSON.stringify(headers).slice(0, 60),
      );
    }
  });
});

describe('session cookies', () => {
  let key: SessionKey;
  before(async () => {
    key = await sessionKey('s'.repeat(40));
  });
  const user = {
    id: 'u1',
    username: 'alice',
    groups: ['dev'],
    role: 'editor' as const,
    provider: 'builtin' as const,
  };

  it('round-trips the session data and refuses it after the TTL, under another secret or tampered', async () => {
    const now = 1_800_000_000_000;
    const data: SessionData = { user, createdAt: now, epoch: 3 };
    const sealed = await sealSession(data, key);
    assert.deepEqual(await unsealSession(sealed, key, now + 1000, 60), data);
    assert.equal(await unsealSession(sealed, key, now + 60_000, 60), undefined, 'expired');
    assert.equal(
      await unsealSession(sealed, await sessionKey('t'.repeat(40)), now, 60),
      undefined,
      'foreign',
    );
    const tampered = sealed.slice(0, -5) + (sealed.endsWith('A') ? 'B' : 'A') + sealed.slice(-4);
    assert.equal(await unsealSession(tampered, key, now, 60), undefined, 'tampered');
    assert.equal(await unsealSession('garbage', key, now, 60), undefined, 'garbage');
  });

  it('gives a sign-in in progress (only pkce) ten minutes', async () => {
    const now = 1_800_000_000_000;
    const pkce = { codeVerifier: 'v', codeChallenge: 'c', state: 's' };
    const sealed = await sealSession({ createdAt: now, pkce }, key);
    assert.ok(await unsealSession(sealed, key, now + PKCE_TTL_MS - 1, 86_400));
    assert.equal(await unsealSession(sealed, key, now + PKCE_TTL_MS, 86_400), undefined);
  });

  it('splits a large session into chunks and joins them back', async () => {
    const groups = Array.from({ length: 200 }, (_, i) => `group-with-a-long-name-${i}`);
    const sealed = await sealSession({ user: { ...user, groups }, createdAt: 1 }, key);
    const chunks = splitIntoChunks(sealed)!;
    assert.ok(chunks.length > 1 && chunks.length <= MAX_COOKIE_CHUNKS);
    const cookies = Object.fromEntries(
      chunks.map((c, i) => [i === 0 ? 'svc_session' : `svc_session.${i}`, c]),
    );
    assert.equal(joinChunks('svc_session', cookies), sealed);
    assert.equal(splitIntoChunks('x'.repeat(3800 * MAX_COOKIE_CHUNKS + 1)), undefined);
  });
});

describe('proxy identity', () => {
  const names = {
    user: 'X-Forwarded-User',
    email: 'X-Forwarded-Email',
    groups: 'X-Forwarded-Groups',
    displayName: 'X-Forwarded-Preferred-Username',
  };

  it('reads the user, e-mail, display name and comma-separated groups', () => {
    assert.deepEqual(
      proxyProfile(
        [
          'X-Forwarded-User',
          'alice',
          'X-Forwarded-Email',
          'Alice@Example.com',
          'x-forwarded-groups',
          ' dev, ops ,,dev',
          'X-Forwarded-Preferred-Username',
          'Alice A.',
        ],
        names,
      ),
      {
        username: 'alice',
        email: 'alice@example.com',
        displayName: 'Alice A.',
        groups: ['dev', 'ops'],
      },
    );
    assert.equal(proxyProfile(['X-Forwarded-Email', 'a@b.c'], names), undefined);
    assert.equal(proxyProfile(['X-Forwarded-User', '   '], names), undefined);
  });

  it('bounds the groups it takes', () => {
    const many = Array.from({ length: 5000 }, (_, i) => `g${i}`).join(',');
    assert.equal(parseGroups(many).length, 1000);
    assert.deepEqual(parseGroups(`ok,${'x'.repeat(300)}`), ['ok']);
  });

  it('trusts every peer without a list, and only listed addresses and ranges with one', () => {
    assert.ok(trustedPeers([])('203.0.113.9'));
    const trusted = trustedPeers(['10.0.0.0/8', '192.0.2.7', 'fd00::/8']);
    assert.ok(trusted('10.1.2.3'));
    assert.ok(trusted('::ffff:10.1.2.3'));
    assert.ok(trusted('192.0.2.7'));
    assert.ok(trusted('fd00::1'));
    assert.ok(!trusted('192.0.2.8'));
    assert.ok(!trusted('127.0.0.1'));
    assert.ok(!trusted(undefined));
  });
});

describe('the cross-site check of state-changing requests', () => {
  const allowedOrigins = ['https://dash.example'];
  const base = {
    origin: undefined,
    referer: undefined,
    hasCredentialHeader: false,
    hasSessionCookie: true,
    allowedOrigins,
  };

  it('lets same-origin requests and header credentials through, and refuses the rest', () => {
    assert.ok(passesOriginCheck({ ...base, origin: 'https://dash.example' }));
    assert.ok(passesOriginCheck({ ...base, referer: 'https://dash.example/settings' }));
    assert.ok(
      passesOriginCheck({ ...base, origin: 'https://evil.example', hasCredentialHeader: true }),
    );
    assert.ok(passesOriginCheck({ ...base, hasSessionCookie: false }));
    assert.ok(!passesOriginCheck({ ...base, origin: 'https://evil.example' }));
    assert.ok(!passesOriginCheck({ ...base, origin: 'null' }));
    assert.ok(!passesOriginCheck({ ...base, referer: 'https://evil.example/x' }));
    assert.ok(!passesOriginCheck({ ...base, referer: 'not a url' }));
    assert.ok(!passesOriginCheck(base), 'a cookie without Origin or Referer');
    assert.ok(
      !passesOriginCheck({ ...base, hasSessionCookie: false, origin: 'https://evil.example' }),
    );
  });
});

describe('builtin input checks', () => {
  it('takes unicode usernames and refuses malformed or overlong ones', () => {
    assert.deepEqual(checkUsername('Zoë'), { ok: true, value: 'Zoë' });
    assert.deepEqual(checkUsername('名前'), { ok: true, value: '名前' });
    for (const bad of [
      'a',
      'x'.repeat(65),
      'has space',
      'a@b',
      "'; DROP TABLE users; --",
      '-lead',
      '',
      7,
    ]) {
      assert.equal(checkUsername(bad).ok, false, String(bad));
    }
  });

  it('lower-cases e-mail addresses and refuses what is not one', () => {
    assert.deepEqual(checkEmail('Alice@Example.COM'), { ok: true, value: 'alice@example.com' });
    for (const bad of ['alice', 'a@b', `${'a'.repeat(250)}@b.cd`, 'a b@c.de', null]) {
      assert.equal(checkEmail(bad).ok, false, String(bad));
    }
  });

  it('says a short password is too short, and refuses an absurdly long one otherwise', () => {
    assert.deepEqual(checkPassword('1234567', 8), {
      ok: false,
      tooShort: true,
      message: 'password must be at least 8 characters',
    });
    assert.equal(checkPassword('12345678', 8).ok, true);
    const long = checkPassword('x'.repeat(2000), 8);
    assert.equal(long.ok, false);
    assert.equal(!long.ok && long.tooShort, false);
  });
});
