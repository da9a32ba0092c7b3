import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  isGrantActive,
  nextExpiry,
  type Condition,
  type Workspace,
  type WorkspaceSpec,
} from '@paddock/kube';
import { validateUpstream } from '@paddock/testing';
import {
  ANNOTATION_NAMESPACE_CREATED,
  ANNOTATION_OWNER_UID,
  ANNOTATION_OWNER_WORKSPACE,
  WORKSPACE_CLUSTER_ROLES,
  desiredNamespace,
  withoutStaleSpecKeys,
  desiredNetworkPolicy,
  desiredResourceQuota,
  desiredRoleBindings,
  desiredServiceAccounts,
  memberCounts,
  namespaceOwnership,
  planNamespace,
  pruneBindings,
  serviceAccountNames,
  workspaceConditions,
  workspaceLabelValue,
  type NetworkPolicyEgressRule,
  type NetworkPolicyIngressRule,
  type ObservedNamespace,
  type RoleBindingObject,
  type WorkspaceFacts,
} from '../src/workspace/index.js';
import { desiredAgentPodsPolicy } from '../src/workspace/network-policy.js';

const NOW = new Date('2030-06-01T12:00:00Z');

function workspace(spec: Partial<WorkspaceSpec> = {}, name = 'team-a'): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name, uid: `uid-${name}`, generation: 3 },
    spec: { displayName: 'Team A', namespace: { name: 'team-a', create: true }, ...spec },
  };
}

describe('the upstream schemas', () => {
  it('do refuse what Kubernetes refuses', () => {
    const policy = desiredNetworkPolicy(workspace({ networkPolicy: { isolate: true } }))?.policy;
    assert.ok(policy);
    const broken = { ...policy, spec: { ...policy.spec, egress: [{ to: [{ ipBlock: {} }] }] } };
    assert.throws(() => validateUpstream(broken), /cidr/);
  });
});

describe('the namespace', () => {
  it('carries the workspace, managed-by and environment labels, the spec’s labels, tags and annotations, and the owner', () => {
    const { namespace, ignored } = desiredNamespace(
      workspace({
        environment: 'staging',
        defaultTags: { team: 'a', cost: 'tags' },
        namespace: {
          name: 'team-a',
          create: true,
          labels: { cost: 'label' },
          annotations: { note: 'hi' },
        },
      }),
      { created: true },
    );
    assert.deepEqual(namespace, {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: {
        name: 'team-a',
        labels: {
          team: 'a',
          cost: 'label',
          'paddock.dev/workspace': 'team-a',
          'app.kubernetes.io/managed-by': 'paddock-operator',
          'paddock.dev/environment': 'staging',
        },
        annotations: {
          note: 'hi',
          'paddock.dev/owner-workspace': 'team-a',
          'paddock.dev/owner-uid': 'uid-team-a',
          'paddock.dev/namespace-created': 'true',
          'paddock.dev/spec-keys': 'labels:cost,team;annotations:note',
        },
      },
    });
    assert.deepEqual(ignored, []);
    validateUpstream(namespace);
  });

  it('defaults the environment to development and records an adopted namespace as not created', () => {
    const { namespace } = desiredNamespace(workspace(), { created: false });
    assert.equal(namespace.metadata.labels?.['paddock.dev/environment'], 'development');
    assert.equal(namespace.metadata.annotations?.[ANNOTATION_NAMESPACE_CREATED], 'false');
  });

  it('drops every reserved key from labels, annotations and tags and reports each', () => {
    const { namespace, ignored } = desiredNamespace(
      workspace({
        defaultTags: { 'paddock.dev/shared': 'true', keep: 'yes' },
        namespace: {
          name: 'team-a',
          labels: { 'paddock.dev/shared': 'true', 'paddock.dev/workspace': 'other' },
          annotations: { 'paddock.dev/owner-workspace': 'other', 'example.com/x': '1' },
        },
      }),
      { created: true },
    );
    assert.equal(namespace.metadata.labels?.['paddock.dev/shared'], undefined);
    assert.equal(namespace.metadata.labels?.['paddock.dev/workspace'], 'team-a');
    assert.equal(namespace.metadata.labels?.keep, 'yes');
    assert.equal(namespace.metadata.annotations?.[ANNOTATION_OWNER_WORKSPACE], 'team-a');
    assert.equal(namespace.metadata.annotations?.['example.com/x'], '1');
    assert.deepEqual(ignored, [
      { source: 'defaultTags', key: 'paddock.dev/shared' },
      { source: 'namespace.labels', key: 'paddock.dev/shared' },
      { source: 'namespace.labels', key: 'paddock.dev/workspace' },
      { source: 'namespace.annotations', key: 'paddock.dev/owner-workspace' },
    ]);
  });

  it('keeps the managed-by label even when the spec tries to set it', () => {
    const { namespace } = desiredNamespace(
      workspace({ defaultTags: { 'app.kubernetes.io/managed-by': 'me' } }),
      { created: true },
    );
    assert.equal(namespace.metadata.labels?.['app.kubernetes.io/managed-by'], 'paddock-operator');
  });

  it('keeps long workspace names within a label value, distinctly', () => {
    const long = 'w'.repeat(70);
    const value = workspaceLabelValue(long);
    assert.equal(value.length, 63);
    assert.notEqual(value, workspaceLabelValue(`${long}x`));
    assert.equal(workspaceLabelValue('short'), 'short');
    validateUpstream(desiredNamespace(workspace({}, long), { created: true }).namespace);
  });

  const owned = (owner?: string, extra: Record<string, string> = {}): ObservedNamespace => ({
    metadata: {
      annotations: {
        ...(owner === undefined ? {} : { [ANNOTATION_OWNER_WORKSPACE]: owner }),
        ...extra,
      },
    },
  });
  const ownershipCases: [string, ObservedNamespace | undefined, string][] = [
    ['absent', undefined, 'free'],
    ['no annotations at all', {}, 'unmanaged'],
    ['annotated by someone else, not by a Workspace', owned(undefined, { x: 'y' }), 'unmanaged'],
    ['owned by this Workspace', owned('team-a', { [ANNOTATION_OWNER_UID]: 'uid-team-a' }), 'ours'],
    [
      'owned by a deleted predecessor of the same name',
      owned('team-a', { [ANNOTATION_OWNER_UID]: 'old' }),
      'ours',
    ],
    ['owned by another Workspace', owned('team-b'), 'conflict'],
  ];
  for (const [name, namespace, expected] of ownershipCases) {
    it(`reads ownership: ${name} → ${expected}`, () => {
      assert.equal(namespaceOwnership(namespace, workspace()), expected);
    });
  }

  const planCases: [string, boolean, ObservedNamespace | undefined, unknown][] = [
    ['creates a free namespace with create', true, undefined, { action: 'create', created: true }],
    ['reports a free namespace without create as missing', false, undefined, { action: 'missing' }],
    [
      'adopts an unmanaged namespace even with create',
      true,
      {},
      { action: 'adopt', created: false },
    ],
    [
      'adopts an unmanaged namespace without create',
      false,
      {},
      { action: 'adopt', created: false },
    ],
    [
      'keeps one it created',
      false,
      owned('team-a', { [ANNOTATION_NAMESPACE_CREATED]: 'true' }),
      { action: 'update', created: true },
    ],
    [
      'keeps one it adopted as adopted',
      true,
      owned('team-a', { [ANNOTATION_NAMESPACE_CREATED]: 'false' }),
      { action: 'update', created: false },
    ],
    [
      'refuses one held by another Workspace',
      true,
      owned('team-b'),
      { action: 'conflict', owner: 'team-b' },
    ],
    [
      'waits for one being deleted',
      true,
      {
        metadata: {
          deletionTimestamp: '2030-01-01T00:00:00Z',
          annotations: { [ANNOTATION_OWNER_WORKSPACE]: 'team-a' },
        },
      },
      { action: 'terminating' },
    ],
  ];
  for (const [name, create, existing, expected] of planCases) {
    it(`plans: ${name}`, () => {
      const ws = workspace({ namespace: { name: 'team-a', create } });
      assert.deepEqual(planNamespace(ws, existing), expected);
    });
  }
});

