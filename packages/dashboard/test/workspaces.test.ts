import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_VERSION,
  CORE_KINDS,
  ForbiddenError,
  KINDS,
  installCrds,
  type AgentRuntime,
  type Kube,
  type KubeObject,
  type Workspace,
  type WorkspaceSpec,
} from '@paddock/kube';
import {
  agentPod,
  eventually,
  startEmbeddedCluster,
  startOperator,
  type EmbeddedCluster,
  type Started,
  ADMIN_PASSWORD,
  Client,
  errorOf,
  startDashboard,
  type Answer,
  type RunningDashboard,
} from '@paddock/testing';
import { RENEW_BEFORE_MS, TOKEN_SECONDS, WorkspaceTokens } from '../src/workspaces/tokens.js';

const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;

let cluster: EmbeddedCluster;
let kube: Kube;
let operator: Started;
let proxy: RunningDashboard;
let anonymous: RunningDashboard;
let builtin: RunningDashboard;

const workspaces = () => kube.resource<Workspace>(kindOf('Workspace'));
const agents = () => kube.resource<AgentRuntime>(kindOf('AgentRuntime'));

/** A proxy-mode caller: the identity headers an authenticating proxy would set. */
function as(user: string, groups: string[] = [], email?: string): Client {
  return new Client(proxy.base, {
    'x-forwarded-user': user,
    'x-forwarded-groups': groups.join(','),
    ...(email === undefined ? {} : { 'x-forwarded-email': email }),
  });
}

async function createWorkspace(
  name: string,
  spec: Omit<WorkspaceSpec, 'namespace' | 'displayName'>,
) {
  await workspaces().create({
    apiVersion: API_VERSION,
    kind: 'Workspace',
    metadata: { name },
    spec: {
      displayName: `Workspace ${name}`,
      namespace: { name: `ns-${name}`, create: true },
      ...spec,
    },
  });
  return eventually(`${name} Ready`, async () => {
    const found = await workspaces().get(name);
    return found.status?.phase === 'Ready' ? found : undefined;
  });
}

async function changeSpec(name: string, change: (spec: WorkspaceSpec) => WorkspaceSpec) {
  await eventually(`${name} changed`, async () => {
    const found = await workspaces().get(name);
    await workspaces().replace({ ...found, spec: change(found.spec) });
    return true;
  });
}

const names = (answer: Answer) =>
  (answer.body as { workspaces: { name: string }[] }).workspaces.map((w) => w.name);

async function visible(client: Client): Promise<Map<string, string>> {
  const answer = await client.get('/api/workspaces?limit=1000');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const list = (answer.body as { workspaces: { name: string; role: string }[] }).workspaces;
  return new Map(list.map((w) => [w.name, w.role]));
}

async function ready(dashboard: RunningDashboard) {
  await eventually('the dashboard ready', async () =>
    (await fetch(`${dashboard.base}/readyz`)).status === 200 ? true : undefined,
  );
}

before(async () => {
  cluster = await startEmbeddedCluster();
  kube = cluster.kube;
  await installCrds(kube);
  await kube
    .resource<KubeObject>(CORE_KINDS.namespace)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paddock-system' } });
  operator = await startOperator(cluster.kubeconfig);
  const env = { KUBECONFIG: cluster.kubeconfig };
  [proxy, anonymous, builtin] = await Promise.all([
    startDashboard({
      ...env,
      SVC_AUTH_MODE: 'proxy',
      SVC_AUTH_ROLE_EDITOR_GROUPS: 'devs',
      SVC_AUTH_ROLE_ADMIN_GROUPS: 'admins',
    }),
    startDashboard({ ...env, SVC_AUTH_MODE: 'anonymous', SVC_AUTH_ANONYMOUS_ROLE: 'editor' }),
    startDashboard({ ...env, SVC_AUTH_MODE: 'builtin' }),
  ]);
  await Promise.all([proxy, anonymous, builtin].map(ready));
});

after(async () => {
  await Promise.all([proxy, anonymous, builtin].map((d) => d?.stop()));
  await operator?.stop();
  await cluster?.stop();
});

