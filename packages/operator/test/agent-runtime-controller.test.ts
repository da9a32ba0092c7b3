import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '@paddock/common';
import {
  CORE_KINDS,
  KINDS,
  NotFoundError,
  type Kube,
  installCrds,
  type AgentRuntime,
  type AgentRuntimeSpec,
  type KubeEvent,
  type KubeObject,
  type PromptPack,
  type Workspace,
  type WorkspaceSpec,
} from '@paddock/kube';
import {
  eventuallyOk as eventually,
  startEmbeddedCluster,
  type EmbeddedCluster,
} from '@paddock/testing';
import { countingWrites } from './support/counted-writes.js';
import { AgentRuntimeController } from '../src/controllers/agent-runtime-controller.js';
import { STATEFULSET_KIND } from '../src/controllers/agent-runtime/clients.js';
import { OPERATOR_CLUSTER_ROLE, OPERATOR_NAME } from '../src/operator-rbac.js';
import { operatorEventRecorder } from '../src/runtime/events.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';

const PLATFORM = 'paddock-system';
const kind = (name: string) => KINDS.find((k) => k.kind === name) as (typeof KINDS)[number];

interface Named extends KubeObject {
  metadata: NonNullable<KubeObject['metadata']> & { name: string };
}
interface StatefulSet extends Named {
  spec: {
    replicas: number;
    serviceName: string;
    selector: { matchLabels: Record<string, string> };
    template: {
      metadata: { labels: Record<string, string>; annotations: Record<string, string> };
      spec: {
        containers: {
          name: string;
          image: string;
          args: string[];
          env: { name: string; value?: string; valueFrom?: unknown }[];
        }[];
      };
    };
    volumeClaimTemplates: { metadata: { name: string } }[];
    persistentVolumeClaimRetentionPolicy: Record<string, string>;
  };
}
interface Service extends Named {
  spec: { clusterIP: string; ports: { name: string; port: number }[] };
}
interface NetworkPolicy extends Named {
  spec: {
    podSelector: unknown;
    policyTypes: string[];
    ingress?: { from?: unknown[]; ports?: { protocol?: string; port?: number }[] }[];
    egress?: unknown[];
  };
}
interface Secret extends Named {
  data?: Record<string, string>;
}
interface Pod extends Named {
  status?: Record<string, unknown>;
}

let cluster: EmbeddedCluster;
let kube: Kube;
let controller: AgentRuntimeController;
/** Write requests the controller sent: idempotence is measured on them. */
const writes: string[] = [];

const workspaces = () => kube.resource<Workspace>(kind('Workspace'));
const agents = () => kube.resource<AgentRuntime>(kind('AgentRuntime'));
const packs = () => kube.resource<PromptPack>(kind('PromptPack'));
const statefulSets = () => kube.resource<StatefulSet>(STATEFULSET_KIND);
const services = () => kube.resource<Service>(CORE_KINDS.service);
const networkPolicies = () => kube.resource<NetworkPolicy>(CORE_KINDS.networkPolicy);
const secrets = () => kube.resource<Secret>(CORE_KINDS.secret);
const pods = () => kube.resource<Pod>(CORE_KINDS.pod);

async function gone(what: string, read: () => Promise<unknown>): Promise<void> {
  await eventually(what, async () => {
    try {
      await read();
      return undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return true;
      throw err;
    }
  });
}

const condition = (agent: AgentRuntime, type: string) =>
  agent.status?.conditions?.find((c) => c.type === type);

async function agentWhere(
  namespace: string,
  name: string,
  what: string,
  test: (a: AgentRuntime) => boolean,
): Promise<AgentRuntime> {
  return eventually(what, async () => {
    const found = await agents().get(name, namespace);
    return test(found) ? found : undefined;
  });
}

/**
 * Waits until the controller's cache holds `agent` as it was read and its own passes are done (the
 * status write that settled it sends it one), so that every write counted next is a test's pass.
 */
