import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminUser } from '../src/auth/admin-token.js';
import { userOfServiceAccount } from '../src/auth/tokens.js';
import type { KubeObject, RbacSource, RequestAttributes, UserInfo } from '../src/contracts.js';
import { authorize, forbiddenMessage } from '../src/rbac/authorize.js';
import { mayBind, mayCreateRole } from '../src/rbac/escalation.js';
import { forbiddenStatusMessage } from '../src/rbac/forbidden.js';
import type { PolicyRule, RoleRef, Subject } from '../src/rbac/policy-rule.js';
import type { RoleRulesResolver } from '../src/rbac/rule-resolver.js';

const RBAC = 'rbac.authorization.k8s.io';

// --- RBAC objects ------------------------------------------------------------------------------

interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

interface ClusterRoleOptions {
  labels?: Record<string, string>;
  aggregationRule?: { clusterRoleSelectors: LabelSelector[] };
}

/** What RBAC reads, listed from a fixed set of objects as the server's storage would list them. */
function source(objects: readonly KubeObject[]): RbacSource {
  const of = (kind: string, namespace?: string): KubeObject[] =>
    objects.filter(
      (o) =>
        o.kind === kind && (namespace === undefined || o.metadata?.['namespace'] === namespace),
    );
  return {
    roles: (namespace) => of('Role', namespace),
    roleBindings: (namespace) => of('RoleBinding', namespace),
    clusterRoles: () => of('ClusterRole'),
    clusterRoleBindings: () => of('ClusterRoleBinding'),
  };
}

function roleRef(kind: 'Role' | 'ClusterRole', name: string): RoleRef {
  return { apiGroup: RBAC, kind, name };
}

function role(namespace: string, name: string, rules: PolicyRule[]): KubeObject {
  return { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { namespace, name }, rules };
}

function clusterRole(
  name: string,
  rules: PolicyRule[],
  options: ClusterRoleOptions = {},
): KubeObject {
  const object: KubeObject = {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRole',
    metadata: { name, labels: options.labels ?? {} },
    rules,
  };
  if (options.aggregationRule) object['aggregationRule'] = options.aggregationRule;
  return object;
}

function roleBinding(
  namespace: string,
  name: string,
  ref: RoleRef,
  subjects: Subject[],
): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: { namespace, name },
    roleRef: ref,
    subjects,
  };
}

function clusterRoleBinding(
  name: string,
  clusterRoleName: string,
  subjects: Subject[],
): KubeObject {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: roleRef('ClusterRole', clusterRoleName),
    subjects,
  };
}

// --- users and requests ------------------------------------------------------------------------

function serviceAccount(namespace: string, name: string): UserInfo {
  return userOfServiceAccount(namespace, name, `uid-${namespace}-${name}`);
}

function user(username: string, groups: string[] = ['system:authenticated']): UserInfo {
  return { username, groups };
}

/** A resource request, in the core group unless `more` names another. */
function request(
  verb: string,
  resource: string,
  namespace?: string,
  more: Partial<RequestAttributes> = {},
): RequestAttributes {
  return { verb, apiGroup: '', resource, namespace, ...more };
}

/** A non-resource request, such as GET /healthz. */
function path(verb: string, nonResourcePath: string): RequestAttributes {
  return { verb, apiGroup: '', resource: '', nonResourcePath };
}

// --- who may do what in `world` ----------------------------------------------------------------

const viewer = serviceAccount('ws-a', 'viewer');
const minter = serviceAccount('ws-a', 'minter');
const alice = user('alice');
const bob = user('bob');
const carol = user('carol');
const dave = user('dave', ['developers', 'system:authenticated']);

