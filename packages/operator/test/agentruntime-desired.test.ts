import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  DEFAULT_AGENT_IMAGE,
  podDnsName,
  type AgentRuntime,
  type AgentRuntimeSpec,
  type Workspace,
} from '@paddock/kube';
import { validateUpstream } from '@paddock/testing';
import {
  agentNameProblem,
  agentSelector,
  agentStatus,
  agentWorkspace,
  desiredAgentNetworkPolicy,
  desiredService,
  desiredStatefulSet,
  effectiveReplicas,
  type AgentNetworkPolicyObject,
  type AgentWorkspace,
  type ObservedPod,
  type ObservedStatefulSet,
  type PromptPackVersion,
  type StatefulSetObject,
} from '../src/agentruntime/index.js';
import { desiredNetworkPolicy } from '../src/workspace/index.js';

const NOW = new Date('2030-06-01T12:00:00Z');
const LATER = new Date('2030-06-01T12:05:00Z');
const PACK: PromptPackVersion = { name: 'sample-prompts', version: '41' };
const WS: AgentWorkspace = { name: 'team-a' };

function agent(spec: Partial<AgentRuntimeSpec> = {}, name = 'coder'): AgentRuntime {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: { name, namespace: 'team-a', uid: `uid-${name}`, generation: 4 },
    spec: { promptPackRef: { name: 'sample-prompts' }, ...spec },
  };
}

/** Frozen all the way down: a pure function that writes to its input throws. */
function frozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) frozen(child);
    Object.freeze(value);
  }
  return value;
}

function workloads(
  spec: Partial<AgentRuntimeSpec>,
  workspace: AgentWorkspace = WS,
  promptPack: PromptPackVersion | undefined = PACK,
) {
  const input = frozen(agent(spec));
  const statefulSet = desiredStatefulSet({ agent: input, workspace, promptPack });
  const service = desiredService(input, workspace.name);
  validateUpstream(statefulSet);
  validateUpstream(service);
  return { statefulSet, service, container: statefulSet.spec.template.spec.containers[0] };
}

describe('the upstream schemas', () => {
  it('do refuse what Kubernetes refuses', () => {
    const { statefulSet } = workloads({});
    const broken = { ...statefulSet, spec: { ...statefulSet.spec, replicas: '2' } };
    assert.throws(() => validateUpstream(broken), /replicas/);
    const misspelt = {
      ...statefulSet,
      spec: {
        ...statefulSet.spec,
        template: {
          ...statefulSet.spec.template,
          spec: { ...statefulSet.spec.template.spec, automountServiceAccountTokens: false },
        },
      },
    };
    assert.throws(
      () => validateUpstream(misspelt),
      /\.spec\.template\.spec\.automountServiceAccountTokens/,
    );
  });
});

