import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { API_VERSION, installCrds, KINDS, type Workspace } from '@paddock/kube';
import {
  ADMIN_PASSWORD,
  Client,
  eventually,
  startDashboard,
  startEmbeddedCluster,
  type EmbeddedCluster,
  type RunningDashboard,
} from '@paddock/testing';
import { subjectOf } from '../../src/workspaces/access.js';
import type { User } from '../../src/auth/user.js';

const WORKSPACE = 'granted-by-email';
const VICTIM_EMAIL = 'victim@example.com';
const ADMIN_EMAIL = 'root@example.com';

let cluster: EmbeddedCluster;
let builtin: RunningDashboard;
let proxy: RunningDashboard;

before(async () => {
  cluster = await startEmbeddedCluster();
  await installCrds(cluster.kube);
  await cluster.kube.resource<Workspace>(KINDS.find((k) => k.kind === 'Workspace')!).create({
    apiVersion: API_VERSION,
    kind: 'Workspace',
    metadata: { name: WORKSPACE },
    spec: {
      displayName: 'Granted by e-mail',
      namespace: { name: 'ns-granted-by-email', create: true },
      directGrants: [
        { user: VICTIM_EMAIL, role: 'owner' },
        { user: ADMIN_EMAIL, role: 'viewer' },
      ],
    },
  });
  const env = { KUBECONFIG: cluster.kubeconfig };
  [builtin, proxy] = await Promise.all([
    startDashboard({
      ...env,
      SVC_AUTH_MODE: 'builtin',
      SVC_BUILTIN_ALLOW_SIGNUP: 'true',
      SVC_BUILTIN_ADMIN_EMAIL: ADMIN_EMAIL,
    }),
    startDashboard({ ...env, SVC_AUTH_MODE: 'proxy' }),
  ]);
});
after(async () => {
  await Promise.all([builtin?.stop(), proxy?.stop()]);
  await cluster?.stop();
});

/** The workspaces a client sees, by name, with its role; waits until the dashboard knows the cluster's. */
async function rolesOf(client: Client): Promise<Map<string, string>> {
  const answer = await client.get('/api/workspaces?limit=1000');
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  const list = (answer.body as { workspaces: { name: string; role: string }[] }).workspaces;
  return new Map(list.map((w) => [w.name, w.role]));
}

describe('workspace grants by e-mail', () => {
  it('go to a verified address (the initial admin’s)', async () => {
    const admin = new Client(builtin.base);
    const login = await admin.post('/api/auth/builtin/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    assert.equal(login.status, 200);
    // The dashboard watches the cluster: wait until it has seen the workspace.
    const role = await eventually('the admin to see the workspace', async () =>
      (await rolesOf(admin)).get(WORKSPACE),
    );
    assert.equal(role, 'viewer');
  });

  it('never go to someone who signed up with that address without confirming it', async () => {
    const mallory = new Client(builtin.base);
    const signup = await mallory.post('/api/auth/builtin/signup', {
      username: 'mallory',
      email: VICTIM_EMAIL,
      password: 'mallory-password',
    });
    assert.equal(signup.status, 201, JSON.stringify(signup.body));
    assert.equal((await mallory.get('/api/auth/me')).status, 200, 'signed in, unverified');
    assert.equal((await rolesOf(mallory)).has(WORKSPACE), false);
    const direct = await mallory.get(`/api/workspaces/${WORKSPACE}`);
    assert.equal(direct.status, 404);
  });

  it('go to the address a trusted proxy asserts', async () => {
    const victim = new Client(proxy.base, {
      'x-forwarded-user': 'victim',
      'x-forwarded-email': VICTIM_EMAIL,
    });
    const role = await eventually('the proxied user to see the workspace', async () =>
      (await rolesOf(victim)).get(WORKSPACE),
    );
    assert.equal(role, 'owner');
  });
});

describe('the workspace subject of a caller', () => {
  const user: User = {
    id: 'u1',
    username: 'ann',
    email: 'ann@example.com',
    groups: ['g'],
    role: 'viewer',
    provider: 'builtin',
  };
  const cases: Array<{ name: string; emailVerified: boolean; email: string | undefined }> = [
    { name: 'a verified address counts', emailVerified: true, email: 'ann@example.com' },
    { name: 'an unverified address is left out', emailVerified: false, email: undefined },
  ];
  for (const { name, emailVerified, email } of cases) {
    it(name, () => {
      const subject = subjectOf({ user, emailVerified });
      assert.equal(subject.email, email);
      assert.equal(subject.username, 'ann');
      assert.deepEqual(subject.groups, ['g']);
    });
  }
});
