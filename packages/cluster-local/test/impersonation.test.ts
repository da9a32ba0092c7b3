import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '@paddock/common';
import { eventually, tempDir } from '@paddock/testing';
import { ApiError } from '../src/api/api-error.js';
import { adminUser } from '../src/auth/admin-token.js';
import {
  actAs,
  impersonateAttributes,
  impersonatedUser,
  impersonationTargets,
  splitServiceAccountUsername,
  unescapeExtraKey,
  userText,
  type HeaderLists,
  type ImpersonationTarget,
} from '../src/auth/impersonation.js';
import { userOfServiceAccount } from '../src/auth/tokens.js';
import type { KubeObject, RbacSource } from '../src/contracts.js';
import { authorize } from '../src/rbac/authorize.js';
import { startTestCluster, type TestCluster } from './support/cluster.js';
import { kubectlIn, lateKubectl, type KubectlTools } from './support/kubectl.js';

const RBAC = 'rbac.authorization.k8s.io';

/** The ApiError a call throws; fails the test if it throws nothing else. */
function thrown(call: () => unknown): ApiError {
  try {
    call();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  assert.fail('the call succeeded, an ApiError was expected');
}

describe('impersonation headers', () => {
  const cases: Array<{ name: string; headers: HeaderLists; targets: ImpersonationTarget[] }> = [
    { name: 'no headers', headers: {}, targets: [] },
    { name: 'an empty user', headers: { 'impersonate-user': [''] }, targets: [] },
    {
      name: 'a user',
      headers: { 'impersonate-user': ['jane'] },
      targets: [{ kind: 'User', name: 'jane' }],
    },
    {
      name: 'the first of two users',
      headers: { 'impersonate-user': ['jane', 'joe'] },
      targets: [{ kind: 'User', name: 'jane' }],
    },
    {
      name: 'a ServiceAccount',
      headers: { 'impersonate-user': ['system:serviceaccount:team:reader'] },
      targets: [{ kind: 'ServiceAccount', namespace: 'team', name: 'reader' }],
    },
    {
      name: 'a ServiceAccount name that is not valid, as a user',
      headers: { 'impersonate-user': ['system:serviceaccount:Team:reader'] },
      targets: [{ kind: 'User', name: 'system:serviceaccount:Team:reader' }],
    },
    {
      name: 'user, groups, extras and uid, in that order',
      headers: {
        'impersonate-uid': ['u-1'],
        'impersonate-extra-scopes': ['view', 'edit'],
        'impersonate-group': ['devs', 'ops'],
        'impersonate-user': ['jane'],
        'impersonate-extra-example.com%2fteam': ['blue'],
      },
      targets: [
        { kind: 'User', name: 'jane' },
        { kind: 'Group', name: 'devs' },
        { kind: 'Group', name: 'ops' },
        { kind: 'UserExtra', key: 'scopes', value: 'view' },
        { kind: 'UserExtra', key: 'scopes', value: 'edit' },
        { kind: 'UserExtra', key: 'example.com/team', value: 'blue' },
        { kind: 'UID', uid: 'u-1' },
      ],
    },
  ];
  for (const { name, headers, targets } of cases) {
    it(`reads ${name}`, () => assert.deepEqual(impersonationTargets(headers), targets));
  }

  const refused: Array<{ headers: HeaderLists; message: string }> = [
    {
      headers: { 'impersonate-group': ['devs'] },
      message: 'requested [{Group  devs    }] without impersonating a user',
    },
    {
      headers: { 'impersonate-user': [''], 'impersonate-group': ['a', 'b'] },
      message: 'requested [{Group  a    } {Group  b    }] without impersonating a user',
    },
    {
      headers: { 'impersonate-extra-scopes': ['view'] },
      message:
        'requested [{UserExtra  view  authentication.k8s.io/v1  scopes}] without impersonating a user',
    },
    {
      headers: { 'impersonate-uid': ['u-1'] },
      message: 'requested [{UID  u-1  authentication.k8s.io/v1  }] without impersonating a user',
    },
  ];
  for (const { headers, message } of refused) {
    it(`answers 400 to ${Object.keys(headers).join(', ')} without a user`, () => {
      const error = thrown(() => impersonationTargets(headers));
      assert.deepEqual(error.status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'BadRequest',
        code: 400,
      });
    });
  }

  it('splits ServiceAccount user names as Kubernetes does', () => {
    const table: Array<[string, { namespace: string; name: string } | undefined]> = [
      ['system:serviceaccount:team:reader', { namespace: 'team', name: 'reader' }],
      ['system:serviceaccount:team:a.b-c', { namespace: 'team', name: 'a.b-c' }],
      ['system:serviceaccount:team', undefined],
      ['system:serviceaccount:team:reader:x', undefined],
      ['system:serviceaccount::reader', undefined],
      ['system:serviceaccount:team:', undefined],
      ['system:serviceaccount:te.am:reader', undefined],
      [`system:serviceaccount:${'n'.repeat(64)}:reader`, undefined],
      ['system:serviceaccounts:team', undefined],
      ['jane', undefined],
    ];
    for (const [username, expected] of table) {
      assert.deepEqual(splitServiceAccountUsername(username), expected, username);
    }
  });

  it('unescapes extra keys as Go unescapes paths, keeping malformed keys', () => {
    const table: Array<[string, string]> = [
      ['scopes', 'scopes'],
      ['example.com%2fteam', 'example.com/team'],
      ['caf%c3%a9', 'café'],
      ['a+b', 'a+b'],
      ['100%', '100%'],
      ['bad%zzkey', 'bad%zzkey'],
    ];
    for (const [encoded, key] of table) assert.equal(unescapeExtraKey(encoded), key, encoded);
  });
});