async function controllerSettledOn(agent: AgentRuntime): Promise<void> {
  await eventually('the controller has seen the agent as read', () => {
    const seen = controller['agents'].get(agent.metadata.name, agent.metadata.namespace);
    return Promise.resolve(
      seen?.metadata.resourceVersion === agent.metadata.resourceVersion ? true : undefined,
    );
  });
  await controller['queue'].idle();
}

async function statefulSetWhere(
  namespace: string,
  name: string,
  what: string,
  test: (s: StatefulSet) => boolean,
): Promise<StatefulSet> {
  return eventually(what, async () => {
    const found = await statefulSets().get(name, namespace);
    return test(found) ? found : undefined;
  });
}

async function createWorkspace(name: string, spec: Partial<WorkspaceSpec> = {}): Promise<string> {
  const namespace = `ns-${name}`;
  await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: namespace } });
  await workspaces().create({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
    spec: { displayName: name, namespace: { name: namespace }, ...spec },
  });
  return namespace;
}

async function createPack(namespace: string, name: string): Promise<void> {
  await packs().create({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'PromptPack',
    metadata: { name, namespace },
    spec: { systemPrompt: 'You write tests.' },
  });
}

async function createAgent(
  namespace: string,
  name: string,
  spec: Partial<AgentRuntimeSpec> = {},
): Promise<void> {
  await agents().create({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: { name, namespace },
    spec: { promptPackRef: { name: 'prompts' }, ...spec },
  });
}

/** What a kubelet reports of a pod: running and ready, or its sandbox container waiting. */
async function setPodStatus(
  namespace: string,
  name: string,
  state: 'ready' | { waiting: string },
): Promise<void> {
  await eventually(`${name} status written`, async () => {
    const pod = await pods().get(name, namespace);
    const ready = state === 'ready';
    await pods().replaceStatus({
      ...pod,
      status: {
        phase: ready ? 'Running' : 'Pending',
        conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }],
        containerStatuses: [
          {
            name: 'sandbox',
            image: 'paddock-sandbox:latest',
            imageID: '',
            ready,
            restartCount: ready ? 0 : 4,
            state: ready
              ? { running: { startedAt: new Date().toISOString() } }
              : { waiting: { reason: state.waiting, message: 'back-off restarting' } },
          },
        ],
      },
    });
    return true;
  });
}

async function eventsOf(namespace: string, name: string, reason: string): Promise<KubeEvent[]> {
  const events = await kube.resource<KubeEvent>(CORE_KINDS.event).list({ namespace });
  return events.items.filter((e) => e.involvedObject.name === name && e.reason === reason);
}

async function setBudgetExceeded(name: string, exceeded: boolean): Promise<void> {
  await eventually(`${name} budget ${exceeded ? 'exceeded' : 'within'}`, async () => {
    const found = await workspaces().get(name);
    await workspaces().replaceStatus({
      ...found,
      status: {
        ...found.status,
        conditions: [
          {
            type: 'BudgetExceeded',
            status: exceeded ? 'True' : 'False',
            reason: exceeded ? 'BudgetExceeded' : 'WithinBudget',
            message: exceeded ? 'daily spend 6.00 USD is over the budget of 5.00' : 'Within.',
            lastTransitionTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
          },
        ],
      },
    });
    return true;
  });
}

before(async () => {
  cluster = await startEmbeddedCluster();
  kube = cluster.kube;
  await installCrds(kube);
  await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: PLATFORM } });
  // The controller runs as a ServiceAccount holding only the operator's ClusterRole, so every
  // pass below also proves that role enough.
  await kube
    .resource(CORE_KINDS.serviceAccount)
    .create({ metadata: { name: OPERATOR_NAME, namespace: PLATFORM } });
  await kube.resource(CORE_KINDS.clusterRole).create(OPERATOR_CLUSTER_ROLE);
  await kube.resource<KubeObject>(CORE_KINDS.clusterRoleBinding).create({
    metadata: { name: OPERATOR_NAME },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: OPERATOR_CLUSTER_ROLE.metadata.name,
    },
    subjects: [{ kind: 'ServiceAccount', name: OPERATOR_NAME, namespace: PLATFORM }],
  } as KubeObject);
  const { token } = await kube.requestToken(PLATFORM, OPERATOR_NAME);
  // Its client counts its writes.
  const counted = countingWrites(kube.as(token), writes);
  controller = new AgentRuntimeController({
    kube: counted,
    recorder: operatorEventRecorder(counted),
    metrics: new OperatorMetrics({ processMetrics: false }),
    logger: silentLogger(),
    platformNamespace: PLATFORM,
  });
  await controller.start();
});