describe('ServiceAccounts and ClusterRoles', () => {
  it('makes the three ServiceAccounts in the namespace, owned, with no automatic token', () => {
    const accounts = desiredServiceAccounts(workspace({ defaultTags: { team: 'a' } }));
    assert.deepEqual(
      accounts.map((a) => a.metadata.name),
      ['workspace-owner', 'workspace-editor', 'workspace-viewer'],
    );
    assert.deepEqual(serviceAccountNames(), {
      owner: 'workspace-owner',
      editor: 'workspace-editor',
      viewer: 'workspace-viewer',
    });
    for (const account of accounts) {
      assert.equal(account.metadata.namespace, 'team-a');
      assert.equal(account.automountServiceAccountToken, false);
      assert.equal(account.metadata.labels?.team, 'a');
      assert.equal(account.metadata.annotations?.[ANNOTATION_OWNER_UID], 'uid-team-a');
      validateUpstream(account);
    }
  });

  const allows = (role: string, group: string, resource: string, verb: string) => {
    const clusterRole = WORKSPACE_CLUSTER_ROLES.find(
      (r) => r.metadata.name === `paddock-workspace-${role}`,
    );
    assert.ok(clusterRole);
    return clusterRole.rules.some(
      (r) =>
        r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb),
    );
  };
  const permissionCases: [string, string, string, string, boolean][] = [
    ['owner', 'paddock.dev', 'agentruntimes', 'delete', true],
    ['owner', 'paddock.dev', 'toolregistries', 'create', true],
    ['owner', 'rbac.authorization.k8s.io', 'rolebindings', 'create', true],
    ['owner', 'rbac.authorization.k8s.io', 'roles', 'update', true],
    ['owner', '', 'secrets', 'get', true],
    ['owner', '', 'resourcequotas', 'update', false],
    ['owner', 'networking.k8s.io', 'networkpolicies', 'delete', false],
    ['owner', 'paddock.dev', 'workspaces', 'get', false],
    ['editor', 'paddock.dev', 'promptpacks', 'patch', true],
    ['editor', 'apps', 'deployments', 'create', true],
    ['editor', '', 'secrets', 'create', true],
    ['editor', 'rbac.authorization.k8s.io', 'rolebindings', 'create', false],
    ['editor', 'rbac.authorization.k8s.io', 'roles', 'get', false],
    ['viewer', 'paddock.dev', 'agentruntimes', 'list', true],
    ['viewer', '', 'pods', 'watch', true],
    ['viewer', '', 'pods/log', 'get', true],
    ['viewer', 'paddock.dev', 'agentruntimes', 'create', false],
    ['viewer', '', 'secrets', 'get', false],
    ['viewer', '', 'pods/exec', 'create', false],
  ];
  for (const [role, group, resource, verb, expected] of permissionCases) {
    it(`${expected ? 'lets' : 'does not let'} ${role} ${verb} ${group || 'core'}/${resource}`, () => {
      assert.equal(allows(role, group, resource, verb), expected);
    });
  }

  it('ships ClusterRoles that Kubernetes’ schema accepts', () => {
    assert.equal(WORKSPACE_CLUSTER_ROLES.length, 3);
    for (const role of WORKSPACE_CLUSTER_ROLES) validateUpstream(role);
  });
});

