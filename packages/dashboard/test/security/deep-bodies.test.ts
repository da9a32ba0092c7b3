import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_VERSION,
  CORE_KINDS,
  KINDS,
  installCrds,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import {
  ADMIN_PASSWORD,
  Client,
  errorOf,
  eventually,
  startDashboard,
  startEmbeddedCluster,
  startOperator,
  type Answer,
  type EmbeddedCluster,
  type RunningDashboard,
  type Started,
} from '@paddock/testing';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../src/http/json-depth.js';

/** The depth of the attack: ten thousand nested arrays. */
const ATTACK_DEPTH = 10_000;

/** `{"<key>": [[[…]]]}`, an object (depth 1) around arrays nested to `depth` in all. */
function nested(key: string, depth: number, inner = '[]'): string {
  const arrays = depth - 2;
  return `{"${key}":${'['.repeat(arrays)}${inner}${']'.repeat(arrays)}}`;
}

function assertTooDeep(answer: Answer, what: string): void {
  assert.equal(answer.status, 400, `${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  assert.equal(errorOf(answer), 'invalid_request', what);
  const message = (answer.body as { message: string }).message;
  assert.match(message, new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`), what);
}

let cluster: EmbeddedCluster;
let operator: Started;
let proxy: RunningDashboard;
let builtin: RunningDashboard;

/** An editor of the workspace "deep", as the authenticating proxy names them. */
const editor = () =>
  new Client(proxy.base, { 'x-forwarded-user': 'dev', 'x-forwarded-groups': 'devs' });

before(async () => {
  cluster = await startEmbeddedCluster();
  await installCrds(cluster.kube);
  await cluster.kube
    .resource<KubeObject>(CORE_KINDS.namespace)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paddock-system' } });
  operator = await startOperator(cluster.kubeconfig);
  [proxy, builtin] = await Promise.all([
    startDashboard({
      KUBECONFIG: cluster.kubeconfig,
      SVC_AUTH_MODE: 'proxy',
      SVC_AUTH_ROLE_EDITOR_GROUPS: 'devs',
    }),
    startDashboard({ SVC_AUTH_MODE: 'builtin' }),
  ]);
  const workspaces = cluster.kube.resource<Workspace>(KINDS.find((k) => k.kind === 'Workspace')!);
  await workspaces.create({
    apiVersion: API_VERSION,
    kind: 'Workspace',
    metadata: { name: 'deep' },
    spec: {
      displayName: 'Deep',
      namespace: { name: 'ns-deep', create: true },
      roleBindings: [{ groups: ['devs'], role: 'editor' }],
    },
  });
  await eventually('workspace deep usable through the dashboard', async () => {
    const answer = await editor().get('/api/workspaces/deep/toolregistries');
    return answer.status === 200 ? true : undefined;
  });
});

after(async () => {
  await Promise.all([proxy, builtin].map((d) => d?.stop()));
  await operator?.stop();
  await cluster?.stop();
});

describe(`a JSON body nested deeper than ${MAX_JSON_DEPTH} levels is refused at the edge`, () => {
  it('refuses a 10,000-deep ToolRegistry spec with 400, not a 503 from the cluster', async () => {
    const body = `{"spec":${nested('handlers', ATTACK_DEPTH - 1)}}`;
    const answer = await editor().request('PUT', '/api/workspaces/deep/toolregistries/deep', {
      body,
      headers: { 'content-type': 'application/json' },
    });
    assertTooDeep(answer, 'PUT toolregistry');
    const listed = await editor().get('/api/workspaces/deep/toolregistries');
    assert.deepEqual((listed.body as { toolRegistries: unknown[] }).toolRegistries, []);
  });

  it('refuses it on every route that takes JSON, in objects and arrays alike', async () => {
    const routes: Array<[Client, string, string]> = [
      [editor(), 'PUT', '/api/workspaces/deep/promptpacks/p'],
      [editor(), 'POST', '/api/workspaces/deep/agents'],
      [editor(), 'PATCH', '/api/workspaces/deep/agents/a'],
      [editor(), 'PUT', '/api/workspaces/deep/access'],
      [editor(), 'POST', '/api/workspaces/deep/toolregistries/r/tools/t/call'],
      [editor(), 'POST', '/api/settings/api-keys'],
      [new Client(builtin.base), 'POST', '/api/auth/builtin/login'],
      [new Client(builtin.base), 'POST', '/api/auth/builtin/signup'],
      [new Client(builtin.base), 'POST', '/api/auth/builtin/forgot-password'],
    ];
    const bodies = [
      nested('name', ATTACK_DEPTH),
      nested('name', ATTACK_DEPTH, '{}').replace(/\[/g, '{"a":').replace(/\]/g, '}'),
      `[${nested('name', ATTACK_DEPTH - 1)}]`,
      nested('name', MAX_JSON_DEPTH + 1),
    ];
    for (const [client, method, path] of routes) {
      for (const body of bodies) {
        const answer = await client.request(method, path, {
          body,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
        assertTooDeep(answer, `${method} ${path} (${body.length} characters)`);
      }
    }
  });

  it(`still takes a body nested exactly ${MAX_JSON_DEPTH} levels, and brackets inside strings`, async () => {
    const client = new Client(builtin.base);
    const deepest = nested('username', MAX_JSON_DEPTH).replace(/\}$/, ',"password":"x"}');
    const answer = await client.request('POST', '/api/auth/builtin/login', {
      body: deepest,
      headers: { 'content-type': 'application/json' },
    });
    // Parsed, then judged by the route: not a sign-in, but not refused for its depth either.
    assert.notEqual(answer.status, 500);
    assert.doesNotMatch(JSON.stringify(answer.body), /nested deeper/);
    const inStrings = await client.post('/api/auth/builtin/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
      note: '['.repeat(ATTACK_DEPTH),
    });
    assert.equal(inStrings.status, 200, JSON.stringify(inStrings.body));
  });
});

describe('the depth of a JSON text, counted before parsing', () => {
  const table: Array<[string, number, boolean]> = [
    ['{}', 1, false],
    ['{}', 0, true],
    ['[[]]', 2, false],
    ['[[]]', 1, true],
    ['{"a":{"b":[1,2,{"c":3}]}}', 4, false],
    ['{"a":{"b":[1,2,{"c":3}]}}', 3, true],
    ['[[],[],[],[]]', 2, false],
    ['"[[[[[["', 1, false],
    [String.raw`{"a":"\\"}`, 1, false],
    [String.raw`{"a":"\\","b":[[]]}`, 2, true],
    [String.raw`{"a":"\"[[[["}`, 1, false],
    ['{"[":"]","{":"}"}', 1, false],
    ['42', 0, false],
    ['', 0, false],
    [`${'['.repeat(ATTACK_DEPTH)}${']'.repeat(ATTACK_DEPTH)}`, MAX_JSON_DEPTH, true],
    [`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`, MAX_JSON_DEPTH, false],
    // Unbalanced text is the parser's to refuse; the count still stops at the limit.
    [`${'['.repeat(MAX_JSON_DEPTH + 1)}`, MAX_JSON_DEPTH, true],
    // Closers first: not JSON, so the parser refuses it; valid JSON never closes more than it opened.
    [`${']'.repeat(100)}[[`, 1, false],
  ];
  for (const [text, limit, deeper] of table) {
    const shown = text.length > 40 ? `${text.slice(0, 20)}… (${text.length})` : text;
    it(`${JSON.stringify(shown)} ${deeper ? 'nests deeper than' : 'stays within'} ${limit}`, () => {
      assert.equal(nestsDeeperThan(text, limit), deeper);
    });
  }
});
