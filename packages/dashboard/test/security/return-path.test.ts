import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  DEFAULT_RETURN_PATH,
  MAX_RETURN_PATH_CHARS,
  MAX_RETURN_PATH_DECODES,
  safeReturnPath,
} from '@paddock/common';
import {
  Client,
  startOAuthDashboard,
  type OAuthDashboard,
  type RunningDashboard,
  type RunningOidcProvider,
} from '@paddock/testing';
import { safeReturnTo } from '../../src/auth/return-to.js';

/** Values that would send a browser to another host, at once or after one more decoding. */
const ATTACKS: unknown[] = [
  '//evil.example',
  '///evil.example',
  '/\\evil.example',
  '\\/evil.example',
  'https://evil.example',
  'http:evil.example',
  'HTTPS://evil.example/',
  'javascript:alert(1)',
  'data:text/html,evil',
  'evil.example',
  ' /evil',
  // Browsers drop tab and newline from URLs: these are `//evil.example` to them.
  '/\t/evil.example',
  '/\n/evil.example',
  '/\r\n/evil.example',
  '/\u0000/evil.example',
  '/\u007f/evil.example',
  // The same, percent-encoded once, twice or more.
  '/%09/evil.example',
  '/%0a/evil.example',
  '/%0D%0A/evil.example',
  '/%2F/evil.example',
  '/%2f%2fevil.example',
  '/%5Cevil.example',
  '/%5cevil.example',
  '/%252F%252Fevil.example',
  '/%25252F%25252Fevil.example',
  '/%2525252F%2525252Fevil.example',
  '%2F%2Fevil.example',
  // Dot segments that a browser resolves into `//evil.example`.
  '/.//evil.example',
  '/./\\evil.example',
  '/%2e//evil.example',
  '/%2E%2E//evil.example',
  '/a/..//evil.example',
  '/a/b/../..//evil.example',
  '/..//evil.example',
  // Not strings, empty, too long.
  '',
  42,
  null,
  undefined,
  ['/a'],
  { toString: () => '/a' },
  `/${'a'.repeat(MAX_RETURN_PATH_CHARS)}`,
];

/** Paths of the dashboard, and the form the browser is sent to. */
const KEPT: Array<[string, string]> = [
  ['/', '/'],
  ['/workspaces/alpha', '/workspaces/alpha'],
  ['/workspaces/alpha/agents/a?tab=logs#end', '/workspaces/alpha/agents/a?tab=logs#end'],
  ['/a?b=c#d', '/a?b=c#d'],
  ['/caf%C3%A9', '/caf%C3%A9'],
  ['/café', '/caf%C3%A9'],
  ['/search?q=a%2Fb', '/search?q=a%2Fb'],
  ['/search?q=%2F%2F', '/search?q=%2F%2F'],
  ['/files/100%25', '/files/100%25'],
  ['/a b', '/a%20b'],
  ['/a/./b', '/a/b'],
  ['/a/../b', '/b'],
  ['/.hidden', '/.hidden'],
  [`/${'a'.repeat(MAX_RETURN_PATH_CHARS - 1)}`, `/${'a'.repeat(MAX_RETURN_PATH_CHARS - 1)}`],
];

describe('the return path after sign-in (one function for the server and the web interface)', () => {
  for (const attack of ATTACKS) {
    it(`refuses ${JSON.stringify(attack) ?? String(attack)}`, () => {
      assert.equal(safeReturnPath(attack), DEFAULT_RETURN_PATH);
    });
  }

  for (const [path, expected] of KEPT) {
    it(`keeps ${JSON.stringify(path.length > 60 ? `${path.slice(0, 20)}…` : path)}`, () => {
      assert.equal(safeReturnPath(path), expected);
    });
  }

  it('answers a path that is final: a second pass changes nothing and it stays on the origin', () => {
    const inputs = [...ATTACKS, ...KEPT.map(([path]) => path)];
    for (const input of inputs) {
      const once = safeReturnPath(input);
      assert.equal(safeReturnPath(once), once, JSON.stringify(input));
      assert.match(once, /^\/(?![/\\])/, JSON.stringify(input));
      // eslint-disable-next-line no-control-regex
      assert.doesNotMatch(once, /[\u0000-\u001f\u007f\\]/, JSON.stringify(input));
      const resolved = new URL(once, 'https://paddock.example');
      assert.equal(resolved.origin, 'https://paddock.example', JSON.stringify(input));
    }
  });

  it(`looks through ${MAX_RETURN_PATH_DECODES} rounds of percent-encoding and refuses deeper ones`, () => {
    let hidden = '%2F%2Fevil.example';
    for (let round = 1; round < MAX_RETURN_PATH_DECODES + 3; round++) {
      assert.equal(safeReturnPath(`/${hidden}`), DEFAULT_RETURN_PATH, `${round} rounds`);
      hidden = hidden.replace(/%/g, '%25');
    }
  });

  it('is what the dashboard’s server uses', () => {
    for (const input of [...ATTACKS, ...KEPT.map(([path]) => path)]) {
      assert.equal(safeReturnTo(input), safeReturnPath(input), JSON.stringify(input));
    }
  });
});

describe('the OAuth callback sends the browser only to a path of the dashboard', () => {
  let oauth: OAuthDashboard;
  let op: RunningOidcProvider;
  let dashboard: RunningDashboard;
  before(async () => {
    oauth = await startOAuthDashboard({
      alice: { preferred_username: 'alice', email: 'alice@example.test' },
    });
    ({ op, dashboard } = oauth);
  });
  after(async () => {
    await oauth?.stop();
  });

  const cases: Array<[string, string]> = [
    ['/.//evil.example', '/'],
    ['/%2e//evil.example', '/'],
    ['/a/..//evil.example', '/'],
    ['/\t/evil.example', '/'],
    ['/%09/evil.example', '/'],
    ['/%5Cevil.example', '/'],
    ['/workspaces/alpha?tab=agents', '/workspaces/alpha?tab=agents'],
  ];
  for (const [returnTo, expected] of cases) {
    it(`returns to ${expected} for returnTo=${JSON.stringify(returnTo)}`, async () => {
      const client = new Client(dashboard.base);
      const login = await client.get(`/api/auth/login?returnTo=${encodeURIComponent(returnTo)}`);
      assert.equal(login.status, 302);
      const back = await op.signIn(login.headers.get('location')!, 'alice');
      const answer = await client.get(`${back.pathname}${back.search}`);
      assert.equal(answer.status, 302);
      assert.equal(answer.headers.get('location'), expected);
    });
  }
});