describe('RoleBindings', () => {
  const names = (bindings: RoleBindingObject[]) => bindings.map((b) => b.metadata.name);
  const source = (b: RoleBindingObject) => b.metadata.labels?.['paddock.dev/binding-source'];

  it('binds each ServiceAccount to its role', () => {
    const { bindings, nextExpiry: next } = desiredRoleBindings(workspace(), NOW);
    assert.deepEqual(
      bindings.map((b) => [b.metadata.name, b.roleRef.name, b.subjects]),
      [
        [
          'paddock-workspace-editor',
          'paddock-workspace-editor',
          [{ kind: 'ServiceAccount', name: 'workspace-editor', namespace: 'team-a' }],
        ],
        [
          'paddock-workspace-owner',
          'paddock-workspace-owner',
          [{ kind: 'ServiceAccount', name: 'workspace-owner', namespace: 'team-a' }],
        ],
        [
          'paddock-workspace-viewer',
          'paddock-workspace-viewer',
          [{ kind: 'ServiceAccount', name: 'workspace-viewer', namespace: 'team-a' }],
        ],
      ],
    );
    assert.equal(next, undefined);
  });

  it('binds a roleBindings entry’s groups and ServiceAccounts together, to its role', () => {
    const { bindings } = desiredRoleBindings(
      workspace({
        roleBindings: [
          {
            role: 'editor',
            groups: ['devs', 'ops', 'devs'],
            serviceAccounts: [{ name: 'ci', namespace: 'build' }],
          },
          { role: 'viewer' },
        ],
      }),
      NOW,
    );
    const entry = bindings.filter((b) => source(b) === 'roleBinding');
    assert.equal(entry.length, 1, 'an entry without subjects makes no binding');
    assert.match(entry[0]!.metadata.name, /^paddock-editor-[0-9a-f]{10}$/);
    assert.equal(entry[0]!.roleRef.name, 'paddock-workspace-editor');
    assert.deepEqual(entry[0]!.subjects, [
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'devs' },
      { kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name: 'ops' },
      { kind: 'ServiceAccount', name: 'ci', namespace: 'build' },
    ]);
  });

  it('names bindings after what they bind, whatever the order it is written in', () => {
    const a = desiredRoleBindings(
      workspace({ roleBindings: [{ role: 'owner', groups: ['x', 'y'] }] }),
      NOW,
    );
    const b = desiredRoleBindings(
      workspace({ roleBindings: [{ role: 'owner', groups: ['y', 'x'] }] }),
      NOW,
    );
    const c = desiredRoleBindings(
      workspace({ roleBindings: [{ role: 'viewer', groups: ['x', 'y'] }] }),
      NOW,
    );
    assert.deepEqual(names(a.bindings), names(b.bindings));
    assert.notDeepEqual(names(a.bindings), names(c.bindings));
    for (const binding of a.bindings) assert.ok(binding.metadata.name.length <= 63);
  });

  const grantCases: [string, string | undefined, boolean][] = [
    ['without expiry', undefined, true],
    ['expiring later', '2030-06-01T12:00:01Z', true],
    ['expiring later, in another offset', '2030-06-01T13:30:00+01:00', true],
    ['expiring exactly now', '2030-06-01T12:00:00Z', false],
    ['expired', '2030-05-31T00:00:00Z', false],
    ['with an unparseable expiry', 'next tuesday', false],
    ['with a date that does not exist', '2031-02-30T00:00:00Z', false],
    ['with a non-RFC 3339 date', 'June 2, 2031', false],
  ];
  for (const [name, expires, active] of grantCases) {
    it(`${active ? 'binds' : 'does not bind'} a direct grant ${name}`, () => {
      const grant = {
        user: 'alice@example.com',
        role: 'editor' as const,
        ...(expires && { expires }),
      };
      assert.equal(isGrantActive(grant, NOW), active);
      const { bindings } = desiredRoleBindings(workspace({ directGrants: [grant] }), NOW);
      const granted = bindings.filter((b) => source(b) === 'directGrant');
      assert.equal(granted.length, active ? 1 : 0);
      if (active) {
        assert.deepEqual(granted[0]!.subjects, [
          { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice@example.com' },
        ]);
        assert.equal(granted[0]!.roleRef.name, 'paddock-workspace-editor');
        assert.equal(granted[0]!.metadata.annotations?.['paddock.dev/expires'], expires);
      }
    });
  }

  it('makes one binding for repeated grants of one role to one user, ending with the last', () => {
    const { bindings } = desiredRoleBindings(
      workspace({
        directGrants: [
          { user: 'bob', role: 'viewer', expires: '2030-06-02T00:00:00Z' },
          { user: 'bob', role: 'viewer', expires: '2030-06-05T00:00:00Z' },
          { user: 'bob', role: 'owner', expires: '2030-06-03T00:00:00Z' },
        ],
      }),
      NOW,
    );
    const granted = bindings.filter((b) => source(b) === 'directGrant');
    assert.deepEqual(
      granted.map((b) => [b.roleRef.name, b.metadata.annotations?.['paddock.dev/expires']]).sort(),
      [
        ['paddock-workspace-owner', '2030-06-03T00:00:00Z'],
        ['paddock-workspace-viewer', '2030-06-05T00:00:00Z'],
      ],
    );
  });

  const expiryCases: [string, (string | undefined)[], string | undefined][] = [
    ['no grants', [], undefined],
    ['only permanent grants', [undefined], undefined],
    [
      'the earliest future expiry',
      ['2030-07-01T00:00:00Z', '2030-06-01T12:05:00Z', '2030-06-10T00:00:00Z'],
      '2030-06-01T12:05:00.000Z',
    ],
    [
      'past, present and unparseable expiries ignored',
      ['2030-01-01T00:00:00Z', '2030-06-01T12:00:00Z', 'soon', '2030-06-02T00:00:00Z'],
      '2030-06-02T00:00:00.000Z',
    ],
  ];
  for (const [name, expiries, expected] of expiryCases) {
    it(`reports the next expiry: ${name}`, () => {
      const directGrants = expiries.map((expires) => ({
        user: 'u',
        role: 'viewer' as const,
        ...(expires && { expires }),
      }));
      assert.equal(nextExpiry(directGrants, NOW)?.toISOString(), expected);
      assert.equal(
        desiredRoleBindings(workspace({ directGrants }), NOW).nextExpiry?.toISOString(),
        expected,
      );
    });
  }

  it('prunes only its own bindings that are no longer desired', () => {
    const ws = workspace({
      directGrants: [{ user: 'carol', role: 'viewer', expires: '2030-06-01T12:30:00Z' }],
    });
    const before = desiredRoleBindings(ws, NOW).bindings;
    const after = desiredRoleBindings(ws, new Date('2030-06-01T12:30:00Z')).bindings;
    const foreign = { metadata: { name: 'someone-elses', labels: { team: 'a' } } };
    const otherWorkspace = desiredRoleBindings(workspace({}, 'team-b'), NOW).bindings[0]!;
    const existing = [
      ...before,
      foreign,
      { ...otherWorkspace, metadata: { ...otherWorkspace.metadata, name: 'x' } },
    ];
    const pruned = pruneBindings(existing, after, ws);
    assert.deepEqual(
      names(pruned as RoleBindingObject[]),
      names(before.filter((b) => source(b) === 'directGrant')),
    );
    assert.deepEqual(pruneBindings(before, before, ws), []);
  });

  it('generates RoleBindings that Kubernetes’ schema accepts', () => {
    const { bindings } = desiredRoleBindings(
      workspace({
        defaultTags: { team: 'a' },
        roleBindings: [
          {
            role: 'owner',
            groups: ['admins'],
            serviceAccounts: [{ name: 'bot', namespace: 'tools' }],
          },
        ],
        directGrants: [{ user: 'dave', role: 'viewer', expires: '2031-01-01T00:00:00Z' }],
      }),
      NOW,
    );
    assert.equal(bindings.length, 5);
    for (const binding of bindings) validateUpstream(binding);
  });
});