const world = source([
  // viewer (ws-a): reads configmaps through a Role, pod logs and /metrics through ClusterRoles,
  // all bound by RoleBindings of ws-a (the ServiceAccount's namespace left out where allowed).
  role('ws-a', 'configmap-reader', [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
  ]),
  roleBinding('ws-a', 'viewer-reads', roleRef('Role', 'configmap-reader'), [
    { kind: 'ServiceAccount', name: 'viewer', namespace: 'ws-a' },
  ]),
  clusterRole('pod-logs', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get'] }]),
  roleBinding('ws-a', 'viewer-logs', roleRef('ClusterRole', 'pod-logs'), [
    { kind: 'ServiceAccount', name: 'viewer' },
  ]),
  clusterRole('metrics-reader', [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]),
  roleBinding('ws-a', 'viewer-metrics', roleRef('ClusterRole', 'metrics-reader'), [
    { kind: 'ServiceAccount', name: 'viewer' },
  ]),
  // Every ServiceAccount of ws-b lists namespaces.
  clusterRole('namespace-lister', [
    { apiGroups: [''], resources: ['namespaces'], verbs: ['list'] },
  ]),
  clusterRoleBinding('ws-b-lists-namespaces', 'namespace-lister', [
    { kind: 'Group', name: 'system:serviceaccounts:ws-b' },
  ]),
  // alice may do anything to any resource; bob may update the status of anything.
  clusterRole('everything', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]),
  clusterRoleBinding('alice-everything', 'everything', [{ kind: 'User', name: 'alice' }]),
  clusterRole('status-updater', [{ apiGroups: ['*'], resources: ['*/status'], verbs: ['update'] }]),
  clusterRoleBinding('bob-status', 'status-updater', [{ kind: 'User', name: 'bob' }]),
  // minter (ws-a): mints tokens for the builder account only, and reads one secret.
  clusterRole('builder-token', [
    {
      apiGroups: [''],
      resources: ['serviceaccounts/token'],
      verbs: ['create'],
      resourceNames: ['builder'],
    },
  ]),
  roleBinding('ws-a', 'minter-tokens', roleRef('ClusterRole', 'builder-token'), [
    { kind: 'ServiceAccount', name: 'minter' },
  ]),
  role('ws-a', 'one-secret', [
    {
      apiGroups: [''],
      resources: ['secrets'],
      verbs: ['get', 'list', 'watch'],
      resourceNames: ['app-config'],
    },
  ]),
  roleBinding('ws-a', 'minter-secret', roleRef('Role', 'one-secret'), [
    { kind: 'ServiceAccount', name: 'minter', namespace: 'ws-a' },
  ]),
  // Everyone authenticated reads the health and discovery paths.
  clusterRole('health', [{ nonResourceURLs: ['/healthz', '/version', '/apis/*'], verbs: ['get'] }]),
  clusterRoleBinding('everyone-health', 'health', [
    { kind: 'Group', name: 'system:authenticated' },
  ]),
  // The developers group (dave) edits deployments everywhere.
  clusterRole('deployment-editor', [
    { apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] },
  ]),
  clusterRoleBinding('developers-deploy', 'deployment-editor', [
    { kind: 'Group', name: 'developers' },
  ]),
  // The robot account of ws-b reads pods and their logs everywhere.
  clusterRoleBinding('robot-reads', 'pod-logs', [
    { kind: 'ServiceAccount', name: 'robot', namespace: 'ws-b' },
  ]),
  // carol views ws-c through an aggregated ClusterRole, whose own rules the aggregation replaces.
  clusterRole('workspace-view', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }], {
    aggregationRule: {
      clusterRoleSelectors: [
        { matchLabels: { 'paddock.dev/aggregate-to-view': 'true' } },
        { matchExpressions: [{ key: 'paddock.dev/extra-view', operator: 'Exists' }] },
      ],
    },
  }),
  clusterRole(
    'view-agents',
    [{ apiGroups: ['paddock.dev'], resources: ['agents'], verbs: ['get'] }],
    { labels: { 'paddock.dev/aggregate-to-view': 'true' } },
  ),
  clusterRole(
    'view-tools',
    [{ apiGroups: ['paddock.dev'], resources: ['tools'], verbs: ['list'] }],
    { labels: { 'paddock.dev/extra-view': 'yes' } },
  ),
  clusterRole('delete-agents', [
    { apiGroups: ['paddock.dev'], resources: ['agents'], verbs: ['delete'] },
  ]),
  roleBinding('ws-c', 'carol-views', roleRef('ClusterRole', 'workspace-view'), [
    { kind: 'User', name: 'carol' },
  ]),
]);