describe('which workspaces a user sees', () => {
  before(async () => {
    await Promise.all([
      createWorkspace('groups', {
        roleBindings: [
          { groups: ['readers'], role: 'viewer' },
          { groups: ['devs'], role: 'editor' },
        ],
      }),
      createWorkspace('grants', {
        roleBindings: [{ groups: ['readers'], role: 'viewer' }],
        directGrants: [
          { user: 'alice', role: 'viewer' },
          { user: 'Alice@Example.com', role: 'owner' },
        ],
      }),
      createWorkspace('elsewhere', { roleBindings: [{ groups: ['others'], role: 'owner' }] }),
      createWorkspace('expired', {
        directGrants: [{ user: 'alice', role: 'owner', expires: '2020-01-01T00:00:00Z' }],
      }),
      createWorkspace('open', {
        roleBindings: [{ groups: ['others'], role: 'owner' }],
        anonymousAccess: { enabled: true, role: 'viewer' },
      }),
    ]);
  });

  it('lists, with the highest role, those the groups, grants and anonymous access give', async () => {
    const alice = as('alice', ['readers', 'devs', 'team-1', 'team-2'], 'alice@example.com');
    const seen = await visible(alice);
    assert.deepEqual(Object.fromEntries(seen), {
      grants: 'owner',
      groups: 'editor',
      open: 'viewer',
    });
    const list = await alice.get('/api/workspaces');
    const first = (list.body as { workspaces: Record<string, unknown>[] }).workspaces[0];
    assert.deepEqual(first, {
      name: 'grants',
      displayName: 'Workspace grants',
      description: null,
      environment: 'development',
      namespace: 'ns-grants',
      phase: 'Ready',
      role: 'owner',
    });
    assert.equal((list.body as { total: number }).total, 3);
    const paged = await alice.get('/api/workspaces?limit=1&offset=1');
    assert.deepEqual(names(paged), ['groups']);
    assert.equal((await alice.get('/api/workspaces?limit=zero')).status, 400);
  });

  it('answers an inaccessible workspace exactly as a missing one', async () => {
    const alice = as('alice', ['readers']);
    const hidden = await alice.get('/api/workspaces/elsewhere');
    const missing = await alice.get('/api/workspaces/nowhere');
    const expired = await alice.get('/api/workspaces/expired');
    assert.equal(hidden.status, 404);
    assert.deepEqual(
      { ...(hidden.body as object), message: '' },
      { ...(missing.body as object), message: '' },
    );
    assert.equal(expired.status, 404);
    assert.equal((await alice.get('/api/workspaces/elsewhere/agents')).status, 404);
    assert.equal((await alice.get('/api/workspaces/Not_A_Name')).status, 404);
  });

  it('shows details, members only to owners', async () => {
    const owner = await as('alice', [], 'alice@example.com').get('/api/workspaces/grants');
    assert.equal(owner.status, 200);
    const details = (owner.body as { workspace: Record<string, unknown> }).workspace;
    assert.equal(details.role, 'owner');
    assert.deepEqual(details.members, { owners: 1, editors: 0, viewers: 2 });
    assert.ok(Array.isArray((details.conditions as unknown[]) ?? []));
    assert.equal((details.permissions as { manageMembers: boolean }).manageMembers, true);
    const access = details.access as { directGrants: { user: string; active: boolean }[] };
    assert.deepEqual(
      access.directGrants.map((g) => [g.user, g.active]),
      [
        ['alice', true],
        ['Alice@Example.com', true],
      ],
    );
    const viewer = await as('bob', ['readers']).get('/api/workspaces/grants');
    assert.equal((viewer.body as { workspace: { access: unknown } }).workspace.access, null);
  });

  it('follows spec changes within seconds: a revoked binding, anonymous access turned off', async () => {
    const dev = as('dora', ['devs']);
    assert.equal((await visible(dev)).get('groups'), 'editor');
    await changeSpec('groups', (spec) => ({
      ...spec,
      roleBindings: [{ groups: ['readers'], role: 'viewer' }],
    }));
    await eventually('the binding revoked', async () =>
      (await visible(dev)).has('groups') ? undefined : true,
    );
    assert.equal((await dev.get('/api/workspaces/groups')).status, 404);

    const visitor = new Client(anonymous.base);
    assert.deepEqual([...(await visible(visitor))], [['open', 'viewer']]);
    await changeSpec('open', (spec) => ({ ...spec, anonymousAccess: { enabled: false } }));
    await eventually('anonymous access off', async () =>
      (await visible(visitor)).size === 0 ? true : undefined,
    );
  });

  it('drops a direct grant the moment it expires', async () => {
    // Time is the subject, in the dashboard's own process: long enough that a loaded machine still
    // sees the grant before it ends.
    const expires = new Date(Date.now() + 6_000).toISOString();
    await createWorkspace('temporary', {
      directGrants: [{ user: 'erin', role: 'editor', expires }],
    });
    const erin = as('erin');
    assert.equal((await visible(erin)).get('temporary'), 'editor');
    await eventually('the grant expired', async () =>
      (await erin.get('/api/workspaces/temporary')).status === 404 ? true : undefined,
    );
    assert.ok(Date.now() >= Date.parse(expires));
    assert.equal((await visible(erin)).has('temporary'), false);
  });

  it('lets an API key act as its owner', async () => {
    await createWorkspace('admins-own', { directGrants: [{ user: 'admin', role: 'owner' }] });
    const browser = new Client(builtin.base);
    const login = await browser.post('/api/auth/builtin/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    assert.equal(login.status, 200);
    // A dashboard admin holds no role in workspaces that give it none.
    assert.deepEqual([...(await visible(browser))], [['admins-own', 'owner']]);
    const created = await browser.post('/api/settings/api-keys', { name: 'cli' });
    const { key } = created.body as { key: string };
    const cli = new Client(builtin.base, { authorization: `Bearer ${key}` });
    assert.deepEqual([...(await visible(cli))], [['admins-own', 'owner']]);
  });
});

describe('acting in a workspace with its ServiceAccount token', () => {
  before(async () => {
    await createWorkspace('team', {
      roleBindings: [
        { groups: ['team-owners'], role: 'owner' },
        { groups: ['team-devs'], role: 'editor' },
        { groups: ['team-readers'], role: 'viewer' },
      ],
    });
    await kube.resource<KubeObject>(kindOf('PromptPack')).create({
      apiVersion: API_VERSION,
      kind: 'PromptPack',
      metadata: { name: 'helper', namespace: 'ns-team' },
      spec: { systemPrompt: 'Be helpful.', prompts: [{ name: 'hi', content: 'Say hi.' }] },
    } as KubeObject);
  });

  const owner = () => as('olga', ['team-owners', 'devs']);
  const dev = () => as('dave', ['team-devs', 'devs']);
  const reader = () => as('rita', ['team-readers', 'devs']);

  it('creates, scales and deletes agents for editors, and lists them for viewers', async () => {
    const created = await dev().post('/api/workspaces/team/agents', {
      name: 'writer',
      promptPack: 'helper',
      replicas: 1,
      model: 'claude-sonnet-4',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const scaled = await dev().request('PATCH', '/api/workspaces/team/agents/writer', {
      json: { replicas: 2 },
    });
    assert.equal(scaled.status, 200, JSON.stringify(scaled.body));
    assert.equal((await agents().get('writer', 'ns-team')).spec.replicas, 2);
    const listed = await reader().get('/api/workspaces/team/agents');
    assert.equal(listed.status, 200);
    const [agent] = (listed.body as { agents: Record<string, unknown>[] }).agents;
    assert.equal(agent?.name, 'writer');
    assert.equal(agent?.replicas, 2);
    assert.equal(agent?.promptPack, 'helper');
    const packs = await reader().get('/api/workspaces/team/promptpacks');
    assert.deepEqual(
      (packs.body as { promptPacks: { name: string; systemPrompt: string }[] }).promptPacks.map(
        (p) => [p.name, p.systemPrompt],
      ),
      [['helper', 'Be helpful.']],
    );
    assert.equal(
      (await dev().post('/api/workspaces/team/agents', { name: 'writer', promptPack: 'helper' }))
        .status,
      409,
    );
    const removed = await dev().request('DELETE', '/api/workspaces/team/agents/writer');
    assert.equal(removed.status, 200);
    assert.equal((await dev().request('DELETE', '/api/workspaces/team/agents/writer')).status, 404);
  });

  it('caches a token per workspace and role, minted once, renewed before it expires', async () => {
    let now = Date.now();
    const tokens = new WorkspaceTokens(kube, () => now);
    const team = await workspaces().get('team');
    const viewer = await tokens.clientFor(team, 'viewer');
    assert.equal(await tokens.clientFor(team, 'viewer'), viewer);
    const [editor, same] = await Promise.all([
      tokens.clientFor(team, 'editor'),
      tokens.clientFor(team, 'editor'),
    ]);
    assert.equal(editor, same);
    assert.notEqual(editor, viewer);
    now += TOKEN_SECONDS * 1000 - RENEW_BEFORE_MS + 1_000;
    const renewed = await tokens.clientFor(team, 'viewer');
    assert.notEqual(renewed, viewer);
    const listed = await renewed
      .resource<AgentRuntime>(kindOf('AgentRuntime'))
      .list({ namespace: 'ns-team' });
    assert.ok(Array.isArray(listed.items));
  });

  it('refuses writes to a viewer, and so does the cluster to the viewer token', async () => {
    const refused = await reader().post('/api/workspaces/team/agents', {
      name: 'sneaky',
      promptPack: 'helper',
    });
    assert.equal(refused.status, 403);
    assert.equal(errorOf(refused), 'forbidden');
    // A global viewer who is a workspace editor is refused by the permission table.
    const globalViewer = await as('vic', ['team-devs']).post('/api/workspaces/team/agents', {
      name: 'sneaky',
      promptPack: 'helper',
    });
    assert.equal(globalViewer.status, 403);

    const team = await workspaces().get('team');
    const account = team.status!.serviceAccounts!.viewer!;
    const { token } = await kube.requestToken('ns-team', account, { expirationSeconds: 600 });
    const asViewer = kube.as(token);
    const viewerAgents = asViewer.resource<AgentRuntime>(kindOf('AgentRuntime'));
    assert.deepEqual((await viewerAgents.list({ namespace: 'ns-team' })).items, []);
    await assert.rejects(
      viewerAgents.create({
        apiVersion: API_VERSION,
        kind: 'AgentRuntime',
        metadata: { name: 'sneaky', namespace: 'ns-team' },
        spec: { promptPackRef: { name: 'helper' } },
      }),
      ForbiddenError,
    );
    await assert.rejects(viewerAgents.list({ namespace: 'ns-grants' }), ForbiddenError);
  });

  it('edits prompt packs and tool registries for editors', async () => {
    const put = await dev().request('PUT', '/api/workspaces/team/promptpacks/reviewer', {
      json: { systemPrompt: 'Review.', description: 'Reviews' },
    });
    assert.equal(put.status, 201, JSON.stringify(put.body));
    const again = await dev().request('PUT', '/api/workspaces/team/promptpacks/reviewer', {
      json: { systemPrompt: 'Review carefully.', prompts: [{ name: 'go', content: 'Go.' }] },
    });
    assert.equal(again.status, 200);
    assert.deepEqual(
      (again.body as { promptPack: { systemPrompt: string; prompts: unknown[] } }).promptPack
        .prompts,
      [{ name: 'go', content: 'Go.' }],
    );
    const invalid = await dev().request('PUT', '/api/workspaces/team/promptpacks/reviewer', {
      json: { description: 'no prompt' },
    });
    assert.equal(invalid.status, 400);

    const registry = await dev().request('PUT', '/api/workspaces/team/toolregistries/tools', {
      json: {
        spec: {
          handlers: [
            {
              name: 'search',
              type: 'http',
              endpoint: { url: 'http://127.0.0.1:9/search' },
              tool: { name: 'search', description: 'Search', inputSchema: { type: 'object' } },
            },
          ],
        },
      },
    });
    assert.equal(registry.status, 201, JSON.stringify(registry.body));
    const rejected = await dev().request('PUT', '/api/workspaces/team/toolregistries/tools', {
      json: { spec: { handlers: [{ name: 'x', type: 'carrier-pigeon' }] } },
    });
    assert.equal(rejected.status, 400);
    const listed = await reader().get('/api/workspaces/team/toolregistries');
    assert.deepEqual(
      (listed.body as { toolRegistries: { name: string }[] }).toolRegistries.map((r) => r.name),
      ['tools'],
    );
    assert.equal(
      (await reader().request('DELETE', '/api/workspaces/team/toolregistries/tools')).status,
      403,
    );
    assert.equal(
      (await dev().request('DELETE', '/api/workspaces/team/toolregistries/tools')).status,
      200,
    );
  });

  it('lets owners manage members, never leaving the workspace without an owner', async () => {
    assert.equal(
      (await dev().request('PUT', '/api/workspaces/team/access', { json: { directGrants: [] } }))
        .status,
      403,
    );
    const orphaned = await owner().request('PUT', '/api/workspaces/team/access', {
      json: { roleBindings: [{ groups: ['team-devs'], role: 'editor' }] },
    });
    assert.equal(orphaned.status, 409);
    assert.equal(errorOf(orphaned), 'last_owner');
    const read = await owner().get('/api/workspaces/team');
    const { resourceVersion } = (
      read.body as { workspace: { access: { resourceVersion: string } } }
    ).workspace.access;
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    const granted = await owner().request('PUT', '/api/workspaces/team/access', {
      json: { resourceVersion, directGrants: [{ user: 'frank', role: 'editor', expires }] },
    });
    assert.equal(granted.status, 200, JSON.stringify(granted.body));
    // A second owner working from the same reading is told, not silently overwritten.
    const stale = await owner().request('PUT', '/api/workspaces/team/access', {
      json: { resourceVersion, directGrants: [] },
    });
    assert.equal(stale.status, 409);
    assert.equal(errorOf(stale), 'conflict');
    await eventually('frank sees the workspace', async () =>
      (await visible(as('frank'))).get('team') === 'editor' ? true : undefined,
    );
    const spec = (await workspaces().get('team')).spec;
    assert.equal(spec.roleBindings?.length, 3);
    assert.deepEqual(spec.directGrants, [{ user: 'frank', role: 'editor', expires }]);
    const malformed = await owner().request('PUT', '/api/workspaces/team/access', {
      json: { directGrants: [{ user: 'x', role: 'editor', expires: 'soon' }] },
    });
    assert.equal(malformed.status, 400);
  });

  it('reads the logs, following them, and the events of an agent’s pod', async () => {
    await agentPod(kube, 'ns-team', 'logger', 'starting\nready\n');
    await agents().create({
      apiVersion: API_VERSION,
      kind: 'AgentRuntime',
      metadata: { name: 'logger', namespace: 'ns-team' },
      spec: { promptPackRef: { name: 'helper' } },
    });

    const logs = await reader().get('/api/workspaces/team/agents/logger/logs?tailLines=1');
    assert.equal(logs.status, 200);
    assert.equal(logs.body, 'ready\n');
    assert.equal(logs.headers.get('x-pod'), 'logger-0');
    assert.equal(logs.headers.get('x-container'), 'agent');
    assert.equal(
      (await reader().get('/api/workspaces/team/agents/logger/logs?container=sidecar')).status,
      404,
    );
    assert.equal(
      (await reader().get('/api/workspaces/team/agents/logger/logs?tailLines=-1')).status,
      400,
    );

    const follow = new AbortController();
    const response = await fetch(
      `${proxy.base}/api/workspaces/team/agents/logger/logs?follow=true`,
      {
        headers: { 'x-forwarded-user': 'rita', 'x-forwarded-groups': 'team-readers' },
        signal: follow.signal,
      },
    );
    assert.equal(response.status, 200);
    const reader_ = response.body!.getReader();
    let text = '';
    const decoder = new TextDecoder();
    await kube.appendPodLog('ns-team', 'logger-0', 'working\n');
    while (!text.includes('working\n')) {
      const chunk = (await reader_.read()) as { done: boolean; value?: Uint8Array };
      if (chunk.done) break;
      text += decoder.decode(chunk.value);
    }
    assert.equal(text, 'starting\nready\nworking\n');
    follow.abort();

    const events = await reader().get('/api/workspaces/team/agents/logger/events');
    assert.equal(events.status, 200);
    const list = (events.body as { events: Record<string, unknown>[] }).events;
    assert.deepEqual(
      list.map((e) => [e.reason, (e.object as { name: string }).name]),
      [['Started', 'logger-0']],
    );
    const agent = await reader().get('/api/workspaces/team/agents/logger');
    assert.deepEqual(
      (agent.body as { agent: { pods: { name: string; containers: string[] }[] } }).agent.pods.map(
        (p) => [p.name, p.containers],
      ),
      [['logger-0', ['agent']]],
    );
  });
});

describe('a workspace suspended by its budget', () => {
  it('refuses changes to agents while suspended, and accepts them once it is not', async () => {
    await createWorkspace('spender', {
      roleBindings: [{ groups: ['spenders'], role: 'editor' }],
      costControls: { dailyBudget: '1.00', budgetExceededAction: 'block' },
    });
    const created = await agents().create({
      apiVersion: API_VERSION,
      kind: 'AgentRuntime',
      metadata: { name: 'costly', namespace: 'ns-spender' },
      spec: { promptPackRef: { name: 'any' } },
    });
    const now = new Date();
    await agents().replaceStatus({
      ...created,
      status: {
        costUsage: {
          day: now.toISOString().slice(0, 10),
          dailySpend: '5.00',
          month: now.toISOString().slice(0, 7),
          monthlySpend: '5.00',
        },
      },
    });
    await eventually('suspended', async () =>
      (await workspaces().get('spender')).status?.phase === 'Suspended' ? true : undefined,
    );
    const spender = as('sam', ['spenders', 'devs']);
    const refused = await eventually('the dashboard sees the suspension', async () => {
      const answer = await spender.request('PATCH', '/api/workspaces/spender/agents/costly', {
        json: { replicas: 0 },
      });
      return answer.status === 409 ? answer : undefined;
    });
    assert.equal(errorOf(refused), 'workspace_suspended');
    assert.equal((await spender.get('/api/workspaces/spender/agents')).status, 200);
    await changeSpec('spender', (spec) => ({
      ...spec,
      costControls: { ...spec.costControls, dailyBudget: '100.00' },
    }));
    await eventually('accepted again', async () => {
      const answer = await spender.request('PATCH', '/api/workspaces/spender/agents/costly', {
        json: { replicas: 0 },
      });
      return answer.status === 200 ? true : undefined;
    });
  });
});

describe('a workspace whose ServiceAccount token cannot be minted', () => {
  it('fails with 503, never falling back to the dashboard’s own identity', async () => {
    await createWorkspace('tokenless', { roleBindings: [{ groups: ['t'], role: 'owner' }] });
    const account = (await workspaces().get('tokenless')).status!.serviceAccounts!.owner!;
    // Without the operator nothing re-creates the ServiceAccount, so TokenRequest keeps failing.
    await operator.stop();
    await kube.resource<KubeObject>(CORE_KINDS.serviceAccount).delete(account, 'ns-tokenless');
    const answer = await as('tia', ['t']).get('/api/workspaces/tokenless/agents');
    assert.equal(answer.status, 503);
    assert.equal(errorOf(answer), 'unavailable');
    assert.match((answer.body as { message: string }).message, /token/);
    // Reading the Workspace itself needs no token.
    assert.equal((await as('tia', ['t']).get('/api/workspaces/tokenless')).status, 200);
  });
});