describe('the desired StatefulSet', () => {
  it('runs the defaults: one sandbox replica, every feature, the restricted profile, a 10Gi workspace', () => {
    const { statefulSet, container } = workloads({});
    const labels = {
      'app.kubernetes.io/name': 'paddock-agent',
      'paddock.dev/agent': 'coder',
      'app.kubernetes.io/instance': 'coder',
      'app.kubernetes.io/component': 'agent',
      'app.kubernetes.io/part-of': 'paddock',
      'app.kubernetes.io/managed-by': 'paddock-operator',
      'paddock.dev/workspace': 'team-a',
    };
    assert.deepEqual(statefulSet.metadata, {
      name: 'coder',
      namespace: 'team-a',
      labels,
      ownerReferences: [
        {
          apiVersion: 'paddock.dev/v1alpha1',
          kind: 'AgentRuntime',
          name: 'coder',
          uid: 'uid-coder',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    });
    const { spec } = statefulSet;
    assert.equal(spec.replicas, 1);
    assert.equal(spec.serviceName, 'coder');
    assert.deepEqual(spec.selector, {
      matchLabels: { 'app.kubernetes.io/name': 'paddock-agent', 'paddock.dev/agent': 'coder' },
    });
    assert.deepEqual(spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: 'Delete',
      whenScaled: 'Retain',
    });
    assert.deepEqual(spec.template.metadata, {
      labels,
      annotations: { 'paddock.dev/prompt-pack': 'sample-prompts@41' },
    });
    const pod = spec.template.spec;
    assert.equal(pod.automountServiceAccountToken, false);
    assert.deepEqual(pod.securityContext, {
      runAsNonRoot: true,
      runAsUser: 10001,
      runAsGroup: 10001,
      fsGroup: 10001,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    assert.deepEqual(pod.volumes, [
      { name: 'tmp', emptyDir: { sizeLimit: '1Gi' } },
      { name: 'home', emptyDir: { sizeLimit: '2Gi' } },
    ]);
    assert.equal(pod.containers.length, 1);
    assert.equal(container.name, 'sandbox');
    assert.equal(container.image, DEFAULT_AGENT_IMAGE);
    assert.deepEqual(container.args, [
      '-addr',
      '0.0.0.0:7070',
      '-allow-unauthenticated-mcp',
      '-api-addr',
      '0.0.0.0:7071',
      '-enable-api',
      '-enable-exec',
      '-enable-port-forward',
      '-enable-ssh',
      '-workspace',
      '/workspace',
    ]);
    assert.deepEqual(container.ports, [
      { name: 'mcp', containerPort: 7070, protocol: 'TCP' },
      { name: 'api', containerPort: 7071, protocol: 'TCP' },
    ]);
    assert.deepEqual(container.readinessProbe.httpGet, { path: '/readyz', port: 'mcp' });
    assert.deepEqual(container.livenessProbe.httpGet, { path: '/healthz', port: 'mcp' });
    assert.deepEqual(container.securityContext, {
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    assert.deepEqual(container.volumeMounts, [
      { name: 'workspace', mountPath: '/workspace' },
      { name: 'tmp', mountPath: '/tmp' },
      { name: 'home', mountPath: '/home/sandbox' },
    ]);
    assert.deepEqual(container.resources, {
      requests: { cpu: '250m', memory: '256Mi' },
      limits: { cpu: '1', memory: '1Gi' },
    });
    assert.deepEqual(container.env, [
      { name: 'PADDOCK_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'SVC_API_PROOF_AUDIENCE', value: '$(PADDOCK_POD_NAME).coder.team-a.svc' },
      {
        name: 'SVC_API_PROOF_PUBLIC_KEY',
        valueFrom: { secretKeyRef: { name: 'paddock-sandbox-proof', key: 'public-key' } },
      },
      { name: 'SVC_LOG_FORMAT', value: 'json' },
      { name: 'HOME', value: '/home/sandbox' },
    ]);
    assert.deepEqual(spec.volumeClaimTemplates, [
      {
        metadata: {
          name: 'workspace',
          labels: { 'app.kubernetes.io/name': 'paddock-agent', 'paddock.dev/agent': 'coder' },
        },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
      },
    ]);
  });

  const replicaCases: {
    name: string;
    replicas?: number;
    workspace: AgentWorkspace;
    runs: number;
    limited: 'True' | 'False';
    paused: 'True' | 'False';
  }[] = [
    {
      name: 'spec.replicas as asked',
      replicas: 3,
      workspace: WS,
      runs: 3,
      limited: 'False',
      paused: 'False',
    },
    { name: 'the default of 1', workspace: WS, runs: 1, limited: 'False', paused: 'False' },
    { name: 'zero asked', replicas: 0, workspace: WS, runs: 0, limited: 'False', paused: 'False' },
    {
      name: 'capped by maxReplicasPerAgent',
      replicas: 5,
      workspace: { ...WS, maxReplicasPerAgent: 2 },
      runs: 2,
      limited: 'True',
      paused: 'False',
    },
    {
      name: 'at the cap exactly',
      replicas: 2,
      workspace: { ...WS, maxReplicasPerAgent: 2 },
      runs: 2,
      limited: 'False',
      paused: 'False',
    },
    {
      name: 'a cap of zero',
      replicas: 1,
      workspace: { ...WS, maxReplicasPerAgent: 0 },
      runs: 0,
      limited: 'True',
      paused: 'False',
    },
    {
      name: 'paused by the budget',
      replicas: 3,
      workspace: { ...WS, pause: { reason: 'BudgetExceeded', message: 'Daily budget spent.' } },
      runs: 0,
      limited: 'False',
      paused: 'True',
    },
    {
      name: 'paused and over the cap',
      replicas: 5,
      workspace: {
        ...WS,
        maxReplicasPerAgent: 2,
        pause: { reason: 'BudgetExceeded', message: 'Daily budget spent.' },
      },
      runs: 0,
      limited: 'True',
      paused: 'True',
    },
  ];
  for (const c of replicaCases) {
    it(`runs ${c.runs} replicas: ${c.name}, and never rewrites spec.replicas`, () => {
      const spec = c.replicas === undefined ? {} : { replicas: c.replicas };
      const { statefulSet } = workloads(spec, c.workspace);
      assert.equal(statefulSet.spec.replicas, c.runs);
      const input = frozen(agent(spec));
      const effective = effectiveReplicas(input, c.workspace);
      assert.equal(effective.replicas, c.runs);
      assert.deepEqual(
        effective.conditions.map((x) => `${x.type}=${x.status}`),
        [`ReplicasLimited=${c.limited}`, `Paused=${c.paused}`, `RunsBlocked=False`],
      );
      assert.equal(input.spec.replicas, c.replicas);
      if (c.paused === 'True') {
        assert.equal(effective.conditions[1].reason, 'BudgetExceeded');
        assert.equal(effective.conditions[1].message, 'Daily budget spent.');
      }
      if (c.limited === 'True')
        assert.match(effective.conditions[0].message, /at most \d per agent/);
    });
  }

  const resourceCases: {
    name: string;
    resources: AgentRuntimeSpec['resources'];
    requests: { cpu: string; memory: string };
    limits: { cpu: string; memory: string };
  }[] = [
    {
      name: 'both given',
      resources: { requests: { cpu: '500m', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } },
      requests: { cpu: '500m', memory: '1Gi' },
      limits: { cpu: '2', memory: '4Gi' },
    },
    {
      name: 'a request alone is also the limit',
      resources: { requests: { cpu: '2', memory: '3Gi' } },
      requests: { cpu: '2', memory: '3Gi' },
      limits: { cpu: '2', memory: '3Gi' },
    },
    {
      name: 'a limit alone is also the request, as Kubernetes does',
      resources: { limits: { memory: '512Mi' } },
      requests: { cpu: '250m', memory: '512Mi' },
      limits: { cpu: '1', memory: '512Mi' },
    },
    {
      name: 'integers become quantities',
      resources: { requests: { cpu: 1 }, limits: { cpu: 3 } },
      requests: { cpu: '1', memory: '256Mi' },
      limits: { cpu: '3', memory: '1Gi' },
    },
  ];
  for (const c of resourceCases) {
    it(`completes custom resources per resource: ${c.name}`, () => {
      const { container } = workloads({ resources: c.resources });
      assert.deepEqual(container.resources, { requests: c.requests, limits: c.limits });
    });
  }

  const featureCases: { sandbox: AgentRuntimeSpec['sandbox']; flags: string[] }[] = [
    { sandbox: {}, flags: ['-enable-api', '-enable-exec', '-enable-port-forward', '-enable-ssh'] },
    { sandbox: { exec: false }, flags: ['-enable-api', '-enable-port-forward', '-enable-ssh'] },
    { sandbox: { portForward: false, ssh: false }, flags: ['-enable-api', '-enable-exec'] },
    { sandbox: { exec: false, portForward: false, ssh: false }, flags: ['-enable-api'] },
    {
      sandbox: { exec: true, portForward: true, ssh: true },
      flags: ['-enable-api', '-enable-exec', '-enable-port-forward', '-enable-ssh'],
    },
  ];
  for (const c of featureCases) {
    it(`passes the sandbox features ${JSON.stringify(c.sandbox)} as flags`, () => {
      const { container } = workloads({ sandbox: c.sandbox });
      assert.deepEqual(
        container.args.filter((arg) => arg.startsWith('-enable-')),
        c.flags,
      );
    });
  }

  it('takes the storage size and class, and the image', () => {
    const { statefulSet, container } = workloads({
      image: 'registry.example/paddock-sandbox:1.2',
      storage: { size: '50Gi', storageClassName: 'fast-ssd' },
    });
    assert.equal(container.image, 'registry.example/paddock-sandbox:1.2');
    assert.deepEqual(statefulSet.spec.volumeClaimTemplates[0].spec, {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '50Gi' } },
      storageClassName: 'fast-ssd',
    });
  });

  it('puts spec.env first, sorted, without the names it sets itself, and the model after', () => {
    const { container } = workloads({
      model: 'claude-sonnet-4',
      env: { ZED: 'z', ALPHA: 'a', SVC_API_PROOF_AUDIENCE: 'anyone', SVC_MCP_TOKEN: 't0ken-value' },
    });
    assert.deepEqual(
      container.env.map((e) => `${e.name}=${e.value ?? '(from)'}`),
      [
        'ALPHA=a',
        'SVC_MCP_TOKEN=t0ken-value',
        'ZED=z',
        'PADDOCK_POD_NAME=(from)',
        'SVC_API_PROOF_AUDIENCE=$(PADDOCK_POD_NAME).coder.team-a.svc',
        'SVC_API_PROOF_PUBLIC_KEY=(from)',
        'SVC_LOG_FORMAT=json',
        'HOME=/home/sandbox',
        'PADDOCK_MODEL=claude-sonnet-4',
      ],
    );
  });

  it('rolls the pods when the prompt pack changes, and only the annotation differs', () => {
    const before = workloads({}, WS, PACK).statefulSet;
    const after = workloads({}, WS, { ...PACK, version: '42' }).statefulSet;
    const missing = desiredStatefulSet({ agent: frozen(agent()), workspace: WS });
    validateUpstream(missing);
    const annotation = (s: StatefulSetObject) =>
      s.spec.template.metadata.annotations['paddock.dev/prompt-pack'];
    assert.equal(annotation(before), 'sample-prompts@41');
    assert.equal(annotation(after), 'sample-prompts@42');
    assert.equal(annotation(missing), 'sample-prompts@missing');
    const withoutAnnotation = (s: StatefulSetObject) => ({
      ...s,
      spec: {
        ...s.spec,
        template: { ...s.spec.template, metadata: { labels: {}, annotations: {} } },
      },
    });
    assert.deepEqual(withoutAnnotation(before), withoutAnnotation(after));
  });

  it('is the same object for the same inputs, so an unchanged agent writes nothing', () => {
    const spec: Partial<AgentRuntimeSpec> = {
      replicas: 2,
      env: { B: '2', A: '1' },
      ports: [{ name: 'web', containerPort: 3000 }],
    };
    assert.deepEqual(workloads(spec), workloads({ ...spec, env: { A: '1', B: '2' } }));
  });

  it('refuses an agent read without namespace or uid, rather than make an orphan', () => {
    const orphan = agent();
    delete orphan.metadata.uid;
    assert.throws(
      () => desiredStatefulSet({ agent: orphan, workspace: WS, promptPack: PACK }),
      /no namespace or uid/,
    );
  });
});

describe('the desired headless Service', () => {
  it('has the agent’s name, no cluster IP, the mcp and api ports and the extra ones', () => {
    const { statefulSet, service, container } = workloads({
      ports: [
        { name: 'web', containerPort: 3000 },
        { name: 'dns', containerPort: 5353, protocol: 'UDP' },
      ],
    });
    assert.equal(service.metadata.name, 'coder');
    assert.equal(service.metadata.ownerReferences[0]?.uid, 'uid-coder');
    assert.equal(service.spec.clusterIP, 'None');
    assert.deepEqual(service.spec.selector, {
      'app.kubernetes.io/name': 'paddock-agent',
      'paddock.dev/agent': 'coder',
    });
    assert.deepEqual(service.spec.ports, [
      { name: 'mcp', port: 7070, targetPort: 'mcp', protocol: 'TCP' },
      { name: 'api', port: 7071, targetPort: 'api', protocol: 'TCP' },
      { name: 'web', port: 3000, targetPort: 'web', protocol: 'TCP' },
      { name: 'dns', port: 5353, targetPort: 'dns', protocol: 'UDP' },
    ]);
    assert.deepEqual(container.ports.slice(2), [
      { name: 'web', containerPort: 3000, protocol: 'TCP' },
      { name: 'dns', containerPort: 5353, protocol: 'UDP' },
    ]);
    // Replica 0's stable name, as its pod has it under this Service, is its proof audience.
    const replica = {
      metadata: { name: 'coder-0', namespace: 'team-a' },
      spec: { hostname: 'coder-0', subdomain: statefulSet.spec.serviceName },
    };
    assert.equal(podDnsName(replica), 'coder-0.coder.team-a.svc');
    const audience = container.env.find((e) => e.name === 'SVC_API_PROOF_AUDIENCE')?.value;
    assert.equal(audience?.replace('$(PADDOCK_POD_NAME)', 'coder-0'), podDnsName(replica));
  });
});

describe('the agent’s NetworkPolicy', () => {
  const DASHBOARD = {
    from: [
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'paddock-system' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'paddock-dashboard' } },
      },
    ],
    ports: [
      { protocol: 'TCP', port: 7070 },
      { protocol: 'TCP', port: 7071 },
    ],
  };
  const OWN_NAMESPACE = { podSelector: {} };
  const SHARED = { namespaceSelector: { matchLabels: { 'paddock.dev/shared': 'true' } } };
  const PLATFORM = {
    namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'paddock-system' } },
  };
  const PORTS = [
    { name: 'web', containerPort: 3000 },
    { name: 'dns', containerPort: 5353, protocol: 'UDP' as const },
  ];
  const TCP_3000 = { protocol: 'TCP', port: 3000 };
  const UDP_5353 = { protocol: 'UDP', port: 5353 };

  function policyOf(
    spec: Partial<AgentRuntimeSpec>,
    networkPolicy?: Workspace['spec']['networkPolicy'],
    platformNamespace?: string,
  ): AgentNetworkPolicyObject {
    const workspace: Workspace = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'team-a' },
      spec: {
        displayName: 'Team A',
        namespace: { name: 'team-a' },
        ...(networkPolicy && { networkPolicy }),
      },
    };
    const policy = desiredAgentNetworkPolicy({
      agent: frozen(agent(spec)),
      workspace: frozen(workspace),
      ...(platformNamespace === undefined ? {} : { platformNamespace }),
    });
    validateUpstream(policy);
    return policy;
  }

  it('is the agent’s, named after it, and selects its pods only', () => {
    const policy = policyOf({});
    assert.equal(policy.metadata.name, 'agent-coder');
    assert.equal(policy.metadata.namespace, 'team-a');
    assert.equal(policy.metadata.labels['paddock.dev/agent'], 'coder');
    assert.equal(policy.metadata.labels['paddock.dev/workspace'], 'team-a');
    assert.deepEqual(
      policy.metadata.ownerReferences.map((r) => [r.kind, r.name, r.uid, r.controller]),
      [['AgentRuntime', 'coder', 'uid-coder', true]],
    );
    assert.deepEqual(policy.spec.podSelector, {
      matchLabels: { 'app.kubernetes.io/name': 'paddock-agent', 'paddock.dev/agent': 'coder' },
    });
  });

  // [what, agent spec, workspace networkPolicy, policyTypes, ingress]
  const cases: [
    string,
    Partial<AgentRuntimeSpec>,
    Workspace['spec']['networkPolicy'],
    string[],
    unknown[],
  ][] = [
    ['no isolation, no ports: the dashboard only', {}, undefined, ['Ingress'], [DASHBOARD]],
    [
      'isolation off: the same',
      {},
      { isolate: false, allowFrom: [{ ports: [{ port: 7071 }] }] },
      ['Ingress'],
      [DASHBOARD],
    ],
    [
      'no isolation: the declared ports from anywhere',
      { ports: PORTS },
      undefined,
      ['Ingress'],
      [DASHBOARD, { ports: [TCP_3000, UDP_5353] }],
    ],
    [
      'isolation, no ports: the dashboard only, whatever the workspace lets in',
      {},
      { isolate: true, allowFrom: [{ ports: [{ port: 7071 }] }] },
      ['Ingress', 'Egress'],
      [DASHBOARD],
    ],
    [
      'isolation: the declared ports from what the workspace lets in',
      { ports: PORTS },
      { isolate: true },
      ['Ingress', 'Egress'],
      [
        DASHBOARD,
        { from: [OWN_NAMESPACE], ports: [TCP_3000, UDP_5353] },
        { from: [SHARED], ports: [TCP_3000, UDP_5353] },
        { from: [PLATFORM], ports: [TCP_3000, UDP_5353] },
      ],
    ],
    [
      'isolation: allowFrom narrowed to the declared ports it names, or dropped',
      { ports: PORTS },
      {
        isolate: true,
        allowSharedNamespaces: false,
        allowFrom: [
          { peers: [{ ipBlock: { cidr: '10.1.0.0/16' } }], ports: [{ port: 3000 }] },
          { peers: [{ podSelector: { matchLabels: { app: 'probe' } } }], ports: [{ port: 7071 }] },
          { ports: [{ protocol: 'UDP' }] },
          { peers: [{}] },
        ],
      },
      ['Ingress', 'Egress'],
      [
        DASHBOARD,
        { from: [OWN_NAMESPACE], ports: [TCP_3000, UDP_5353] },
        { from: [PLATFORM], ports: [TCP_3000, UDP_5353] },
        { from: [{ ipBlock: { cidr: '10.1.0.0/16' } }], ports: [TCP_3000] },
        { ports: [UDP_5353] },
      ],
    ],
  ];
  for (const [what, spec, networkPolicy, policyTypes, ingress] of cases) {
    it(what, () => {
      const policy = policyOf(spec, networkPolicy);
      assert.deepEqual(policy.spec.policyTypes, policyTypes);
      assert.deepEqual(policy.spec.ingress, ingress);
    });
  }

  it('holds no egress rule unless the workspace isolates, then exactly the isolation policy’s', () => {
    assert.equal(policyOf({}).spec.egress, undefined);
    const networkPolicy = {
      isolate: true,
      allowExternalAPIs: false,
      allowTo: [{ peers: [{ ipBlock: { cidr: '10.2.0.0/16' } }], ports: [{ port: 5432 }] }],
    };
    const workspace: Workspace = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'team-a' },
      spec: { displayName: 'Team A', namespace: { name: 'team-a' }, networkPolicy },
    };
    assert.deepEqual(
      policyOf({}, networkPolicy).spec.egress,
      desiredNetworkPolicy(workspace)?.policy.spec.egress,
    );
  });

  it('lets the dashboard of the platform’s namespace in, whatever it is called', () => {
    const policy = policyOf({}, undefined, 'paddock');
    assert.deepEqual(policy.spec.ingress[0]?.from, [
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'paddock' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'paddock-dashboard' } },
      },
    ]);
  });

  it('is the same object for the same inputs, so an unchanged agent writes nothing', () => {
    assert.deepEqual(
      policyOf({ ports: PORTS }, { isolate: true }),
      policyOf({ ports: PORTS }, { isolate: true }),
    );
  });
});