type AuthorizationCase = [
  name: string,
  who: UserInfo,
  attributes: RequestAttributes,
  allowed: boolean,
];

/** One test per case, named `allows: …` or `denies: …`, checking authorize's decision in `world`. */
function decides(cases: AuthorizationCase[]): void {
  for (const [name, who, attributes, allowed] of cases) {
    it(`${allowed ? 'allows' : 'denies'}: ${name}`, () => {
      assert.equal(authorize(who, attributes, world).allowed, allowed);
    });
  }
}

describe('RBAC authorization', () => {
  describe('binding scope', () => {
    decides([
      [
        'a Role bound in its namespace grants there',
        viewer,
        request('get', 'configmaps', 'ws-a'),
        true,
      ],
      [
        'a RoleBinding grants nothing in another namespace',
        viewer,
        request('get', 'configmaps', 'ws-b'),
        false,
      ],
      ['a Role grants only its verbs', viewer, request('create', 'configmaps', 'ws-a'), false],
      ['a RoleBinding grants nothing cluster-wide', viewer, request('list', 'configmaps'), false],
      [
        'a ClusterRole bound by a RoleBinding grants in that namespace',
        viewer,
        request('get', 'pods', 'ws-a', { subresource: 'log', name: 'p' }),
        true,
      ],
      [
        'a ClusterRole bound by a RoleBinding grants nothing elsewhere',
        viewer,
        request('get', 'pods', 'ws-b', { subresource: 'log', name: 'p' }),
        false,
      ],
      [
        'a subresource is a resource of its own',
        viewer,
        request('create', 'pods', 'ws-a', { subresource: 'exec', name: 'p' }),
        false,
      ],
      [
        'a ClusterRoleBinding grants a group everywhere',
        serviceAccount('ws-b', 'any'),
        request('list', 'namespaces'),
        true,
      ],
      [
        'a group binding skips users outside the group',
        serviceAccount('ws-a', 'any'),
        request('list', 'namespaces'),
        false,
      ],
    ]);
  });

  describe('wildcards and subresources', () => {
    decides([
      [
        'wildcards grant every group, resource and verb',
        alice,
        request('deletecollection', 'widgets', 'ws-b', { apiGroup: 'example.com' }),
        true,
      ],
      [
        'a wildcard resource covers subresources',
        alice,
        request('create', 'serviceaccounts', 'ws-z', { subresource: 'token', name: 'x' }),
        true,
      ],
      ['resource wildcards grant no non-resource path', alice, path('get', '/metrics'), false],
      [
        '*/status matches the status subresource of any resource',
        bob,
        request('update', 'deployments', 'ws-a', {
          apiGroup: 'apps',
          subresource: 'status',
          name: 'web',
        }),
        true,
      ],
      [
        '*/status does not match the resource itself',
        bob,
        request('update', 'deployments', 'ws-a', { apiGroup: 'apps', name: 'web' }),
        false,
      ],
      [
        '*/status does not match another subresource',
        bob,
        request('update', 'deployments', 'ws-a', {
          apiGroup: 'apps',
          subresource: 'scale',
          name: 'web',
        }),
        false,
      ],
      [
        'serviceaccounts/token with the named account',
        minter,
        request('create', 'serviceaccounts', 'ws-a', { subresource: 'token', name: 'builder' }),
        true,
      ],
      [
        'serviceaccounts/token with another account',
        minter,
        request('create', 'serviceaccounts', 'ws-a', { subresource: 'token', name: 'other' }),
        false,
      ],
      [
        'serviceaccounts/token does not grant serviceaccounts',
        minter,
        request('create', 'serviceaccounts', 'ws-a'),
        false,
      ],
    ]);
  });

  describe('resourceNames', () => {
    decides([
      [
        'resourceNames allow the named object',
        minter,
        request('get', 'secrets', 'ws-a', { name: 'app-config' }),
        true,
      ],
      [
        'resourceNames refuse other objects',
        minter,
        request('get', 'secrets', 'ws-a', { name: 'db-password' }),
        false,
      ],
      [
        'resourceNames never allow list without a name',
        minter,
        request('list', 'secrets', 'ws-a'),
        false,
      ],
      [
        'resourceNames never allow watch without a name',
        minter,
        request('watch', 'secrets', 'ws-a'),
        false,
      ],
      [
        'resourceNames allow a watch narrowed to the name',
        minter,
        request('watch', 'secrets', 'ws-a', { name: 'app-config' }),
        true,
      ],
    ]);
  });

  describe('non-resource URLs', () => {
    decides([
      ['an exact non-resource URL', viewer, path('get', '/healthz'), true],
      ['an exact non-resource URL is not a prefix', viewer, path('get', '/healthz/ready'), false],
      ['a non-resource URL ending in * is a prefix', viewer, path('get', '/apis/apps/v1'), true],
      ['non-resource URLs grant only their verbs', viewer, path('post', '/healthz'), false],
      [
        'non-resource URLs bound by a RoleBinding grant nothing',
        viewer,
        path('get', '/metrics'),
        false,
      ],
    ]);
  });

  describe('subjects', () => {
    decides([
      [
        'a group subject matches a member',
        dave,
        request('create', 'deployments', 'ws-a', { apiGroup: 'apps' }),
        true,
      ],
      ['the API group must match', dave, request('create', 'deployments', 'ws-a'), false],
      [
        'a ServiceAccount subject matches its namespace',
        serviceAccount('ws-b', 'robot'),
        request('get', 'pods', 'ws-c', { name: 'p' }),
        true,
      ],
      [
        'a ServiceAccount subject is no other namespace account',
        serviceAccount('ws-a', 'robot'),
        request('get', 'pods', 'ws-c', { name: 'p' }),
        false,
      ],
      [
        'a User subject is no group',
        user('someone', ['alice']),
        request('get', 'pods', 'ws-a', { name: 'p' }),
        false,
      ],
    ]);
  });

  describe('aggregated ClusterRoles', () => {
    decides([
      [
        'an aggregated role gathers matchLabels roles',
        carol,
        request('get', 'agents', 'ws-c', { apiGroup: 'paddock.dev', name: 'a' }),
        true,
      ],
      [
        'an aggregated role gathers matchExpressions roles',
        carol,
        request('list', 'tools', 'ws-c', { apiGroup: 'paddock.dev' }),
        true,
      ],
      [
        'an aggregated role gathers nothing unlabelled, nor its own rules',
        carol,
        request('delete', 'agents', 'ws-c', { apiGroup: 'paddock.dev', name: 'a' }),
        false,
      ],
      [
        'an aggregated role bound by a RoleBinding stays in its namespace',
        carol,
        request('get', 'agents', 'ws-a', { apiGroup: 'paddock.dev', name: 'a' }),
        false,
      ],
    ]);

    it('resolves nested and cyclic aggregation to the union of the reachable rules', () => {
      const rbac = source([
        clusterRole('top', [], {
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { tier: 'top' } }] },
          labels: { tier: 'middle' },
        }),
        clusterRole('middle', [], {
          aggregationRule: { clusterRoleSelectors: [{ matchLabels: { tier: 'middle' } }] },
          labels: { tier: 'top' },
        }),
        clusterRole('leaf', [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }], {
          labels: { tier: 'middle' },
        }),
        clusterRoleBinding('eve-top', 'top', [{ kind: 'User', name: 'eve' }]),
      ]);
      const eve = user('eve');
      assert.equal(
        authorize(eve, request('get', 'pods', 'ws-a', { name: 'p' }), rbac).allowed,
        true,
      );
      assert.equal(authorize(eve, request('list', 'pods', 'ws-a'), rbac).allowed, false);
    });
  });

  describe('system:masters and strangers', () => {
    decides([
      [
        'the admin may do anything',
        adminUser(),
        request('delete', 'namespaces', undefined, { name: 'ws-a' }),
        true,
      ],
      ['the admin may reach any path', adminUser(), path('get', '/metrics'), true],
      [
        'nobody else may do anything',
        user('mallory'),
        request('get', 'configmaps', 'ws-a', { name: 'x' }),
        false,
      ],
    ]);
  });

  it('names the binding that allowed a request', () => {
    assert.deepEqual(authorize(viewer, request('get', 'configmaps', 'ws-a'), world), {
      allowed: true,
      reason:
        'RBAC: allowed by RoleBinding "viewer-reads/ws-a" of Role "configmap-reader" to ServiceAccount "viewer/ws-a"',
    });
    assert.equal(
      authorize(dave, request('get', 'deployments', 'ws-a', { apiGroup: 'apps' }), world).reason,
      'RBAC: allowed by ClusterRoleBinding "developers-deploy" of ClusterRole "deployment-editor" to Group "developers"',
    );
  });
});