after(async () => {
  await controller.stop();
  await cluster.stop();
});

describe('the AgentRuntime controller', () => {
  it('makes the headless Service, the StatefulSet and the proof Secrets, and reports Running once the pod is ready', async () => {
    const namespace = await createWorkspace('alpha');
    await createPack(namespace, 'prompts');
    await createAgent(namespace, 'coder', { model: 'gpt-test', env: { B: '2', A: '1' } });

    const service = await eventually('the Service', () => services().get('coder', namespace));
    assert.equal(service.spec.clusterIP, 'None');
    assert.deepEqual(
      service.spec.ports.map((p) => [p.name, p.port]),
      [
        ['mcp', 7070],
        ['api', 7071],
      ],
    );
    const agent = await agents().get('coder', namespace);
    assert.equal(service.metadata.ownerReferences?.[0]?.uid, agent.metadata.uid);

    const set = await eventually('the StatefulSet', () => statefulSets().get('coder', namespace));
    assert.equal(set.spec.replicas, 1);
    assert.equal(set.spec.serviceName, 'coder');
    assert.deepEqual(set.spec.selector.matchLabels, {
      'app.kubernetes.io/name': 'paddock-agent',
      'paddock.dev/agent': 'coder',
    });
    assert.equal(set.metadata.ownerReferences?.[0]?.kind, 'AgentRuntime');
    assert.equal(set.metadata.labels?.['paddock.dev/workspace'], 'alpha');
    assert.deepEqual(set.spec.persistentVolumeClaimRetentionPolicy, {
      whenDeleted: 'Delete',
      whenScaled: 'Retain',
    });
    assert.deepEqual(
      set.spec.volumeClaimTemplates.map((c) => c.metadata.name),
      ['workspace'],
    );
    const pack = await packs().get('prompts', namespace);
    const annotations = set.spec.template.metadata.annotations;
    assert.equal(
      annotations['paddock.dev/prompt-pack'],
      `prompts@${pack.metadata.resourceVersion}`,
    );
    assert.match(annotations['paddock.dev/proof-key'] ?? '', /^[0-9a-f]{16}$/);
    const [container] = set.spec.template.spec.containers;
    assert.equal(container?.name, 'sandbox');
    assert.ok(container?.args.includes('-enable-api'));
    assert.deepEqual(
      container?.env.slice(0, 2).map((e) => e.name),
      ['A', 'B'],
    );
    assert.ok(container?.env.some((e) => e.name === 'PADDOCK_MODEL' && e.value === 'gpt-test'));

    // The key pair in the platform namespace, its public key copied where the agent runs.
    const platform = await secrets().get('paddock-sandbox-proof', PLATFORM);
    const copy = await secrets().get('paddock-sandbox-proof', namespace);
    assert.deepEqual(Object.keys(platform.data ?? {}).sort(), ['private-key', 'public-key']);
    assert.deepEqual(Object.keys(copy.data ?? {}), ['public-key']);
    assert.equal(copy.data?.['public-key'], platform.data?.['public-key']);
    const publicKey = Buffer.from(copy.data?.['public-key'] ?? '', 'base64').toString();
    assert.equal(createPublicKey(publicKey).asymmetricKeyType, 'ed25519');
    assert.equal(copy.metadata.labels?.['app.kubernetes.io/managed-by'], 'paddock-operator');

    const pending = await agentWhere(
      namespace,
      'coder',
      'status written',
      (a) => a.status?.phase !== undefined,
    );
    assert.equal(pending.status?.phase, 'Pending');
    assert.equal(
      pending.status?.selector,
      'app.kubernetes.io/name=paddock-agent,paddock.dev/agent=coder',
    );

    await eventually('the pod', () => pods().get('coder-0', namespace));
    await setPodStatus(namespace, 'coder-0', 'ready');
    const running = await agentWhere(
      namespace,
      'coder',
      'Running 1/1',
      (a) => a.status?.phase === 'Running' && a.status.readyReplicas === 1,
    );
    assert.equal(running.status?.replicas, 1);
    assert.equal(condition(running, 'Available')?.status, 'True');
    assert.equal(condition(running, 'Paused')?.status, 'False');
    assert.equal(condition(running, 'ReplicasLimited')?.status, 'False');
    assert.equal(running.status?.observedGeneration, running.metadata.generation);
  });

  it('puts the agent behind a NetworkPolicy of its own that follows the workspace’s isolation and comes back when deleted', async () => {
    const namespace = await createWorkspace('beta');
    await createPack(namespace, 'prompts');
    await createAgent(namespace, 'web', { ports: [{ name: 'http', containerPort: 8080 }] });
    await eventually('the StatefulSet', () => statefulSets().get('web', namespace));
    // Made before the StatefulSet: no pod of the agent ever runs without it.
    const policy = await networkPolicies().get('agent-web', namespace);
    const agent = await agents().get('web', namespace);
    assert.equal(policy.metadata.ownerReferences?.[0]?.uid, agent.metadata.uid);
    assert.deepEqual(policy.spec.podSelector, {
      matchLabels: { 'app.kubernetes.io/name': 'paddock-agent', 'paddock.dev/agent': 'web' },
    });
    assert.deepEqual(policy.spec.policyTypes, ['Ingress']);
    assert.deepEqual(
      policy.spec.ingress?.map((rule) => [rule.from?.length ?? 0, rule.ports?.map((p) => p.port)]),
      [
        [1, [7070, 7071]],
        [0, [8080]],
      ],
    );

    const isolate = async (on: boolean) =>
      eventually(`isolation ${on ? 'on' : 'off'}`, async () => {
        const found = await workspaces().get('beta');
        await workspaces().replace({
          ...found,
          spec: { ...found.spec, networkPolicy: { isolate: on } },
        });
        return true;
      });
    const policyWhere = (what: string, test: (p: NetworkPolicy) => boolean) =>
      eventually(what, async () => {
        const found = await networkPolicies()
          .get('agent-web', namespace)
          .catch((err: unknown) => {
            if (err instanceof NotFoundError) return undefined;
            throw err;
          });
        return found && test(found) ? found : undefined;
      });

    await isolate(true);
    const isolated = await policyWhere('the egress rules', (p) => p.spec.policyTypes.length === 2);
    assert.ok((isolated.spec.egress?.length ?? 0) > 0);
    // The declared port takes the workspace's own namespace, shared namespaces and the platform.
    assert.deepEqual(
      isolated.spec.ingress?.slice(1).map((rule) => rule.ports?.map((p) => p.port)),
      [[8080], [8080], [8080]],
    );

    await networkPolicies().delete('agent-web', namespace);
    await policyWhere('the policy made again', (p) => p.metadata.uid !== isolated.metadata.uid);

    await isolate(false);
    const open = await policyWhere('ingress only', (p) => p.spec.policyTypes.length === 1);
    assert.equal(open.spec.egress, undefined);

    await agents().delete('web', namespace);
    await gone('the policy, with the agent', () => networkPolicies().get('agent-web', namespace));
  });

  it('writes nothing on a pass over an agent that did not change', async () => {
    await statefulSetWhere('ns-alpha', 'coder', 'the StatefulSet settled', (s) => {
      const status = (s as { status?: { readyReplicas?: number } }).status;
      return status?.readyReplicas === 1;
    });
    // Settled: every wanted replica ready and the rollout complete, so any pass finds nothing to do.
    const settled = await agentWhere(
      'ns-alpha',
      'coder',
      'Running, rollout complete',
      (a) =>
        a.status?.phase === 'Running' &&
        condition(a, 'Progressing')?.status === 'False' &&
        condition(a, 'Available')?.status === 'True',
    );
    await controllerSettledOn(settled);
    const before = writes.length;
    await controller.reconcile('ns-alpha/coder');
    await controller.reconcile('ns-alpha/coder');
    assert.deepEqual(writes.slice(before), []);
  });

  it('scales through the scale subresource, up to the workspace limit (ReplicasLimited)', async () => {
    await kube
      .resource(kind('AgentRuntime'))
      .patch('coder', { spec: { replicas: 2 } }, { namespace: 'ns-alpha', subresource: 'scale' });
    await statefulSetWhere('ns-alpha', 'coder', '2 replicas', (s) => s.spec.replicas === 2);

    await eventually('the limit set', async () => {
      const found = await workspaces().get('alpha');
      await workspaces().replace({
        ...found,
        spec: { ...found.spec, quotas: { agents: { maxReplicasPerAgent: 1 } } },
      });
      return true;
    });
    await statefulSetWhere('ns-alpha', 'coder', 'capped at 1', (s) => s.spec.replicas === 1);
    const limited = await agentWhere(
      'ns-alpha',
      'coder',
      'ReplicasLimited',
      (a) => condition(a, 'ReplicasLimited')?.status === 'True',
    );
    assert.equal(limited.spec.replicas, 2);
    assert.match(condition(limited, 'ReplicasLimited')?.message ?? '', /at most 1/);
    const warnings = await eventually('the warning', async () => {
      const found = await eventsOf('ns-alpha', 'coder', 'ReplicasLimited');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(warnings[0]?.type, 'Warning');
  });

  it('runs no replica while the workspace budget pauses agents, and resumes without rewriting spec.replicas', async () => {
    await eventually('pauseJobs set', async () => {
      const found = await workspaces().get('alpha');
      await workspaces().replace({
        ...found,
        spec: {
          ...found.spec,
          quotas: {},
          costControls: { dailyBudget: '5.00', budgetExceededAction: 'pauseJobs' },
        },
      });
      return true;
    });
    await setBudgetExceeded('alpha', true);
    await statefulSetWhere('ns-alpha', 'coder', 'paused at 0', (s) => s.spec.replicas === 0);
    const paused = await agentWhere(
      'ns-alpha',
      'coder',
      'Paused',
      (a) => condition(a, 'Paused')?.status === 'True',
    );
    assert.equal(condition(paused, 'Paused')?.reason, 'BudgetExceeded');
    assert.equal(paused.spec.replicas, 2);
    assert.equal(paused.status?.phase, 'Pending');
    await eventually('the Paused event', async () => {
      const found = await eventsOf('ns-alpha', 'coder', 'Paused');
      return found.length > 0 ? found : undefined;
    });
    // Paused and settled, a pass writes nothing either.
    const pausedSettled = await agentWhere(
      'ns-alpha',
      'coder',
      'paused, no replica left',
      (a) => a.status?.replicas === 0 && condition(a, 'Progressing')?.status === 'False',
    );
    await controllerSettledOn(pausedSettled);
    const before = writes.length;
    await controller.reconcile('ns-alpha/coder');
    assert.deepEqual(writes.slice(before), []);

    await setBudgetExceeded('alpha', false);
    await statefulSetWhere('ns-alpha', 'coder', 'resumed at 2', (s) => s.spec.replicas === 2);
    await agentWhere(
      'ns-alpha',
      'coder',
      'not paused',
      (a) => condition(a, 'Paused')?.status === 'False',
    );
    await eventually('the Resumed event', async () => {
      const found = await eventsOf('ns-alpha', 'coder', 'Resumed');
      return found.length > 0 ? found : undefined;
    });
  });

  it('runs the agent loop beside the sandbox with a provider, under an identity of its own, and blocks its runs over budget', async () => {
    const namespace = await createWorkspace('loop', {
      costControls: { dailyBudget: '5.00', budgetExceededAction: 'block' },
    });
    await createPack(namespace, 'prompts');
    await createAgent(namespace, 'thinker', {
      replicas: 1,
      model: 'gpt-4.1-mini',
      provider: { type: 'openai', apiKeySecretRef: { name: 'model-key' } },
    });
    const set = await statefulSetWhere(namespace, 'thinker', 'two containers', (s) =>
      s.spec.template.spec.containers.some((c) => c.name === 'agent'),
    );
    assert.deepEqual(
      set.spec.volumeClaimTemplates.map((t) => t.metadata.name),
      ['workspace', 'agent-data'],
    );
    const roles = kube.resource<KubeObject & { rules: { resources: string[] }[] }>(CORE_KINDS.role);
    const role = await eventually('the Role', () => roles.get('thinker-agent', namespace));
    assert.ok(role.rules.some((r) => r.resources.includes('agentruntimes/status')));
    await kube.resource(CORE_KINDS.serviceAccount).get('thinker-agent', namespace);
    await kube.resource(CORE_KINDS.roleBinding).get('thinker-agent', namespace);
    const service = await services().get('thinker', namespace);
    assert.ok(service.spec.ports.some((p) => p.name === 'runs' && p.port === 7072));

    await setBudgetExceeded('loop', true);
    const blocked = await agentWhere(
      namespace,
      'thinker',
      'RunsBlocked',
      (a) => condition(a, 'RunsBlocked')?.status === 'True',
    );
    assert.match(condition(blocked, 'RunsBlocked')?.message ?? '', /^Budget exceeded: /);
    assert.equal(condition(blocked, 'Paused')?.status, 'False');
    assert.equal((await statefulSets().get('thinker', namespace)).spec.replicas, 1);
    await eventually('the RunsBlocked event', async () => {
      const found = await eventsOf(namespace, 'thinker', 'RunsBlocked');
      return found.length > 0 ? found : undefined;
    });
    await setBudgetExceeded('loop', false);
    await agentWhere(
      namespace,
      'thinker',
      'runs taken again',
      (a) => condition(a, 'RunsBlocked')?.status === 'False',
    );

    // Without a provider the loop goes, and its identity with it.
    await eventually('provider dropped', async () => {
      const found = await agents().get('thinker', namespace);
      const { provider: _dropped, ...spec } = found.spec;
      await agents().replace({ ...found, spec });
      return true;
    });
    await statefulSetWhere(namespace, 'thinker', 'the sandbox alone', (s) =>
      s.spec.template.spec.containers.every((c) => c.name !== 'agent'),
    );
    await gone('the Role', () => roles.get('thinker-agent', namespace));
    await gone('the ServiceAccount', () =>
      kube.resource(CORE_KINDS.serviceAccount).get('thinker-agent', namespace),
    );
  });

  it('rolls the pods when the prompt pack changes: the template annotation follows it', async () => {
    const before = await statefulSets().get('coder', 'ns-alpha');
    const old = before.spec.template.metadata.annotations['paddock.dev/prompt-pack'];
    await eventually('the pack changed', async () => {
      const found = await packs().get('prompts', 'ns-alpha');
      await packs().replace({ ...found, spec: { ...found.spec, systemPrompt: 'You review.' } });
      return true;
    });
    const pack = await packs().get('prompts', 'ns-alpha');
    const after = await statefulSetWhere(
      'ns-alpha',
      'coder',
      'the new annotation',
      (s) => s.spec.template.metadata.annotations['paddock.dev/prompt-pack'] !== old,
    );
    assert.equal(
      after.spec.template.metadata.annotations['paddock.dev/prompt-pack'],
      `prompts@${pack.metadata.resourceVersion}`,
    );
  });

  it('reports Failed with the pod and its reason when the sandbox crashes in a loop', async () => {
    await createAgent('ns-alpha', 'crasher');
    await eventually('the pod', () => pods().get('crasher-0', 'ns-alpha'));
    await setPodStatus('ns-alpha', 'crasher-0', { waiting: 'CrashLoopBackOff' });
    const failed = await agentWhere(
      'ns-alpha',
      'crasher',
      'Failed',
      (a) => a.status?.phase === 'Failed',
    );
    assert.equal(condition(failed, 'Available')?.reason, 'CrashLoopBackOff');
    assert.match(condition(failed, 'Available')?.message ?? '', /crasher-0.*4 restarts/);
    const events = await eventually('the Failed event', async () => {
      const found = await eventsOf('ns-alpha', 'crasher', 'Failed');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(events[0]?.type, 'Warning');
  });

  it('leaves an agent outside any workspace Pending (NoWorkspace) and one with an unusable name Failed, making nothing', async () => {
    await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: 'ns-nowhere' } });
    await createAgent('ns-nowhere', 'lost');
    const lost = await agentWhere(
      'ns-nowhere',
      'lost',
      'NoWorkspace',
      (a) => condition(a, 'Available')?.reason === 'NoWorkspace',
    );
    assert.equal(lost.status?.phase, 'Pending');
    const name = `a${'b'.repeat(55)}`;
    await createAgent('ns-alpha', name);
    const invalid = await agentWhere(
      'ns-alpha',
      name,
      'InvalidName',
      (a) => a.status?.phase === 'Failed',
    );
    assert.equal(condition(invalid, 'Available')?.reason, 'InvalidName');
    await assert.rejects(statefulSets().get('lost', 'ns-nowhere'), NotFoundError);
    await assert.rejects(statefulSets().get(name, 'ns-alpha'), NotFoundError);
    await assert.rejects(secrets().get('paddock-sandbox-proof', 'ns-nowhere'), NotFoundError);
  });

  it('restores spec.replicas that an earlier version paused, once, and removes its annotation', async () => {
    await agents().create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'AgentRuntime',
      metadata: {
        name: 'old-paused',
        namespace: 'ns-alpha',
        annotations: { 'paddock.dev/paused-replicas': '3' },
      },
      spec: { promptPackRef: { name: 'prompts' }, replicas: 0 },
    });
    const restored = await agentWhere(
      'ns-alpha',
      'old-paused',
      'restored',
      (a) => a.spec.replicas === 3,
    );
    assert.equal(restored.metadata.annotations?.['paddock.dev/paused-replicas'], undefined);
    await statefulSetWhere('ns-alpha', 'old-paused', '3 replicas', (s) => s.spec.replicas === 3);
  });

  it('makes a new key pair when the platform Secret is deleted, and updates every copy', async () => {
    const before = await secrets().get('paddock-sandbox-proof', 'ns-alpha');
    const proofKey = (await statefulSets().get('coder', 'ns-alpha')).spec.template.metadata
      .annotations['paddock.dev/proof-key'];
    await secrets().delete('paddock-sandbox-proof', PLATFORM);
    // The Secrets are read, not watched: the next pass over an agent finds the key missing.
    await agents().patch(
      'coder',
      { metadata: { annotations: { touched: 'yes' } } },
      {
        namespace: 'ns-alpha',
      },
    );
    const copy = await eventually('the copy updated', async () => {
      const found = await secrets().get('paddock-sandbox-proof', 'ns-alpha');
      return found.data?.['public-key'] !== before.data?.['public-key'] ? found : undefined;
    });
    const platform = await secrets().get('paddock-sandbox-proof', PLATFORM);
    assert.equal(copy.data?.['public-key'], platform.data?.['public-key']);
    // The pods read the key at start: the template changes, so they restart with the new one.
    await statefulSetWhere(
      'ns-alpha',
      'coder',
      'the new key on the template',
      (s) => s.spec.template.metadata.annotations['paddock.dev/proof-key'] !== proofKey,
    );
  });

  it('leaves deletion to the garbage collector: the StatefulSet, the Service and the NetworkPolicy go with the agent', async () => {
    await networkPolicies().get('agent-coder', 'ns-alpha');
    await agents().delete('coder', 'ns-alpha');
    await gone('the StatefulSet', () => statefulSets().get('coder', 'ns-alpha'));
    await gone('the Service', () => services().get('coder', 'ns-alpha'));
    await gone('the NetworkPolicy', () => networkPolicies().get('agent-coder', 'ns-alpha'));
  });
});