describe('the impersonate checks', () => {
  it('asks for the impersonate verb on each kind of part', () => {
    const verb = 'impersonate';
    assert.deepEqual(impersonateAttributes({ kind: 'User', name: 'jane' }), {
      verb,
      apiGroup: '',
      resource: 'users',
      name: 'jane',
    });
    assert.deepEqual(impersonateAttributes({ kind: 'Group', name: 'devs' }), {
      verb,
      apiGroup: '',
      resource: 'groups',
      name: 'devs',
    });
    assert.deepEqual(
      impersonateAttributes({ kind: 'ServiceAccount', namespace: 'team', name: 'reader' }),
      { verb, apiGroup: '', resource: 'serviceaccounts', namespace: 'team', name: 'reader' },
    );
    assert.deepEqual(impersonateAttributes({ kind: 'UserExtra', key: 'scopes', value: 'view' }), {
      verb,
      apiGroup: 'authentication.k8s.io',
      resource: 'userextras',
      subresource: 'scopes',
      name: 'view',
    });
    assert.deepEqual(impersonateAttributes({ kind: 'UID', uid: 'u-1' }), {
      verb,
      apiGroup: 'authentication.k8s.io',
      resource: 'uids',
      name: 'u-1',
    });
  });
});

describe('the impersonated identity', () => {
  const user = (name: string): ImpersonationTarget => ({ kind: 'User', name });
  const group = (name: string): ImpersonationTarget => ({ kind: 'Group', name });
  const account: ImpersonationTarget = { kind: 'ServiceAccount', namespace: 'team', name: 'sa' };
  const cases: Array<{
    name: string;
    targets: ImpersonationTarget[];
    username: string;
    groups: string[];
  }> = [
    {
      name: 'a user alone',
      targets: [user('jane')],
      username: 'jane',
      groups: ['system:authenticated'],
    },
    {
      name: 'a user with groups',
      targets: [user('jane'), group('devs')],
      username: 'jane',
      groups: ['devs', 'system:authenticated'],
    },
    {
      name: 'a user that names system:authenticated',
      targets: [user('jane'), group('system:authenticated'), group('devs')],
      username: 'jane',
      groups: ['system:authenticated', 'devs'],
    },
    {
      name: 'a user that names system:unauthenticated',
      targets: [user('jane'), group('system:unauthenticated')],
      username: 'jane',
      groups: ['system:unauthenticated'],
    },
    {
      name: 'a ServiceAccount',
      targets: [account],
      username: 'system:serviceaccount:team:sa',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    },
    {
      name: 'a ServiceAccount with groups named',
      targets: [account, group('devs')],
      username: 'system:serviceaccount:team:sa',
      groups: ['devs', 'system:authenticated'],
    },
    {
      name: 'the anonymous user',
      targets: [user('system:anonymous')],
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    },
    {
      name: 'the anonymous user naming system:unauthenticated',
      targets: [user('system:anonymous'), group('system:unauthenticated')],
      username: 'system:anonymous',
      groups: ['system:unauthenticated'],
    },
  ];
  for (const { name, targets, username, groups } of cases) {
    it(`is ${name}`, () => assert.deepEqual(impersonatedUser(targets), { username, groups }));
  }

  it('carries the uid and the extras', () => {
    assert.deepEqual(
      impersonatedUser([
        user('jane'),
        { kind: 'UserExtra', key: 'scopes', value: 'view' },
        { kind: 'UserExtra', key: 'scopes', value: 'edit' },
        { kind: 'UID', uid: 'u-1' },
      ]),
      {
        username: 'jane',
        uid: 'u-1',
        groups: ['system:authenticated'],
        extra: { scopes: ['view', 'edit'] },
      },
    );
  });

  it('reads as name[groups] in the log', () => {
    assert.equal(userText({ username: 'jane', groups: ['a', 'b'] }), 'jane[a,b]');
    assert.equal(userText({ username: '', groups: [] }), '<empty>');
  });
});

