import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { startDashboard, type RunningDashboard } from '@paddock/testing';
import type { User } from '../../src/auth/user.js';

/** Header lines as sent, in order; a name may repeat. Values are strings of UTF-8 text. */
type HeaderLines = Array<[string, string]>;

interface RawAnswer {
  status: number;
  body: { user?: User; error?: string; message?: string };
}

/** The bytes of a text in UTF-8, as the one-byte-per-character string node:http writes out. */
const utf8Bytes = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * GET /api/auth/me with exactly these header lines, repeated names included (fetch would merge
 * them), their values sent as UTF-8 bytes unless given as raw bytes.
 */
function me(base: string, lines: HeaderLines, raw: HeaderLines = []): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // As raw lines (the array form), so that repeated names and spellings go out as given.
    // node:http adds no Host header to lines given this way.
    const headers = [
      'Host',
      new URL(base).host,
      ...lines.flatMap(([name, value]) => [name, utf8Bytes(value)]),
      ...raw.flat(),
    ];
    const req = request(`${base}/api/auth/me`, { method: 'GET', headers });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as RawAnswer['body'],
        }),
      );
    });
    req.end();
  });
}

let dashboard: RunningDashboard;

before(async () => {
  dashboard = await startDashboard({
    SVC_AUTH_MODE: 'proxy',
    SVC_AUTH_ROLE_ADMIN_GROUPS: 'platform,équipe-données',
    SVC_AUTH_ROLE_EDITOR_GROUPS: 'dev,开发者',
  });
});
after(() => dashboard?.stop());

describe('proxy mode refuses an identity header given more than once', () => {
  const duplicates: Array<[string, HeaderLines]> = [
    [
      'the groups header',
      [
        ['X-Forwarded-User', 'mallory'],
        ['X-Forwarded-Groups', 'dev'],
        ['X-Forwarded-Groups', 'platform'],
      ],
    ],
    [
      'the user header',
      [
        ['X-Forwarded-User', 'alice'],
        ['X-Forwarded-User', 'bob'],
      ],
    ],
    [
      'the e-mail header',
      [
        ['X-Forwarded-User', 'alice'],
        ['X-Forwarded-Email', 'alice@example.test'],
        ['X-Forwarded-Email', 'mallory@example.test'],
      ],
    ],
    [
      'the display-name header',
      [
        ['X-Forwarded-User', 'alice'],
        ['X-Forwarded-Preferred-Username', 'Alice'],
        ['X-Forwarded-Preferred-Username', 'Admin'],
      ],
    ],
    [
      'the groups header in two spellings',
      [
        ['X-Forwarded-User', 'mallory'],
        ['X-Forwarded-Groups', 'dev'],
        ['x-forwarded-groups', 'platform'],
      ],
    ],
    [
      'an empty second groups header',
      [
        ['X-Forwarded-User', 'mallory'],
        ['X-Forwarded-Groups', 'platform'],
        ['X-Forwarded-Groups', ''],
      ],
    ],
  ];
  for (const [what, lines] of duplicates) {
    it(`answers 400 invalid_request for ${what} twice`, async () => {
      const answer = await me(dashboard.base, lines);
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(answer.body.error, 'invalid_request');
      assert.match(answer.body.message ?? '', /more than once/);
    });
  }

  it('still takes each header given once', async () => {
    const answer = await me(dashboard.base, [
      ['X-Forwarded-User', 'carol'],
      ['X-Forwarded-Groups', 'dev, qa'],
      ['X-Other', 'a'],
      ['X-Other', 'b'],
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.user?.role, 'editor');
    assert.deepEqual(answer.body.user?.groups, ['dev', 'qa']);
  });
});

describe('proxy mode reads header values as UTF-8', () => {
  it('matches non-ASCII group names and keeps non-ASCII names intact', async () => {
    const answer = await me(dashboard.base, [
      ['X-Forwarded-User', 'jürgen'],
      ['X-Forwarded-Email', 'jürgen@example.test'],
      ['X-Forwarded-Preferred-Username', 'Jürgen Groß'],
      ['X-Forwarded-Groups', 'équipe-données, 开发者'],
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const user = answer.body.user!;
    assert.equal(user.username, 'jürgen');
    assert.equal(user.email, 'jürgen@example.test');
    assert.equal(user.displayName, 'Jürgen Groß');
    assert.deepEqual(user.groups, ['équipe-données', '开发者']);
    assert.equal(user.role, 'admin');
  });

  it('gives the editor role of a group named in another script', async () => {
    const answer = await me(dashboard.base, [
      ['X-Forwarded-User', 'li'],
      ['X-Forwarded-Groups', '开发者'],
    ]);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.user?.role, 'editor');
  });

  it('refuses bytes that are not UTF-8 with 400 invalid_request', async () => {
    // "équipe" in Latin-1: a lone 0xE9 byte.
    const answer = await me(
      dashboard.base,
      [['X-Forwarded-User', 'mallory']],
      [['X-Forwarded-Groups', '\u00e9quipe-donn\u00e9es']],
    );
    assert.equal(answer.status, 400, JSON.stringify(answer.body));
    assert.equal(answer.body.error, 'invalid_request');
    assert.match(answer.body.message ?? '', /UTF-8/);
  });
});
