import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, errorOf } from '@paddock/testing';
import { startInProcess, type InProcessDashboard } from './support/in-process.js';

/** What a request whose parameters or body miss its route's schema is answered. */
describe('a request that does not match its route’s schema', () => {
  let dashboard: InProcessDashboard;
  let client: Client;
  before(async () => {
    // Anonymous mode, everyone an admin: every route is reached without signing in.
    dashboard = await startInProcess({
      SVC_AUTH_MODE: 'anonymous',
      SVC_AUTH_ANONYMOUS_ROLE: 'admin',
    });
    client = new Client(dashboard.base);
  });
  after(() => dashboard.stop());

  const refused: Array<[string, string, unknown, string]> = [
    [
      'a query parameter above its maximum',
      'GET /api/users?limit=5000',
      undefined,
      'querystring.limit must be ≤ 1000',
    ],
    [
      'a query parameter that is no number',
      'GET /api/admin/api-keys?offset=many',
      undefined,
      'querystring.offset must be an integer',
    ],
    [
      'a body field of the wrong type',
      'POST /api/settings/api-keys',
      { name: 7 },
      'body.name must be a string',
    ],
    ['a missing body field', 'POST /api/settings/api-keys', {}, 'body.name is required'],
    [
      'an unknown body field',
      'PATCH /api/users/someone',
      { password: 'x' },
      'body has an unknown field "password"',
    ],
    [
      'a value outside an enumeration',
      'PATCH /api/users/someone',
      { role: 'owner' },
      'body.role must be',
    ],
    [
      'a body that is not an object',
      'PATCH /api/users/someone',
      ['role'],
      'body must be an object',
    ],
    [
      'a path parameter that is no object name',
      'GET /api/workspaces/team/agents/Not_A_Name',
      undefined,
      'params.agentName must match',
    ],
  ];
  for (const [what, request, json, sentence] of refused) {
    it(`answers 400 invalid_request naming the field: ${what}`, async () => {
      const [method, url] = request.split(' ') as [string, string];
      const answer = await client.request(method, url, json === undefined ? {} : { json });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(errorOf(answer), 'invalid_request');
      const { message } = answer.body as { message: string };
      assert.ok(message.startsWith(sentence), `${message} starts with ${sentence}`);
    });
  }

  describe('in builtin mode', () => {
    let builtin: InProcessDashboard;
    before(async () => {
      builtin = await startInProcess({ SVC_AUTH_MODE: 'builtin' });
    });
    after(() => builtin.stop());

    it('keeps the codes the specification gives some input, past the schema', async () => {
      // The password is checked before the token, so a short one is password_too_short even
      // without a token: the schema leaves both to the accounts.
      const reset = await new Client(builtin.base).post('/api/auth/builtin/reset-password', {
        password: 'x',
      });
      assert.equal(reset.status, 400);
      assert.equal(errorOf(reset), 'password_too_short');
    });

    it('authenticates before it checks: a caller without a credential learns nothing of the contract', async () => {
      const answer = await new Client(builtin.base).post('/api/settings/api-keys', { name: 7 });
      assert.equal(answer.status, 401);
      assert.equal(errorOf(answer), 'unauthorized');
    });
  });
});