describe('forbidden messages', () => {
  it("words a denial as Kubernetes' 403", () => {
    const attributes = request('create', 'configmaps', 'ws-a');
    const decision = authorize(viewer, attributes, world);
    assert.deepEqual(decision, {
      allowed: false,
      reason:
        'User "system:serviceaccount:ws-a:viewer" cannot create resource "configmaps" in API group "" in the namespace "ws-a"',
    });
    assert.equal(
      forbiddenMessage(viewer, attributes),
      'configmaps is forbidden: User "system:serviceaccount:ws-a:viewer" cannot create resource "configmaps" in API group "" in the namespace "ws-a"',
    );
    assert.equal(
      forbiddenMessage(viewer, attributes, decision),
      forbiddenMessage(viewer, attributes),
    );
  });

  const messages: [name: string, who: UserInfo, attributes: RequestAttributes, expected: string][] =
    [
      [
        'a named object',
        viewer,
        request('delete', 'configmaps', 'ws-a', { name: 'settings' }),
        'configmaps "settings" is forbidden: User "system:serviceaccount:ws-a:viewer" cannot delete resource "configmaps" in API group "" in the namespace "ws-a"',
      ],
      [
        'a named group',
        viewer,
        request('delete', 'deployments', 'ws-b', { apiGroup: 'apps', name: 'web' }),
        'deployments.apps "web" is forbidden: User "system:serviceaccount:ws-a:viewer" cannot delete resource "deployments" in API group "apps" in the namespace "ws-b"',
      ],
      [
        'a subresource',
        viewer,
        request('get', 'pods', 'ws-b', { subresource: 'log', name: 'p' }),
        'pods "p" is forbidden: User "system:serviceaccount:ws-a:viewer" cannot get resource "pods/log" in API group "" in the namespace "ws-b"',
      ],
      [
        'the cluster scope',
        viewer,
        request('list', 'namespaces'),
        'namespaces is forbidden: User "system:serviceaccount:ws-a:viewer" cannot list resource "namespaces" in API group "" at the cluster scope',
      ],
      [
        'a non-resource path',
        viewer,
        path('get', '/metrics'),
        'forbidden: User "system:serviceaccount:ws-a:viewer" cannot get path "/metrics"',
      ],
      [
        'a name needing escapes',
        user('<b>"x"</b>'),
        request('get', 'pods', 'ws-a', { name: 'p' }),
        'pods "p" is forbidden: User "&lt;b&gt;\\"x\\"&lt;/b&gt;" cannot get resource "pods" in API group "" in the namespace "ws-a"',
      ],
    ];
  for (const [name, who, attributes, expected] of messages) {
    it(`words ${name}`, () => {
      assert.equal(forbiddenMessage(who, attributes), expected);
      assert.equal(authorize(who, attributes, world).allowed, false);
    });
  }

  it('adds the RBAC error of a binding whose role is missing', () => {
    const rbac = source([
      roleBinding('ws-a', 'dangling', roleRef('Role', 'gone'), [{ kind: 'User', name: 'frank' }]),
      clusterRoleBinding('dangling-cluster', 'gone-too', [{ kind: 'User', name: 'frank' }]),
    ]);
    const frank = user('frank');
    const attributes = request('list', 'pods', 'ws-a');
    const decision = authorize(frank, attributes, rbac);
    assert.equal(decision.allowed, false);
    assert.equal(
      forbiddenMessage(frank, attributes, decision),
      'pods is forbidden: User "frank" cannot list resource "pods" in API group "" in the namespace "ws-a": RBAC: [clusterrole.rbac.authorization.k8s.io "gone-too" not found, role.rbac.authorization.k8s.io "gone" not found]',
    );
  });
});