describe('member counts', () => {
  const cases: [
    string,
    Partial<WorkspaceSpec>,
    { owners: number; editors: number; viewers: number },
  ][] = [
    ['none', {}, { owners: 0, editors: 0, viewers: 0 }],
    [
      'distinct groups, ServiceAccounts and users',
      {
        roleBindings: [
          { role: 'owner', groups: ['admins'] },
          {
            role: 'editor',
            groups: ['devs', 'devs'],
            serviceAccounts: [{ name: 'ci', namespace: 'b' }],
          },
          { role: 'viewer', serviceAccounts: [{ name: 'ci', namespace: 'other' }] },
        ],
        directGrants: [{ user: 'eve', role: 'viewer' }],
      },
      { owners: 1, editors: 2, viewers: 2 },
    ],
    [
      'a subject in several roles once, under its highest',
      {
        roleBindings: [
          { role: 'viewer', groups: ['devs'] },
          { role: 'editor', groups: ['devs'] },
        ],
        directGrants: [
          { user: 'frank', role: 'viewer' },
          { user: 'frank', role: 'owner' },
        ],
      },
      { owners: 1, editors: 1, viewers: 0 },
    ],
    [
      'a group and a user of the same name as two members',
      {
        roleBindings: [{ role: 'viewer', groups: ['sam'] }],
        directGrants: [{ user: 'sam', role: 'viewer' }],
      },
      { owners: 0, editors: 0, viewers: 2 },
    ],
    [
      'expired and unparseable grants not counted',
      {
        directGrants: [
          { user: 'gone', role: 'owner', expires: '2030-06-01T12:00:00Z' },
          { user: 'odd', role: 'owner', expires: 'never' },
          { user: 'still', role: 'editor', expires: '2030-06-01T12:00:01Z' },
        ],
      },
      { owners: 0, editors: 1, viewers: 0 },
    ],
    [
      'anonymous access not counted',
      { anonymousAccess: { enabled: true, role: 'viewer' } },
      { owners: 0, editors: 0, viewers: 0 },
    ],
  ];
  for (const [name, spec, expected] of cases) {
    it(`counts ${name}`, () => {
      assert.deepEqual(memberCounts(workspace(spec), NOW), expected);
    });
  }
});

