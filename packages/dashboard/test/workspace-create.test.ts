import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CORE_KINDS,
  KINDS,
  installCrds,
  type Kube,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import {
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

/**
 * Creating a workspace through the dashboard's API, against the embedded cluster with the operator
 * running: the dashboard in proxy mode, `admins` its admins and `devs` its editors.
 */

const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;

let cluster: EmbeddedCluster;
let kube: Kube;
let operator: Started;
let dashboard: RunningDashboard;

const workspaces = () => kube.resource<Workspace>(kindOf('Workspace'));

function as(user: string, groups: string[] = []): Client {
  return new Client(dashboard.base, {
    'x-forwarded-user': user,
    'x-forwarded-groups': groups.join(','),
  });
}

const admin = () => as('ada', ['admins']);
const editor = () => as('dave', ['devs']);

interface Details {
  name: string;
  displayName: string;
  description: string | null;
  environment: string | null;
  namespace: string;
  role: string;
  permissions: { manageMembers: boolean };
  access: { directGrants: { user: string; role: string }[] } | null;
}

const created = (answer: Answer) => (answer.body as { workspace: Details | null }).workspace;

function refused(answer: Answer, status: number, code: string, message?: RegExp) {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.equal(errorOf(answer), code);
  if (message !== undefined) {
    assert.match((answer.body as { message: string }).message, message);
  }
}

before(async () => {
  cluster = await startEmbeddedCluster();
  kube = cluster.kube;
  await installCrds(kube);
  await kube
    .resource<KubeObject>(CORE_KINDS.namespace)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paddock-system' } });
  operator = await startOperator(cluster.kubeconfig);
  dashboard = await startDashboard({
    KUBECONFIG: cluster.kubeconfig,
    SVC_AUTH_MODE: 'proxy',
    SVC_AUTH_ROLE_EDITOR_GROUPS: 'devs',
    SVC_AUTH_ROLE_ADMIN_GROUPS: 'admins',
  });
  await eventually('the dashboard ready', async () =>
    (await fetch(`${dashboard.base}/readyz`)).status === 200 ? true : undefined,
  );
});

after(async () => {
  await dashboard?.stop();
  await operator?.stop();
  await cluster?.stop();
});

describe('creating a workspace', () => {
  it('creates it for an admin, who owns it, lists it and manages its members', async () => {
    const answer = await admin().post('/api/workspaces', {
      name: 'made',
      displayName: 'Made here',
      description: 'Made from the dashboard',
      environment: 'staging',
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const workspace = created(answer)!;
    assert.deepEqual(
      [workspace.name, workspace.displayName, workspace.description, workspace.environment],
      ['made', 'Made here', 'Made from the dashboard', 'staging'],
    );
    assert.equal(workspace.namespace, 'made');
    assert.equal(workspace.role, 'owner');
    assert.equal(workspace.permissions.manageMembers, true);
    assert.deepEqual(workspace.access?.directGrants, [
      { user: 'ada', role: 'owner', active: true },
    ]);

    const object = await workspaces().get('made');
    assert.deepEqual(object.spec.namespace, { name: 'made', create: true });
    // Straight after the answer, the workspace is there for its creator.
    const listed = await admin().get('/api/workspaces');
    assert.deepEqual(
      (listed.body as { workspaces: { name: string; role: string }[] }).workspaces.map((w) => [
        w.name,
        w.role,
      ]),
      [['made', 'owner']],
    );
    assert.equal((await admin().get('/api/workspaces/made')).status, 200);
    // The operator makes it Ready: its namespace created.
    await eventually('the workspace Ready', async () =>
      (await workspaces().get('made')).status?.phase === 'Ready' ? true : undefined,
    );
    const namespace = await kube.resource<KubeObject>(CORE_KINDS.namespace).get('made');
    assert.equal(namespace.metadata?.name, 'made');

    const change = await admin().request('PUT', '/api/workspaces/made/access', {
      json: {
        directGrants: [
          { user: 'ada', role: 'owner' },
          { user: 'vic', role: 'viewer' },
        ],
      },
    });
    assert.equal(change.status, 200, JSON.stringify(change.body));
    // The dashboard learns of the change through its watch of Workspaces.
    await eventually('vic seeing the workspace', async () =>
      (await as('vic').get('/api/workspaces/made')).status === 200 ? true : undefined,
    );

    // Someone given no role sees nothing of it.
    const other = await editor().get('/api/workspaces/made');
    refused(other, 404, 'not_found');
    const theirs = await editor().get('/api/workspaces');
    assert.deepEqual((theirs.body as { workspaces: unknown[] }).workspaces, []);
  });

  it('refuses anyone but an admin, before looking at the body', async () => {
    const good = { name: 'not-mine', displayName: 'Not mine' };
    refused(await editor().post('/api/workspaces', good), 403, 'forbidden', /admins/);
    refused(await as('vic').post('/api/workspaces', { name: 'Bad_Name' }), 403, 'forbidden');
    await assert.rejects(workspaces().get('not-mine'));
  });

  it('checks the body against the Workspace definition, naming the field', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      [
        'a name that is no DNS label',
        { name: 'Bad_Name', displayName: 'x' },
        /^body\.name must match/,
      ],
      ['a dotted name', { name: 'a.b', displayName: 'x' }, /^body\.name must match/],
      ['no display name', { name: 'no-display' }, /^body\.displayName is required/],
      [
        'an unknown environment',
        { name: 'bad-env', displayName: 'x', environment: 'prod' },
        /^body\.environment must be one of "development", "staging" or "production"/,
      ],
      [
        'an unknown field',
        { name: 'unknown', displayName: 'x', colour: 'red' },
        /^body has an unknown field "colour"/,
      ],
      [
        'an unknown field deeper',
        { name: 'deeper', displayName: 'x', namespace: { name: 'deeper', creat: true } },
        /^body\.namespace has an unknown field "creat"/,
      ],
      [
        'a namespace that is no DNS label',
        { name: 'bad-ns', displayName: 'x', namespace: { name: 'Bad.NS' } },
        /^body\.namespace\.name must match/,
      ],
      [
        'a negative quota',
        { name: 'quota', displayName: 'x', quotas: { agents: { maxAgentRuntimes: -1 } } },
        /^body\.quotas\.agents\.maxAgentRuntimes must be ≥ 0/,
      ],
      [
        'a malformed budget',
        { name: 'budget', displayName: 'x', costControls: { dailyBudget: 'ten' } },
        /^body\.costControls\.dailyBudget must match/,
      ],
      [
        'a binding naming nobody',
        { name: 'nobody', displayName: 'x', roleBindings: [{ role: 'owner' }] },
        /^body\.roleBindings\[0\] names no group or ServiceAccount/,
      ],
    ];
    for (const [what, body, message] of cases) {
      const answer = await admin().post('/api/workspaces', body);
      assert.equal(answer.status, 400, `${what}: ${JSON.stringify(answer.body)}`);
      assert.equal(errorOf(answer), 'invalid_request', what);
      assert.match((answer.body as { message: string }).message, message, what);
    }
    const left = (await workspaces().list()).items.map((w) => w.metadata.name);
    assert.deepEqual(left.sort(), ['made']);
  });

  it('refuses a name or a namespace already taken', async () => {
    refused(
      await admin().post('/api/workspaces', { name: 'made', displayName: 'Again' }),
      409,
      'already_exists',
      /workspace "made" already exists/,
    );
    refused(
      await admin().post('/api/workspaces', {
        name: 'squatter',
        displayName: 'Squatter',
        namespace: { name: 'made' },
      }),
      409,
      'already_exists',
      /namespace "made" is already the namespace of workspace "made"/,
    );
  });

  it('leaves the creator out when the request names the owners', async () => {
    const answer = await admin().post('/api/workspaces', {
      name: 'for-ops',
      displayName: 'For ops',
      namespace: { name: 'ops-space' },
      roleBindings: [{ groups: ['ops'], role: 'owner' }],
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(created(answer), null);
    const object = await workspaces().get('for-ops');
    assert.equal(object.spec.directGrants, undefined);
    assert.deepEqual(object.spec.namespace, { name: 'ops-space', create: true });
    const ops = await as('otto', ['ops']).get('/api/workspaces/for-ops');
    assert.equal(ops.status, 200, JSON.stringify(ops.body));
    assert.equal((ops.body as { workspace: Details }).workspace.role, 'owner');
    refused(await admin().get('/api/workspaces/for-ops'), 404, 'not_found');
  });
});