describe('acting as another identity', () => {
  /** What RBAC reads, from a fixed set of objects. */
  const objects: KubeObject[] = [
    {
      kind: 'ClusterRole',
      metadata: { name: 'impersonate-jane' },
      rules: [
        { apiGroups: [''], resources: ['users'], verbs: ['impersonate'], resourceNames: ['jane'] },
        { apiGroups: [''], resources: ['groups'], verbs: ['impersonate'], resourceNames: ['devs'] },
        {
          apiGroups: ['authentication.k8s.io'],
          resources: ['userextras/scopes'],
          verbs: ['impersonate'],
        },
      ],
    },
    {
      kind: 'ClusterRoleBinding',
      metadata: { name: 'helper-impersonates-jane' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'impersonate-jane' },
      subjects: [{ kind: 'ServiceAccount', namespace: 'team', name: 'helper' }],
    },
    {
      kind: 'Role',
      metadata: { namespace: 'team', name: 'impersonate-sa' },
      rules: [{ apiGroups: [''], resources: ['serviceaccounts'], verbs: ['impersonate'] }],
    },
    {
      kind: 'RoleBinding',
      metadata: { namespace: 'team', name: 'helper-impersonates-sa' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'impersonate-sa' },
      subjects: [{ kind: 'ServiceAccount', name: 'helper' }],
    },
  ];
  const of = (kind: string, namespace?: string) =>
    objects.filter(
      (o) =>
        o.kind === kind && (namespace === undefined || o.metadata?.['namespace'] === namespace),
    );
  const rbac: RbacSource = {
    roles: (namespace) => of('Role', namespace),
    roleBindings: (namespace) => of('RoleBinding', namespace),
    clusterRoles: () => of('ClusterRole'),
    clusterRoleBindings: () => of('ClusterRoleBinding'),
  };
  const authorizer = (
    user: Parameters<typeof authorize>[0],
    attributes: Parameters<typeof authorize>[1],
  ) => authorize(user, attributes, rbac);
  const helper = userOfServiceAccount('team', 'helper', 'uid-h');

  it('keeps the caller when nothing is impersonated', () => {
    assert.deepEqual(actAs(helper, {}, authorizer), { user: helper });
  });

  it('acts as what every part of the identity is allowed for', () => {
    const acting = actAs(
      helper,
      {
        'impersonate-user': ['jane'],
        'impersonate-group': ['devs'],
        'impersonate-extra-scopes': ['view'],
      },
      authorizer,
    );
    assert.deepEqual(acting, {
      user: {
        username: 'jane',
        groups: ['devs', 'system:authenticated'],
        extra: { scopes: ['view'] },
      },
      impersonator: helper,
    });
    const account = actAs(
      helper,
      { 'impersonate-user': ['system:serviceaccount:team:other'] },
      authorizer,
    );
    assert.equal(account.user.username, 'system:serviceaccount:team:other');
  });

  it('lets system:masters impersonate anyone', () => {
    const acting = actAs(adminUser(), { 'impersonate-user': ['anyone'] }, authorizer);
    assert.equal(acting.user.username, 'anyone');
  });

  const forbidden: Array<{ headers: HeaderLists; message: string; details: object }> = [
    {
      headers: { 'impersonate-user': ['joe'] },
      message:
        'users "joe" is forbidden: User "system:serviceaccount:team:helper" cannot impersonate resource "users" in API group "" at the cluster scope',
      details: { name: 'joe', kind: 'users' },
    },
    {
      headers: { 'impersonate-user': ['jane'], 'impersonate-group': ['devs', 'system:masters'] },
      message:
        'groups "system:masters" is forbidden: User "system:serviceaccount:team:helper" cannot impersonate resource "groups" in API group "" at the cluster scope',
      details: { name: 'system:masters', kind: 'groups' },
    },
    {
      headers: { 'impersonate-user': ['system:serviceaccount:elsewhere:sa'] },
      message:
        'serviceaccounts "sa" is forbidden: User "system:serviceaccount:team:helper" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "elsewhere"',
      details: { name: 'sa', kind: 'serviceaccounts' },
    },
    {
      headers: { 'impersonate-user': ['jane'], 'impersonate-extra-team': ['blue'] },
      message:
        'userextras.authentication.k8s.io "blue" is forbidden: User "system:serviceaccount:team:helper" cannot impersonate resource "userextras/team" in API group "authentication.k8s.io" at the cluster scope',
      details: { name: 'blue', group: 'authentication.k8s.io', kind: 'userextras' },
    },
    {
      headers: { 'impersonate-user': ['jane'], 'impersonate-uid': ['u-1'] },
      message:
        'uids.authentication.k8s.io "u-1" is forbidden: User "system:serviceaccount:team:helper" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
      details: { name: 'u-1', group: 'authentication.k8s.io', kind: 'uids' },
    },
  ];
  for (const { headers, message, details } of forbidden) {
    it(`refuses ${message.split(' is forbidden')[0]} with 403`, () => {
      const error = thrown(() => actAs(helper, headers, authorizer));
      assert.deepEqual(error.status, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'Forbidden',
        details,
        code: 403,
      });
    });
  }
});