describe('the ResourceQuota', () => {
  it('maps compute, objects and AgentRuntimes onto hard limits', () => {
    const quota = desiredResourceQuota(
      workspace({
        quotas: {
          compute: { requests: { cpu: '4', memory: '8Gi' }, limits: { cpu: 8, memory: '16Gi' } },
          objects: { configmaps: 50, secrets: 20, persistentvolumeclaims: 0 },
          agents: { maxAgentRuntimes: 5, maxReplicasPerAgent: 3 },
          arena: { maxConcurrentJobs: 2 },
        },
      }),
    );
    assert.ok(quota);
    assert.equal(quota.metadata.name, 'workspace-quota');
    assert.equal(quota.metadata.namespace, 'team-a');
    assert.deepEqual(quota.spec.hard, {
      'requests.cpu': '4',
      'requests.memory': '8Gi',
      'limits.cpu': '8',
      'limits.memory': '16Gi',
      configmaps: '50',
      secrets: '20',
      persistentvolumeclaims: '0',
      'count/agentruntimes.paddock.dev': '5',
    });
    validateUpstream(quota);
  });

  it('sets only what is given', () => {
    const quota = desiredResourceQuota(workspace({ quotas: { objects: { secrets: 3 } } }));
    assert.deepEqual(quota?.spec.hard, { secrets: '3' });
  });

  const noneCases: [string, Partial<WorkspaceSpec>][] = [
    ['no quotas', {}],
    ['empty quotas', { quotas: { compute: {}, objects: {} } }],
    [
      'only limits enforced elsewhere',
      { quotas: { arena: { maxJobsPerDay: 3 }, agents: { maxReplicasPerAgent: 2 } } },
    ],
  ];
  for (const [name, spec] of noneCases) {
    it(`makes none with ${name}`, () => {
      assert.equal(desiredResourceQuota(workspace(spec)), undefined);
    });
  }
});