// --- who may grant what in `delegation` --------------------------------------------------------

const manager = serviceAccount('ws-a', 'manager');
const binder = serviceAccount('ws-a', 'binder');
const erin = user('erin');
const grace = user('grace');
const henry = user('henry');
const MANAGER_GROUPS =
  '["system:serviceaccounts" "system:serviceaccounts:ws-a" "system:authenticated"]';
const EVERYTHING: PolicyRule[] = [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }];

const delegation = source([
  // manager (ws-a): writes roles and bindings, reads configmaps and one secret, updates statuses.
  role('ws-a', 'manager', [
    { apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: ['create', 'update'] },
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] },
    { apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['app-config'] },
    { apiGroups: ['*'], resources: ['*/status'], verbs: ['update'] },
  ]),
  roleBinding('ws-a', 'manager', roleRef('Role', 'manager'), [
    { kind: 'ServiceAccount', name: 'manager' },
  ]),
  // Roles only ever bound in the tests below.
  role('ws-a', 'configmap-reader', [
    { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] },
  ]),
  clusterRole('pod-logs', [{ apiGroups: [''], resources: ['pods', 'pods/log'], verbs: ['get'] }]),
  clusterRole('secret-admin', [{ apiGroups: [''], resources: ['secrets'], verbs: ['*'] }]),
  clusterRole('secret-reader', [
    { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list'] },
  ]),
  // erin may escalate roles in ws-a, and the one ClusterRole named tuned.
  role('ws-a', 'escalator', [{ apiGroups: [RBAC], resources: ['roles'], verbs: ['escalate'] }]),
  roleBinding('ws-a', 'escalator', roleRef('Role', 'escalator'), [{ kind: 'User', name: 'erin' }]),
  clusterRole('tune-one', [
    {
      apiGroups: [RBAC],
      resources: ['clusterroles'],
      verbs: ['escalate'],
      resourceNames: ['tuned'],
    },
  ]),
  clusterRoleBinding('erin-tunes', 'tune-one', [{ kind: 'User', name: 'erin' }]),
  // binder (ws-a) may bind the pod-logs ClusterRole in ws-a.
  role('ws-a', 'bind-pod-logs', [
    {
      apiGroups: [RBAC],
      resources: ['clusterroles'],
      verbs: ['bind'],
      resourceNames: ['pod-logs'],
    },
  ]),
  roleBinding('ws-a', 'binder', roleRef('Role', 'bind-pod-logs'), [
    { kind: 'ServiceAccount', name: 'binder' },
  ]),
  // grace holds every resource permission; henry the common verbs on every resource, and /health*.
  clusterRole('everything', EVERYTHING),
  clusterRoleBinding('grace-everything', 'everything', [{ kind: 'User', name: 'grace' }]),
  clusterRole('broad', [
    { apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'create', 'update', 'delete'] },
  ]),
  clusterRoleBinding('henry-broad', 'broad', [{ kind: 'User', name: 'henry' }]),
  clusterRole('health', [{ nonResourceURLs: ['/health*'], verbs: ['get'] }]),
  clusterRoleBinding('henry-health', 'health', [{ kind: 'User', name: 'henry' }]),
]);