describe('agent names', () => {
  const cases: [name: string, problem: RegExp | undefined][] = [
    ['coder', undefined],
    ['a', undefined],
    ['agent-2', undefined],
    ['a'.repeat(52), undefined],
    ['a'.repeat(53), /53 characters long; .* at most 52/],
    ['2nd-agent', /cannot name a Service/],
    ['agent.v2', /cannot name a Service/],
    ['agent-', /cannot name a Service/],
  ];
  for (const [name, problem] of cases) {
    it(`${name.length > 20 ? `${name.length} characters` : name}: ${problem ? 'refused' : 'accepted'}`, () => {
      const found = agentNameProblem(name);
      if (problem === undefined) assert.equal(found, undefined);
      else assert.match(found ?? '', problem);
    });
  }
});

describe('what an agent takes from its Workspace', () => {
  function workspace(
    action: 'warn' | 'pauseJobs' | 'block' | undefined,
    exceeded: boolean,
    limit?: number,
  ): Workspace {
    return {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'team-a' },
      spec: {
        displayName: 'Team A',
        namespace: { name: 'team-a' },
        ...(limit === undefined ? {} : { quotas: { agents: { maxReplicasPerAgent: limit } } }),
        ...(action === undefined
          ? {}
          : { costControls: { dailyBudget: '5', budgetExceededAction: action } }),
      },
      status: {
        conditions: [
          {
            type: 'BudgetExceeded',
            status: exceeded ? 'True' : 'False',
            reason: exceeded ? 'BudgetExceeded' : 'WithinBudget',
            message: exceeded ? 'Spent 6.00 of the daily budget of 5.00.' : 'Within.',
          },
        ],
      },
    };
  }
  const cases: [string, Workspace, AgentWorkspace][] = [
    ['no cost controls', workspace(undefined, true), { name: 'team-a' }],
    ['warn only', workspace('warn', true), { name: 'team-a' }],
    [
      'pauseJobs within budget',
      workspace('pauseJobs', false, 3),
      { name: 'team-a', maxReplicasPerAgent: 3 },
    ],
    [
      'pauseJobs over budget',
      workspace('pauseJobs', true),
      {
        name: 'team-a',
        pause: {
          reason: 'BudgetExceeded',
          message:
            'Workspace team-a pauses its agents (budgetExceededAction pauseJobs): Spent 6.00 of the daily budget of 5.00.',
        },
      },
    ],
    [
      'block over budget',
      workspace('block', true, 1),
      {
        name: 'team-a',
        maxReplicasPerAgent: 1,
        block: {
          reason: 'BudgetExceeded',
          message:
            'Budget exceeded: workspace team-a blocks new runs (budgetExceededAction block). Spent 6.00 of the daily budget of 5.00.',
        },
      },
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => assert.deepEqual(agentWorkspace(frozen(input)), expected));
  }
});