// --- Against the server, with kubectl ----------------------------------------------------------

const MANIFEST = `apiVersion: v1
kind: Namespace
metadata: {name: imp}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: limited, namespace: imp}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: other, namespace: imp}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: helper, namespace: imp}
---
apiVersion: v1
kind: ServiceAccount
metadata: {name: plain, namespace: imp}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: configmap-reader, namespace: imp}
rules:
  - {apiGroups: [""], resources: [configmaps], verbs: [get, list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: limited-reads, namespace: imp}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: configmap-reader}
subjects:
  - {kind: ServiceAccount, name: limited, namespace: imp}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: impersonate-limited, namespace: imp}
rules:
  - {apiGroups: [""], resources: [serviceaccounts], verbs: [impersonate], resourceNames: [limited]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: helper-impersonates-limited, namespace: imp}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: impersonate-limited}
subjects:
  - {kind: ServiceAccount, name: helper, namespace: imp}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: imp}
data: {mode: fast}
---
apiVersion: v1
kind: Secret
metadata: {name: hidden, namespace: imp}
data: {key: dmFsdWU=}
`;

describe('impersonation against the server', () => {
  let cluster: TestCluster;
  let folder: Awaited<ReturnType<typeof tempDir>>;
  let kubeconfigPath: string;
  let tools: KubectlTools;
  const { kubectl, ok } = lateKubectl(() => tools);
  const logLines: Array<Record<string, unknown>> = [];

  before(async () => {
    folder = await tempDir('paddock-impersonation-');
    kubeconfigPath = join(folder.path, 'kubeconfig');
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of String(chunk).split('\n')) {
          if (line !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    cluster = await startTestCluster({
      kubeconfigPath,
      logger: createLogger({ name: 'cluster', level: 'info', destination: sink }),
    });
    tools = kubectlIn(folder.path, kubeconfigPath);
    const file = join(folder.path, 'manifest.yaml');
    await writeFile(file, MANIFEST);
    await ok('apply', '-f', file);
  });

  after(async () => {
    await cluster.close();
    await folder.remove();
  });

  const LIMITED = 'system:serviceaccount:imp:limited';

  it('answers auth can-i as the impersonated ServiceAccount', async () => {
    assert.equal(await ok('auth', 'can-i', 'delete', 'configmaps', '-n', 'imp'), 'yes\n');
    const denied = await kubectl(
      'auth',
      'can-i',
      'delete',
      'configmaps',
      '-n',
      'imp',
      `--as=${LIMITED}`,
    );
    assert.deepEqual([denied.code, denied.stdout], [1, 'no\n']);
    assert.equal(
      await ok('auth', 'can-i', 'list', 'configmaps', '-n', 'imp', `--as=${LIMITED}`),
      'yes\n',
    );
  });

  it('runs requests as the impersonated identity', async () => {
    assert.match(await ok('get', 'secrets', '-n', 'imp'), /hidden/);
    const refused = await kubectl('get', 'secrets', '-n', 'imp', `--as=${LIMITED}`);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      `Error from server (Forbidden): secrets is forbidden: User "${LIMITED}" cannot list resource "secrets" in API group "" in the namespace "imp"`,
    );
    assert.match(await ok('get', 'configmaps', '-n', 'imp', `--as=${LIMITED}`), /settings/);
  });

  it('shows the impersonated identity in auth whoami', async () => {
    const whoami = JSON.parse(await ok('auth', 'whoami', '-o', 'json', `--as=${LIMITED}`)) as {
      status: { userInfo: unknown };
    };
    assert.deepEqual(whoami.status.userInfo, {
      username: LIMITED,
      groups: ['system:serviceaccounts', 'system:serviceaccounts:imp', 'system:authenticated'],
    });
    const table = await ok(
      'auth',
      'whoami',
      '--as=jane',
      '--as-group=devs',
      '--as-group=ops',
      '--as-uid=u-1',
    );
    assert.match(table, /^Username\s+jane$/m);
    assert.match(table, /^UID\s+u-1$/m);
    assert.match(table, /^Groups\s+\[devs ops system:authenticated\]$/m);
  });

  it('records in the log who acted as whom', async () => {
    await ok('auth', 'whoami', '--as=logged');
    const line = await eventually('the impersonation log line', () =>
      logLines.find(
        (l) =>
          l['msg'] === 'impersonation' &&
          l['method'] === 'POST' &&
          l['impersonatedUser'] === 'logged[system:authenticated]',
      ),
    );
    assert.equal(line['user'], 'admin[system:masters,system:authenticated]');
    assert.equal(line['url'], '/apis/authentication.k8s.io/v1/selfsubjectreviews');
  });

  it('refuses callers the impersonate verb is not granted to, with the real message', async () => {
    const plain = (await ok('create', 'token', 'plain', '-n', 'imp')).trim();
    const refused = await kubectl(
      '--token',
      plain,
      'get',
      'configmaps',
      '-n',
      'imp',
      `--as=${LIMITED}`,
    );
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      'Error from server (Forbidden): serviceaccounts "limited" is forbidden: User "system:serviceaccount:imp:plain" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "imp"',
    );
    const helper = (await ok('create', 'token', 'helper', '-n', 'imp')).trim();
    assert.equal(
      await ok(
        '--token',
        helper,
        'auth',
        'can-i',
        'list',
        'configmaps',
        '-n',
        'imp',
        `--as=${LIMITED}`,
      ),
      'yes\n',
    );
    const other = await kubectl(
      '--token',
      helper,
      'get',
      'configmaps',
      '-n',
      'imp',
      '--as=system:serviceaccount:imp:other',
    );
    assert.equal(
      other.stderr.trim(),
      'Error from server (Forbidden): serviceaccounts "other" is forbidden: User "system:serviceaccount:imp:helper" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "imp"',
    );
    const user = await kubectl('--token', helper, 'get', 'configmaps', '-n', 'imp', '--as=jane');
    assert.equal(
      user.stderr.trim(),
      'Error from server (Forbidden): users "jane" is forbidden: User "system:serviceaccount:imp:helper" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
  });

  it('answers 400 to groups without a user, and carries impersonated extras', async () => {
    const call = (headers: Record<string, string>) =>
      fetch(`${cluster.url}/apis/authentication.k8s.io/v1/selfsubjectreviews`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${cluster.adminToken}`,
          'content-type': 'application/json',
          ...headers,
        },
        body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' }),
      });
    const bad = await call({ 'Impersonate-Group': 'devs' });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'requested [{Group  devs    }] without impersonating a user',
      reason: 'BadRequest',
      code: 400,
    });
    const extras = await call({
      'Impersonate-User': 'jane',
      'Impersonate-Extra-Example.com%2FTeam': 'blue',
    });
    assert.equal(extras.status, 201);
    const review = (await extras.json()) as { status: { userInfo: unknown } };
    assert.deepEqual(review.status.userInfo, {
      username: 'jane',
      groups: ['system:authenticated'],
      extra: { 'example.com/team': ['blue'] },
    });
  });
});