describe('role escalation', () => {
  const cases: [
    name: string,
    who: UserInfo,
    namespace: string | undefined,
    rules: PolicyRule[],
    allowed: boolean,
  ][] = [
    [
      'a subset of held rules',
      manager,
      'ws-a',
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
      true,
    ],
    [
      'a rule crossing groups beyond those held',
      manager,
      'ws-a',
      [{ apiGroups: ['', RBAC], resources: ['configmaps', 'roles'], verbs: ['get'] }],
      false,
    ],
    [
      'a named object held by name',
      manager,
      'ws-a',
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'], resourceNames: ['app-config'] }],
      true,
    ],
    [
      'every object when only one is held',
      manager,
      'ws-a',
      [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
      false,
    ],
    [
      'a subresource held through */status',
      manager,
      'ws-a',
      [{ apiGroups: ['apps'], resources: ['deployments/status'], verbs: ['update'] }],
      true,
    ],
    [
      'held rules in another namespace',
      manager,
      'ws-b',
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      false,
    ],
    [
      'a ClusterRole from namespaced permissions',
      manager,
      undefined,
      [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      false,
    ],
    ['anything with escalate on roles', erin, 'ws-a', EVERYTHING, true],
    ['escalate on roles of another namespace', erin, 'ws-b', EVERYTHING, false],
    [
      'non-resource URLs covered by a prefix',
      henry,
      undefined,
      [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
      true,
    ],
    [
      'non-resource URLs not held',
      henry,
      undefined,
      [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }],
      false,
    ],
    [
      'a ClusterRole of held cluster-wide permissions',
      henry,
      undefined,
      [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'delete'] }],
      true,
    ],
    [
      'a verb wildcard when only some verbs are held',
      henry,
      undefined,
      [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }],
      false,
    ],
    ['anything with every permission, which includes escalate', grace, 'ws-b', EVERYTHING, true],
    ['anything as the admin', adminUser(), undefined, EVERYTHING, true],
  ];
  for (const [name, who, namespace, rules, allowed] of cases) {
    it(`${allowed ? 'allows' : 'denies'}: ${name}`, () => {
      assert.equal(mayCreateRole(who, namespace, rules, delegation).allowed, allowed);
    });
  }

  it('lists the missing permissions as Kubernetes does', () => {
    const decision = mayCreateRole(
      manager,
      'ws-a',
      [
        { apiGroups: [''], resources: ['configmaps', 'secrets'], verbs: ['get', 'delete'] },
        { apiGroups: [''], resources: ['secrets'], verbs: ['list'], resourceNames: ['a', 'b'] },
      ],
      delegation,
    );
    assert.equal(decision.allowed, false);
    assert.equal(
      decision.reason,
      [
        `user "system:serviceaccount:ws-a:manager" (groups=${MANAGER_GROUPS}) is attempting to grant RBAC permissions not currently held:`,
        '{APIGroups:[""], Resources:["configmaps"], Verbs:["delete"]}',
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["a"], Verbs:["list"]}',
        '{APIGroups:[""], Resources:["secrets"], ResourceNames:["b"], Verbs:["list"]}',
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}',
      ].join('\n'),
    );
    assert.match(
      forbiddenStatusMessage(RBAC, 'roles', 'wider', decision.reason),
      /^roles\.rbac\.authorization\.k8s\.io "wider" is forbidden: user "system:serviceaccount:ws-a:manager"/,
    );
  });

  it('honours escalate limited by resourceNames only for the named role', () => {
    assert.equal(
      mayCreateRole(erin, undefined, EVERYTHING, delegation, { name: 'tuned' }).allowed,
      true,
    );
    assert.equal(
      mayCreateRole(erin, undefined, EVERYTHING, delegation, { name: 'other' }).allowed,
      false,
    );
    assert.equal(mayCreateRole(erin, undefined, EVERYTHING, delegation).allowed, false);
  });

  it('requires every permission to set an aggregationRule', () => {
    assert.equal(mayCreateRole(henry, undefined, [], delegation).allowed, true);
    assert.deepEqual(mayCreateRole(henry, undefined, [], delegation, { aggregationRule: true }), {
      allowed: false,
      reason: 'must have cluster-admin privileges to use the aggregationRule',
    });
    for (const who of [grace, adminUser()]) {
      assert.equal(
        mayCreateRole(who, undefined, [], delegation, { aggregationRule: true }).allowed,
        true,
      );
    }
  });
});