describe('the agent status', () => {
  function statefulSet(
    status: NonNullable<ObservedStatefulSet['status']>,
    generation = 2,
  ): ObservedStatefulSet {
    return { metadata: { generation }, status: { observedGeneration: generation, ...status } };
  }
  function pod(
    name: string,
    waiting?: { reason: string; message?: string },
    restartCount = 0,
  ): ObservedPod {
    return {
      metadata: { name },
      status: {
        phase: waiting ? 'Pending' : 'Running',
        containerStatuses: [
          {
            name: 'sandbox',
            ready: waiting === undefined,
            restartCount,
            state: waiting ? { waiting } : {},
          },
        ],
      },
    };
  }
  const settled = { currentRevision: 'coder-1', updateRevision: 'coder-1' };

  const cases: {
    name: string;
    replicas?: number;
    workspace?: AgentWorkspace;
    statefulSet: ObservedStatefulSet | undefined;
    pods: ObservedPod[];
    phase: 'Pending' | 'Running' | 'Failed';
    available: [status: string, reason: string, message?: RegExp];
    progressing: [status: string, reason: string];
  }[] = [
    {
      name: 'no StatefulSet yet',
      statefulSet: undefined,
      pods: [],
      phase: 'Pending',
      available: ['False', 'ReplicasNotReady'],
      progressing: ['True', 'Creating'],
    },
    {
      name: 'every replica ready',
      replicas: 2,
      statefulSet: statefulSet({ replicas: 2, readyReplicas: 2, updatedReplicas: 2, ...settled }),
      pods: [pod('coder-0'), pod('coder-1')],
      phase: 'Running',
      available: ['True', 'ReplicasReady', /2 of 2/],
      progressing: ['False', 'Complete'],
    },
    {
      name: 'one of two ready',
      replicas: 2,
      statefulSet: statefulSet({ replicas: 2, readyReplicas: 1, updatedReplicas: 2, ...settled }),
      pods: [pod('coder-0'), pod('coder-1', { reason: 'ContainerCreating' })],
      phase: 'Pending',
      available: ['False', 'ReplicasNotReady', /1 of 2/],
      progressing: ['False', 'Complete'],
    },
    {
      name: 'a pod in CrashLoopBackOff',
      replicas: 2,
      statefulSet: statefulSet({ replicas: 2, readyReplicas: 1, updatedReplicas: 2, ...settled }),
      pods: [
        pod('coder-1', { reason: 'CrashLoopBackOff', message: 'back-off 40s' }, 3),
        pod('coder-0'),
      ],
      phase: 'Failed',
      available: [
        'False',
        'CrashLoopBackOff',
        /^Pod coder-1 is in CrashLoopBackOff after 3 restarts: back-off 40s$/,
      ],
      progressing: ['False', 'Complete'],
    },
    {
      name: 'an image that cannot be pulled',
      statefulSet: statefulSet({ replicas: 1, readyReplicas: 0, updatedReplicas: 1, ...settled }),
      pods: [
        pod('coder-0', { reason: 'ImagePullBackOff', message: 'Back-off pulling image "nope"' }),
      ],
      phase: 'Failed',
      available: ['False', 'ImagePullBackOff', /coder-0 is in ImagePullBackOff: Back-off pulling/],
      progressing: ['False', 'Complete'],
    },
    {
      name: 'a rollout under way (revisions differ)',
      statefulSet: statefulSet({
        replicas: 1,
        readyReplicas: 1,
        updatedReplicas: 0,
        currentRevision: 'coder-1',
        updateRevision: 'coder-2',
      }),
      pods: [pod('coder-0')],
      phase: 'Running',
      available: ['True', 'ReplicasReady'],
      progressing: ['True', 'RollingOut'],
    },
    {
      name: 'a change the StatefulSet controller has not seen',
      statefulSet: {
        metadata: { generation: 3 },
        status: {
          observedGeneration: 2,
          replicas: 1,
          readyReplicas: 1,
          updatedReplicas: 1,
          ...settled,
        },
      },
      pods: [pod('coder-0')],
      phase: 'Running',
      available: ['True', 'ReplicasReady'],
      progressing: ['True', 'RollingOut'],
    },
    {
      name: 'paused: nothing runs until the workspace resumes',
      replicas: 2,
      workspace: { ...WS, pause: { reason: 'BudgetExceeded', message: 'Daily budget spent.' } },
      statefulSet: statefulSet({ replicas: 0, readyReplicas: 0, updatedReplicas: 0, ...settled }),
      pods: [],
      phase: 'Pending',
      available: ['True', 'ReplicasReady', /0 of 0/],
      progressing: ['False', 'Complete'],
    },
    {
      name: 'scaled to zero by its owner',
      replicas: 0,
      statefulSet: statefulSet({ replicas: 0, updatedReplicas: 0, ...settled }),
      pods: [],
      phase: 'Running',
      available: ['True', 'ReplicasReady'],
      progressing: ['False', 'Complete'],
    },
  ];
  for (const c of cases) {
    it(`${c.name}: ${c.phase}`, () => {
      const input = frozen(agent(c.replicas === undefined ? {} : { replicas: c.replicas }));
      const status = agentStatus({
        agent: input,
        statefulSet: c.statefulSet,
        pods: c.pods,
        effective: effectiveReplicas(input, c.workspace ?? WS),
        now: NOW,
      });
      assert.equal(status.phase, c.phase);
      assert.equal(status.observedGeneration, 4);
      assert.equal(status.selector, 'app.kubernetes.io/name=paddock-agent,paddock.dev/agent=coder');
      assert.equal(status.replicas, c.statefulSet?.status?.replicas ?? 0);
      assert.equal(status.readyReplicas, c.statefulSet?.status?.readyReplicas ?? 0);
      const available = status.conditions.find((x) => x.type === 'Available');
      assert.deepEqual([available?.status, available?.reason], c.available.slice(0, 2));
      if (c.available[2]) assert.match(available?.message ?? '', c.available[2]);
      const progressing = status.conditions.find((x) => x.type === 'Progressing');
      assert.deepEqual([progressing?.status, progressing?.reason], c.progressing);
      assert.deepEqual(
        status.conditions.map((x) => x.type),
        ['Available', 'Progressing', 'ReplicasLimited', 'Paused', 'RunsBlocked'],
      );
      assert.ok(status.conditions.every((x) => x.observedGeneration === 4));
    });
  }

  it('keeps transition times while a status stays, and moves them when it changes', () => {
    const input = agent({ replicas: 1 });
    const effective = effectiveReplicas(input, WS);
    const pending = agentStatus({
      agent: input,
      statefulSet: undefined,
      pods: [],
      effective,
      now: NOW,
    });
    const again = agentStatus({
      agent: { ...input, status: pending },
      statefulSet: undefined,
      pods: [],
      effective,
      now: LATER,
    });
    assert.deepEqual(again, pending);
    const running = agentStatus({
      agent: { ...input, status: pending },
      statefulSet: statefulSet({ replicas: 1, readyReplicas: 1, updatedReplicas: 1, ...settled }),
      pods: [pod('coder-0')],
      effective,
      now: LATER,
    });
    const time = (s: typeof pending, type: string) =>
      s.conditions.find((x) => x.type === type)?.lastTransitionTime;
    assert.equal(time(running, 'Available'), '2030-06-01T12:05:00Z');
    assert.equal(time(running, 'Paused'), '2030-06-01T12:00:00Z');
  });

  it('fails an agent whose name cannot make a StatefulSet', () => {
    const input = agent({}, 'x'.repeat(60));
    const status = agentStatus({
      agent: input,
      statefulSet: undefined,
      pods: [],
      effective: effectiveReplicas(input, WS),
      now: NOW,
    });
    assert.equal(status.phase, 'Failed');
    assert.equal(status.conditions[0]?.reason, 'InvalidName');
    assert.equal(
      agentSelector(input),
      `app.kubernetes.io/name=paddock-agent,paddock.dev/agent=${'x'.repeat(60)}`,
    );
  });
});