describe('the isolation NetworkPolicy', () => {
  const policyOf = (networkPolicy: WorkspaceSpec['networkPolicy'], platformNamespace?: string) => {
    const desired = desiredNetworkPolicy(
      workspace({ networkPolicy }),
      platformNamespace === undefined ? {} : { platformNamespace },
    );
    assert.ok(desired);
    validateUpstream(desired.policy);
    return desired;
  };
  const DNS: NetworkPolicyEgressRule = {
    to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } } }],
    ports: [
      { protocol: 'UDP', port: 53 },
      { protocol: 'TCP', port: 53 },
    ],
  };
  const SHARED = { namespaceSelector: { matchLabels: { 'paddock.dev/shared': 'true' } } };
  const PLATFORM: NetworkPolicyIngressRule = {
    from: [
      { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'paddock-system' } } },
    ],
  };
  const EXTERNAL: NetworkPolicyEgressRule = {
    to: [
      { ipBlock: { cidr: '0.0.0.0/0', except: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'] } },
      { ipBlock: { cidr: '::/0', except: ['fc00::/7'] } },
    ],
  };

  it('makes none unless isolate is true', () => {
    assert.equal(desiredNetworkPolicy(workspace()), undefined);
    assert.equal(desiredNetworkPolicy(workspace({ networkPolicy: { isolate: false } })), undefined);
  });

  it('with the defaults: DNS, own namespace, shared namespaces, the platform, the internet less private ranges', () => {
    const { policy, rulesCount, ignored } = policyOf({ isolate: true });
    assert.equal(policy.metadata.name, 'workspace-team-a-isolation');
    assert.equal(policy.metadata.namespace, 'team-a');
    // Every pod but the agents', which their own policies select (docs/decisions/0023).
    assert.deepEqual(policy.spec.podSelector, {
      matchExpressions: [{ key: 'paddock.dev/agent', operator: 'DoesNotExist' }],
    });
    assert.deepEqual(policy.spec.policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual(policy.spec.ingress, [
      { from: [{ podSelector: {} }] },
      { from: [SHARED] },
      PLATFORM,
    ]);
    assert.deepEqual(policy.spec.egress, [
      DNS,
      { to: [{ podSelector: {} }] },
      { to: [SHARED] },
      EXTERNAL,
    ]);
    assert.equal(rulesCount, 7);
    assert.deepEqual(ignored, []);
  });

  it('rule 1: always allows DNS to the system namespace on 53 UDP and TCP', () => {
    const closed = policyOf({
      isolate: true,
      allowExternalAPIs: false,
      allowSharedNamespaces: false,
    });
    assert.deepEqual(closed.policy.spec.egress[0], DNS);
  });

  it('rule 2: always allows the own namespace both ways', () => {
    const closed = policyOf({
      isolate: true,
      allowExternalAPIs: false,
      allowSharedNamespaces: false,
    });
    assert.deepEqual(closed.policy.spec.ingress[0], { from: [{ podSelector: {} }] });
    assert.deepEqual(closed.policy.spec.egress[1], { to: [{ podSelector: {} }] });
  });

  it('rule 3: shared namespaces both ways only with allowSharedNamespaces', () => {
    const on = policyOf({ isolate: true, allowSharedNamespaces: true });
    assert.ok(
      on.policy.spec.ingress.some((r) => JSON.stringify(r.from) === JSON.stringify([SHARED])),
    );
    assert.ok(on.policy.spec.egress.some((r) => JSON.stringify(r.to) === JSON.stringify([SHARED])));
    const off = policyOf({ isolate: true, allowSharedNamespaces: false });
    assert.ok(!JSON.stringify(off.policy).includes('paddock.dev/shared'));
    assert.equal(off.rulesCount, on.rulesCount - 2);
  });

  it('rule 4: internet egress less the private ranges only with allowExternalAPIs', () => {
    assert.deepEqual(
      policyOf({ isolate: true, allowExternalAPIs: true }).policy.spec.egress.at(-1),
      EXTERNAL,
    );
    const off = policyOf({ isolate: true, allowExternalAPIs: false });
    assert.ok(!JSON.stringify(off.policy).includes('ipBlock'));
    assert.deepEqual(off.policy.spec.egress, [
      DNS,
      { to: [{ podSelector: {} }] },
      { to: [SHARED] },
    ]);
    assert.equal(off.rulesCount, 6);
  });

  it('rule 5: allowPrivateNetworks drops the exclusions, or alone opens only the private ranges', () => {
    const both = policyOf({ isolate: true, allowExternalAPIs: true, allowPrivateNetworks: true });
    assert.deepEqual(both.policy.spec.egress.at(-1), {
      to: [{ ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '::/0' } }],
    });
    const privateOnly = policyOf({
      isolate: true,
      allowExternalAPIs: false,
      allowPrivateNetworks: true,
    });
    assert.deepEqual(privateOnly.policy.spec.egress.at(-1), {
      to: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'].map((cidr) => ({
        ipBlock: { cidr },
      })),
    });
  });

  it('rule 6: appends allowFrom as ingress and allowTo as egress, ports defaulting to TCP', () => {
    const { policy, rulesCount } = policyOf({
      isolate: true,
      allowFrom: [
        {
          peers: [
            {
              namespaceSelector: { matchLabels: { team: 'b' } },
              podSelector: { matchLabels: { app: 'web' } },
            },
          ],
          ports: [{ port: 8080 }],
        },
      ],
      allowTo: [
        {
          peers: [{ ipBlock: { cidr: '10.1.0.0/16', except: ['10.1.2.0/24'] } }],
          ports: [{ protocol: 'UDP', port: 5000 }],
        },
        { ports: [{ port: 443 }] },
        { peers: [{ podSelector: {} }] },
      ],
    });
    assert.deepEqual(policy.spec.ingress.at(-1), {
      from: [
        {
          namespaceSelector: { matchLabels: { team: 'b' } },
          podSelector: { matchLabels: { app: 'web' } },
        },
      ],
      ports: [{ protocol: 'TCP', port: 8080 }],
    });
    assert.deepEqual(policy.spec.egress.slice(-3), [
      {
        to: [{ ipBlock: { cidr: '10.1.0.0/16', except: ['10.1.2.0/24'] } }],
        ports: [{ protocol: 'UDP', port: 5000 }],
      },
      { ports: [{ protocol: 'TCP', port: 443 }] },
      { to: [{ podSelector: {} }] },
    ]);
    assert.equal(rulesCount, 7 + 1 + 3);
  });

  it('leaves out peers Kubernetes would refuse, and never widens a rule left without peers', () => {
    const { policy, rulesCount, ignored } = policyOf({
      isolate: true,
      allowTo: [
        {
          peers: [{ ipBlock: { cidr: '10.0.0.0/8' }, podSelector: {} }, {}],
          ports: [{ port: 22 }],
        },
        { peers: [{}, { ipBlock: { cidr: '192.168.1.0/24' } }] },
      ],
    });
    assert.deepEqual(policy.spec.egress.at(-1), { to: [{ ipBlock: { cidr: '192.168.1.0/24' } }] });
    assert.equal(rulesCount, 8);
    assert.deepEqual(
      ignored.map(({ field, rule, peer }) => [field, rule, peer]),
      [
        ['allowTo', 0, 0],
        ['allowTo', 0, 1],
        ['allowTo', 1, 0],
      ],
    );
  });

  it('has a counterpart for agent-labelled pods: no ingress of its own, the same egress', () => {
    assert.equal(desiredAgentPodsPolicy(workspace()), undefined);
    const settings = { isolate: true, allowTo: [{ ports: [{ port: 443 }] }] };
    const policy = desiredAgentPodsPolicy(workspace({ networkPolicy: settings }));
    assert.ok(policy);
    validateUpstream(policy);
    assert.equal(policy.metadata.name, 'workspace-team-a-agent-pods');
    assert.equal(policy.metadata.annotations?.['paddock.dev/owner-workspace'], 'team-a');
    assert.deepEqual(policy.spec.podSelector, {
      matchExpressions: [{ key: 'paddock.dev/agent', operator: 'Exists' }],
    });
    assert.deepEqual(policy.spec.ingress, []);
    assert.deepEqual(policy.spec.egress, policyOf(settings).policy.spec.egress);
  });

  it('lets the platform’s namespace in, whatever it is called', () => {
    const { policy } = policyOf({ isolate: true }, 'paddock');
    assert.deepEqual(policy.spec.ingress[2], {
      from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'paddock' } } }],
    });
  });
});

