import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import { allowedMethods, API_ROUTES, pathMatches, type RouteSpec } from '../src/api/routes.js';
import { DEV_IDENTITY, identityFromHeaders } from '@paddock/common';
import { as, PROOF, startApiSandbox, type RunningApiSandbox } from './support/sandbox.js';

const none = { api: false, exec: false, portForward: false, ssh: false };

describe('identity from the proxy headers', () => {
  it('reads sub, user and comma-separated groups', () => {
    assert.deepEqual(
      identityFromHeaders(
        {
          'x-forwarded-sub': ' 1234 ',
          'x-forwarded-user': 'alice',
          'x-forwarded-groups': 'dev, ops,,',
        },
        false,
      ),
      { sub: '1234', user: 'alice', groups: ['dev', 'ops'] },
    );
  });
  it('has no identity without a sub, unless dev mode supplies the placeholder', () => {
    assert.equal(identityFromHeaders({ 'x-forwarded-user': 'alice' }, false), undefined);
    assert.equal(identityFromHeaders({ 'x-forwarded-sub': '  ' }, false), undefined);
    assert.deepEqual(identityFromHeaders({}, true), DEV_IDENTITY);
    assert.deepEqual(DEV_IDENTITY, { sub: 'dev', user: 'dev', groups: [] });
  });
});

describe('the route table', () => {
  it('matches parameters and wildcards by segment', () => {
    assert.ok(pathMatches('/api/ssh-authorized-keys/:id', '/api/ssh-authorized-keys/abc'));
    assert.ok(!pathMatches('/api/ssh-authorized-keys/:id', '/api/ssh-authorized-keys/'));
    assert.ok(!pathMatches('/api/tree', '/api/tree/x'));
    assert.ok(pathMatches('/api/docs/assets/*', '/api/docs/assets/swagger-ui.css'));
  });
  it('knows which methods a path takes when its feature is on', () => {
    assert.deepEqual(allowedMethods('/api/ssh-authorized-keys', { ...none, ssh: true }), [
      'POST',
      'GET',
    ]);
    assert.deepEqual(allowedMethods('/api/ssh-authorized-keys', none), []);
    assert.deepEqual(allowedMethods('/api/openapi.yaml', none), ['GET']);
  });
});

/** A concrete request for a route of the table. */
function requestFor(route: RouteSpec): { method: string; path: string } {
  const path = route.path
    .replace(':id', '0000000000000000')
    .replace('*', route.path.startsWith('/api/docs/assets') ? 'swagger-ui.css' : '');
  return { method: route.method, path };
}

const FLAG_SETS: Array<[string, string[]]> = [
  ['no feature flags', []],
  ['-enable-api', ['-enable-api']],
  ['-enable-exec', ['-enable-exec']],
  ['-enable-port-forward', ['-enable-port-forward']],
  ['-enable-ssh', ['-enable-ssh']],
];
const FEATURE_OF_FLAG: Record<string, RouteSpec['feature']> = {
  '-enable-api': 'api',
  '-enable-exec': 'exec',
  '-enable-port-forward': 'port-forward',
  '-enable-ssh': 'ssh',
};

describe('the 401/404 matrix of flags and routes', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir();
  });
  after(() => dir.remove());

  for (const [label, flags] of FLAG_SETS) {
    describe(`with ${label}`, () => {
      let sandbox: RunningApiSandbox;
      before(async () => {
        sandbox = await startApiSandbox(dir.path, flags);
      });
      after(() => sandbox.stop());

      it('answers 401 on every route without the proxy’s proof or X-Forwarded-Sub, before anything else', async () => {
        for (const route of API_ROUTES) {
          const { method, path } = requestFor(route);
          const bare = await fetch(`${sandbox.apiBase}${path}`, {
            method,
            headers: { 'x-forwarded-sub': 'alice' },
          });
          assert.equal(bare.status, 401, `${method} ${path}`);
          assert.deepEqual(await bare.json(), {
            error: 'unauthorized',
            message:
              'a valid X-Paddock-Proof header is required: reach the sandbox through its proxy',
          });
          const res = await fetch(`${sandbox.apiBase}${path}`, { method, headers: PROOF });
          assert.equal(res.status, 401, `${method} ${path}`);
          assert.deepEqual(await res.json(), {
            error: 'unauthorized',
            message: 'the X-Forwarded-Sub header is required',
          });
        }
      });

      it('answers 404 exactly on the routes of disabled features', async () => {
        const enabled = new Set<RouteSpec['feature']>([
          'always',
          ...flags.map((f) => FEATURE_OF_FLAG[f]!),
        ]);
        for (const route of API_ROUTES) {
          const { method, path } = requestFor(route);
          const headers: Record<string, string> = { ...as('alice') };
          if (method === 'POST') headers['content-type'] = 'application/json';
          const res = await fetch(`${sandbox.apiBase}${path}`, {
            method,
            headers,
            body: method === 'POST' ? '{}' : undefined,
          });
          let body: { message?: string } = {};
          if (res.headers.get('content-type')?.includes('json'))
            body = (await res.json()) as typeof body;
          else await res.body?.cancel();
          const routed = !(res.status === 404 && (body.message ?? '').startsWith('no route for'));
          assert.equal(
            routed,
            enabled.has(route.feature),
            `${method} ${path} answered ${res.status}`,
          );
        }
      });

      it('answers a wrong method 405 with Allow on enabled routes, 404 on disabled ones', async () => {
        const res = await fetch(`${sandbox.apiBase}/api/tree`, {
          method: 'DELETE',
          headers: as('alice'),
        });
        if (flags.includes('-enable-api')) {
          assert.equal(res.status, 405);
          assert.equal(res.headers.get('allow'), 'GET');
          assert.equal(((await res.json()) as { error: string }).error, 'method_not_allowed');
        } else {
          assert.equal(res.status, 404);
        }
        const yaml = await fetch(`${sandbox.apiBase}/api/openapi.yaml`, {
          method: 'POST',
          headers: as('alice'),
        });
        assert.equal(yaml.status, 405);
      });
    });
  }

  it('uses the dev identity without headers in -dev-mode and warns loudly at start', async () => {
    const sandbox = await startApiSandbox(dir.path, ['-dev-mode']);
    try {
      const res = await fetch(`${sandbox.apiBase}/api/openapi.yaml`);
      assert.equal(res.status, 200);
      assert.match(sandbox.output(), /DEV MODE: .*Never use -dev-mode in production/);
    } finally {
      await sandbox.stop();
    }
  });
});
