import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client,
  errorOf,
  startOAuthDashboard,
  type Answer,
  type OAuthDashboard,
  type RunningDashboard,
  type RunningOidcProvider,
} from '@paddock/testing';
import type { User } from '../../src/auth/user.js';
import { callbackMatchesPendingLogin } from '../../src/oauth/login.js';

const ACCOUNTS = {
  alice: { preferred_username: 'alice', email: 'alice@example.test' },
  bob: { preferred_username: 'bob', email: 'bob@example.test' },
};

/** Callbacks any site can send a signed-in browser to with a link. */
const FORGED = [
  '/api/auth/callback?state=forged',
  '/api/auth/callback?code=forged-code&state=forged',
  '/api/auth/callback?error=access_denied&state=forged',
  '/api/auth/callback?error=server_error',
  '/api/auth/callback?code=forged-code',
  '/api/auth/callback',
  '/api/auth/callback?state=a&state=b',
];

let oauth: OAuthDashboard;
let op: RunningOidcProvider;
let dashboard: RunningDashboard;

before(async () => {
  oauth = await startOAuthDashboard(ACCOUNTS);
  ({ op, dashboard } = oauth);
});
after(async () => {
  await oauth?.stop();
});

/** Starts a sign-in; the provider's authorization URL. */
async function startLogin(client: Client): Promise<string> {
  const answer = await client.get('/api/auth/login');
  assert.equal(answer.status, 302);
  return answer.headers.get('location')!;
}

async function callback(client: Client, url: URL): Promise<Answer> {
  return client.get(`${url.pathname}${url.search}`);
}

async function signedIn(account: string): Promise<Client> {
  const client = new Client(dashboard.base);
  const answer = await callback(client, await op.signIn(await startLogin(client), account));
  assert.equal(answer.status, 302);
  assert.equal(answer.headers.get('location'), '/');
  return client;
}

async function whoIs(client: Client): Promise<string | undefined> {
  const me = await client.get('/api/auth/me');
  return me.status === 200 ? (me.body as { user: User }).user.username : errorOf(me);
}

function assertRefusedUntouched(answer: Answer, path: string): void {
  assert.equal(answer.status, 302, path);
  assert.equal(answer.headers.get('location'), '/login?error=invalid_state', path);
  assert.deepEqual(answer.cookies, [], `${path} must not touch the session cookie`);
}

describe('a callback that is not the one of this browser’s sign-in changes nothing', () => {
  for (const path of FORGED) {
    it(`keeps the signed-in user through ${path}`, async () => {
      const client = await signedIn('alice');
      assertRefusedUntouched(await client.get(path), path);
      assert.equal(await whoIs(client), 'alice');
    });
  }

  it('keeps a sign-in in progress, which still completes after a forged callback', async () => {
    const client = new Client(dashboard.base);
    const authorizationUrl = await startLogin(client);
    for (const path of FORGED) assertRefusedUntouched(await client.get(path), path);
    const answer = await callback(client, await op.signIn(authorizationUrl, 'bob'));
    assert.equal(answer.status, 302);
    assert.equal(answer.headers.get('location'), '/');
    assert.equal(await whoIs(client), 'bob');
  });

  it('keeps the signed-in user when another site links to the sign-in itself', async () => {
    const client = await signedIn('alice');
    await startLogin(client);
    assert.equal(await whoIs(client), 'alice');
    // And a forged callback after that changes nothing either.
    assertRefusedUntouched(await client.get(FORGED[0]!), FORGED[0]!);
    assert.equal(await whoIs(client), 'alice');
  });

  it('lets the callback of the sign-in in progress replace the signed-in user', async () => {
    const client = await signedIn('alice');
    const answer = await callback(client, await op.signIn(await startLogin(client), 'bob'));
    assert.equal(answer.status, 302);
    assert.equal(await whoIs(client), 'bob');
  });

  it('ends only the sign-in in progress when its own callback fails, not the session before it', async () => {
    const client = await signedIn('alice');
    const denied = await callback(client, await op.deny(await startLogin(client)));
    assert.equal(denied.status, 302);
    assert.equal(denied.headers.get('location'), '/login?error=access_denied');
    assert.equal(await whoIs(client), 'alice');
    // The finished sign-in cannot be completed again.
    assertRefusedUntouched(await client.get(FORGED[0]!), FORGED[0]!);
  });
});

describe('which callback belongs to the pending sign-in', () => {
  const pending = { state: 'state-0123456789' };
  const table: Array<[unknown, { state: string } | undefined, boolean]> = [
    ['state-0123456789', pending, true],
    ['state-0123456788', pending, false],
    ['state-012345678', pending, false],
    ['state-0123456789 ', pending, false],
    ['STATE-0123456789', pending, false],
    ['', pending, false],
    [undefined, pending, false],
    [['state-0123456789', 'state-0123456789'], pending, false],
    ['state-0123456789', undefined, false],
    ['forged', undefined, false],
  ];
  for (const [state, expected, matches] of table) {
    it(`${matches ? 'takes' : 'refuses'} state ${JSON.stringify(state)} with ${expected ? 'a sign-in' : 'none'} pending`, () => {
      assert.equal(callbackMatchesPendingLogin(state, expected), matches);
    });
  }
});