describe('phase and conditions', () => {
  const ready: WorkspaceFacts = {
    namespace: { name: 'team-a', state: 'created' },
    serviceAccounts: { ready: true },
    roleBindings: { ready: true },
  };
  const summary = (facts: WorkspaceFacts) => {
    const { phase, conditions } = workspaceConditions(facts, { now: NOW, generation: 3 });
    return [phase, Object.fromEntries(conditions.map((c) => [c.type, `${c.status}:${c.reason}`]))];
  };

  const cases: [string, WorkspaceFacts, unknown][] = [
    [
      'ready with a created namespace, no isolation',
      ready,
      [
        'Ready',
        {
          Ready: 'True:WorkspaceReady',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'True:RoleBindingsApplied',
        },
      ],
    ],
    [
      'ready with an adopted namespace and isolation',
      { ...ready, namespace: { name: 'team-a', state: 'adopted' }, networkPolicy: { ready: true } },
      [
        'Ready',
        {
          Ready: 'True:WorkspaceReady',
          NamespaceReady: 'True:NamespaceAdopted',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'True:RoleBindingsApplied',
          NetworkPolicyReady: 'True:NetworkPolicyApplied',
        },
      ],
    ],
    [
      'a missing namespace is an error and holds the rest back',
      {
        ...ready,
        namespace: { name: 'team-a', state: 'missing' },
        serviceAccounts: { ready: false },
        roleBindings: { ready: false },
      },
      [
        'Error',
        {
          Ready: 'False:NamespaceMissing',
          NamespaceReady: 'False:NamespaceMissing',
          ServiceAccountsReady: 'False:NamespaceNotReady',
          RoleBindingsReady: 'False:NamespaceNotReady',
        },
      ],
    ],
    [
      'a namespace of another Workspace is a conflict',
      { ...ready, namespace: { name: 'team-a', state: 'conflict', owner: 'team-b' } },
      [
        'Error',
        {
          Ready: 'False:NamespaceConflict',
          NamespaceReady: 'False:NamespaceConflict',
          ServiceAccountsReady: 'False:NamespaceNotReady',
          RoleBindingsReady: 'False:NamespaceNotReady',
        },
      ],
    ],
    [
      'a namespace being created is pending',
      { ...ready, namespace: { name: 'team-a', state: 'pending' } },
      [
        'Pending',
        {
          Ready: 'False:Pending',
          NamespaceReady: 'False:NamespaceCreating',
          ServiceAccountsReady: 'False:NamespaceNotReady',
          RoleBindingsReady: 'False:NamespaceNotReady',
        },
      ],
    ],
    [
      'a namespace that could not be created is an error',
      { ...ready, namespace: { name: 'team-a', state: 'pending', error: 'forbidden' } },
      [
        'Error',
        {
          Ready: 'False:NamespaceFailed',
          NamespaceReady: 'False:NamespaceFailed',
          ServiceAccountsReady: 'False:NamespaceNotReady',
          RoleBindingsReady: 'False:NamespaceNotReady',
        },
      ],
    ],
    [
      'a namespace being deleted is pending',
      { ...ready, namespace: { name: 'team-a', state: 'terminating' } },
      [
        'Pending',
        {
          Ready: 'False:Pending',
          NamespaceReady: 'False:NamespaceTerminating',
          ServiceAccountsReady: 'False:NamespaceNotReady',
          RoleBindingsReady: 'False:NamespaceNotReady',
        },
      ],
    ],
    [
      'ServiceAccounts not yet made are pending',
      { ...ready, serviceAccounts: { ready: false } },
      [
        'Pending',
        {
          Ready: 'False:Pending',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'False:ServiceAccountsPending',
          RoleBindingsReady: 'True:RoleBindingsApplied',
        },
      ],
    ],
    [
      'failed RoleBindings are an error',
      { ...ready, roleBindings: { ready: false, error: 'roleRef is immutable' } },
      [
        'Error',
        {
          Ready: 'False:RoleBindingsFailed',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'False:RoleBindingsFailed',
        },
      ],
    ],
    [
      'a NetworkPolicy not yet applied is pending',
      { ...ready, networkPolicy: { ready: false } },
      [
        'Pending',
        {
          Ready: 'False:Pending',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'True:RoleBindingsApplied',
          NetworkPolicyReady: 'False:NetworkPolicyPending',
        },
      ],
    ],
    [
      'a failed NetworkPolicy is an error',
      { ...ready, networkPolicy: { ready: false, error: 'denied' } },
      [
        'Error',
        {
          Ready: 'False:NetworkPolicyFailed',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'True:RoleBindingsApplied',
          NetworkPolicyReady: 'False:NetworkPolicyFailed',
        },
      ],
    ],
    [
      'suspension wins over ready',
      { ...ready, suspended: 'Daily budget exceeded.' },
      [
        'Suspended',
        {
          Ready: 'False:Suspended',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'True:RoleBindingsApplied',
        },
      ],
    ],
    [
      'suspension wins over an error',
      {
        ...ready,
        roleBindings: { ready: false, error: 'x' },
        suspended: 'Monthly budget exceeded.',
      },
      [
        'Suspended',
        {
          Ready: 'False:Suspended',
          NamespaceReady: 'True:NamespaceCreated',
          ServiceAccountsReady: 'True:ServiceAccountsCreated',
          RoleBindingsReady: 'False:RoleBindingsFailed',
        },
      ],
    ],
  ];
  for (const [name, facts, expected] of cases) {
    it(`reports ${name}`, () => {
      assert.deepEqual(summary(facts), expected);
    });
  }

  it('writes the standard condition shape, with messages that name the namespace and owner', () => {
    const { conditions } = workspaceConditions(
      { ...ready, namespace: { name: 'team-a', state: 'conflict', owner: 'team-b' } },
      { now: NOW, generation: 7 },
    );
    const namespace = conditions.find((c) => c.type === 'NamespaceReady');
    assert.deepEqual(namespace, {
      type: 'NamespaceReady',
      status: 'False',
      reason: 'NamespaceConflict',
      message: 'Namespace team-a belongs to Workspace team-b.',
      lastTransitionTime: '2030-06-01T12:00:00Z',
      observedGeneration: 7,
    });
    assert.equal(conditions[0]?.type, 'Ready');
  });

  it('keeps lastTransitionTime while a status holds and moves it when the status changes', () => {
    const earlier = new Date('2030-05-01T00:00:00Z');
    const first = workspaceConditions(
      { ...ready, serviceAccounts: { ready: false } },
      { now: earlier },
    );
    const second = workspaceConditions(ready, { now: NOW, previous: first.conditions });
    const at = (conditions: Condition[], type: string) =>
      conditions.find((c) => c.type === type)?.lastTransitionTime;
    assert.equal(at(second.conditions, 'NamespaceReady'), '2030-05-01T00:00:00Z');
    assert.equal(at(second.conditions, 'ServiceAccountsReady'), '2030-06-01T12:00:00Z');
    assert.equal(at(second.conditions, 'Ready'), '2030-06-01T12:00:00Z');
    const third = workspaceConditions(ready, {
      now: new Date('2030-07-01T00:00:00Z'),
      previous: second.conditions,
    });
    assert.deepEqual(third.conditions, second.conditions);
  });
});

describe('keys removed from the spec', () => {
  it('are removed from the namespace; keys others set are kept', () => {
    const before = desiredNamespace(
      workspace({
        defaultTags: { team: 'blue' },
        namespace: { name: 'ns', labels: { tier: 'gold' }, annotations: { contact: 'x' } },
      }),
      { created: true },
    ).namespace;
    const existing = {
      ...before,
      metadata: { ...before.metadata, labels: { ...before.metadata.labels, mine: 'yes' } },
    };
    const after = desiredNamespace(
      workspace({ namespace: { name: 'ns', labels: { tier: 'gold' } } }),
      { created: true },
    ).namespace;
    const pruned = withoutStaleSpecKeys(existing, after);
    assert.ok(pruned);
    assert.equal(pruned.metadata.labels?.team, undefined);
    assert.equal(pruned.metadata.labels?.tier, 'gold');
    assert.equal(pruned.metadata.labels?.mine, 'yes');
    assert.equal(pruned.metadata.annotations?.contact, undefined);
    assert.equal(withoutStaleSpecKeys(existing, before), undefined);
  });
});