describe('binding escalation', () => {
  const cases: [
    name: string,
    who: UserInfo,
    namespace: string | undefined,
    ref: RoleRef,
    allowed: boolean,
  ][] = [
    [
      'a Role whose permissions are held',
      manager,
      'ws-a',
      roleRef('Role', 'configmap-reader'),
      true,
    ],
    [
      'a ClusterRole whose permissions are not held',
      manager,
      'ws-a',
      roleRef('ClusterRole', 'pod-logs'),
      false,
    ],
    [
      'a ClusterRole with bind on it by name',
      binder,
      'ws-a',
      roleRef('ClusterRole', 'pod-logs'),
      true,
    ],
    [
      'another ClusterRole than the one bind names',
      binder,
      'ws-a',
      roleRef('ClusterRole', 'secret-admin'),
      false,
    ],
    [
      'bind granted in another namespace',
      binder,
      'ws-b',
      roleRef('ClusterRole', 'pod-logs'),
      false,
    ],
    [
      'a ClusterRoleBinding with bind held in a namespace',
      binder,
      undefined,
      roleRef('ClusterRole', 'pod-logs'),
      false,
    ],
    [
      'a ClusterRoleBinding from namespaced permissions',
      manager,
      undefined,
      roleRef('ClusterRole', 'pod-logs'),
      false,
    ],
    [
      'a ClusterRoleBinding whose permissions are held cluster-wide',
      henry,
      undefined,
      roleRef('ClusterRole', 'secret-reader'),
      true,
    ],
    [
      'a ClusterRoleBinding of more verbs than held',
      henry,
      undefined,
      roleRef('ClusterRole', 'secret-admin'),
      false,
    ],
    [
      'a ClusterRoleBinding with every permission, which includes bind',
      grace,
      undefined,
      roleRef('ClusterRole', 'secret-admin'),
      true,
    ],
    ['anything as the admin', adminUser(), undefined, roleRef('ClusterRole', 'secret-admin'), true],
  ];
  for (const [name, who, namespace, ref, allowed] of cases) {
    it(`${allowed ? 'allows' : 'denies'}: ${name}`, () => {
      assert.equal(mayBind(who, namespace, ref, delegation).allowed, allowed);
    });
  }

  it('explains what binding the role would grant', () => {
    assert.deepEqual(mayBind(manager, 'ws-a', roleRef('ClusterRole', 'pod-logs'), delegation), {
      allowed: false,
      reason: [
        `user "system:serviceaccount:ws-a:manager" (groups=${MANAGER_GROUPS}) is attempting to grant RBAC permissions not currently held:`,
        '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
        '{APIGroups:[""], Resources:["pods/log"], Verbs:["get"]}',
      ].join('\n'),
    });
  });

  it('reports a missing role as not found', () => {
    assert.deepEqual(mayBind(manager, 'ws-a', roleRef('Role', 'nope'), delegation), {
      allowed: false,
      reason: 'roles.rbac.authorization.k8s.io "nope" not found',
      roleNotFound: true,
    });
  });

  it('takes the role rules from the given resolver', () => {
    const resolve: RoleRulesResolver = () => [
      { apiGroups: [''], resources: ['configmaps'], verbs: ['get'] },
    ];
    assert.equal(
      mayBind(manager, 'ws-a', roleRef('ClusterRole', 'elsewhere'), delegation, resolve).allowed,
      true,
    );
  });
});
