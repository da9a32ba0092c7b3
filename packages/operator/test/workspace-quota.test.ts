import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { logMailer, silentLogger } from '@paddock/common';
import {
  CORE_KINDS,
  ForbiddenError,
  KINDS,
  Kube,
  installCrds,
  type AgentRuntime,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import {
  eventuallyOk as eventually,
  startEmbeddedCluster,
  type EmbeddedCluster,
} from '@paddock/testing';
import { WorkspaceController } from '../src/controllers/workspace-controller.js';
import { operatorEventRecorder } from '../src/runtime/events.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import { QUOTA_NAME } from '../src/workspace/quota.js';

const kindOf = (kind: string) => KINDS.find((k) => k.kind === kind) as (typeof KINDS)[number];
const NAMESPACE = 'ns-quota';

let cluster: EmbeddedCluster;
let kube: Kube;
let controller: WorkspaceController;

interface Quota extends KubeObject {
  status?: { hard?: Record<string, string>; used?: Record<string, string> };
}

function agentRuntime(name: string): AgentRuntime {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: { name, namespace: NAMESPACE },
    spec: { promptPackRef: { name: 'prompts' }, replicas: 1, model: 'claude-sonnet-4' },
  };
}

function pod(name: string, cpu: string): KubeObject & { spec: unknown } {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NAMESPACE },
    spec: {
      containers: [
        { name: 'agent', image: 'agent', resources: { requests: { cpu, memory: '64Mi' } } },
      ],
    },
  };
}

/** The workspace's quota once the cluster's quota controller reports this usage. */
async function quotaUsing(used: Record<string, string>): Promise<Quota> {
  return eventually(`the workspace quota using ${JSON.stringify(used)}`, async () => {
    const quota = await kube.resource<Quota>(CORE_KINDS.resourceQuota).get(QUOTA_NAME, NAMESPACE);
    const have = quota.status?.used ?? {};
    return Object.entries(used).every(([k, v]) => have[k] === v) ? quota : undefined;
  });
}

before(async () => {
  cluster = await startEmbeddedCluster();
  kube = cluster.kube;
  await installCrds(kube);
  controller = new WorkspaceController({
    kube: new Kube(kube.config),
    recorder: operatorEventRecorder(kube),
    metrics: new OperatorMetrics({ processMetrics: false }),
    logger: silentLogger(),
    mailer: logMailer(silentLogger()),
    platformNamespace: 'paddock-system',
  });
  await controller.start();
});

after(async () => {
  await controller.stop();
  await cluster.stop();
});

describe("a Workspace's quotas, in the embedded cluster", () => {
  it('refuse the AgentRuntime and the pod one too many, as a real cluster does', async () => {
    const workspace: Workspace = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'quota' },
      spec: {
        displayName: 'quota',
        namespace: { name: NAMESPACE, create: true },
        quotas: {
          agents: { maxAgentRuntimes: 2 },
          compute: { requests: { cpu: '1', memory: '1Gi' } },
        },
      },
    };
    await kube.resource<Workspace>(kindOf('Workspace')).create(workspace);
    await quotaUsing({ 'count/agentruntimes.paddock.dev': '0', 'requests.cpu': '0' });

    const runtimes = kube.resource<AgentRuntime>(kindOf('AgentRuntime'));
    await runtimes.create(agentRuntime('one'));
    await runtimes.create(agentRuntime('two'));
    const refused = await runtimes.create(agentRuntime('three')).then(
      () => assert.fail('a third AgentRuntime was created'),
      (err: unknown) => err,
    );
    assert.ok(refused instanceof ForbiddenError);
    assert.equal(
      refused.message,
      'agentruntimes.paddock.dev "three" is forbidden: exceeded quota: workspace-quota, requested: count/agentruntimes.paddock.dev=1, used: count/agentruntimes.paddock.dev=2, limited: count/agentruntimes.paddock.dev=2',
    );

    const pods = kube.resource(CORE_KINDS.pod);
    await pods.create(pod('first', '750m'));
    await assert.rejects(
      pods.create(pod('second', '500m')),
      (err: unknown) =>
        err instanceof ForbiddenError &&
        err.message ===
          'pods "second" is forbidden: exceeded quota: workspace-quota, requested: requests.cpu=500m, used: requests.cpu=750m, limited: requests.cpu=1',
    );

    const quota = await quotaUsing({
      'count/agentruntimes.paddock.dev': '2',
      'requests.cpu': '750m',
      'requests.memory': '64Mi',
    });
    assert.deepEqual(quota.status?.hard, {
      'count/agentruntimes.paddock.dev': '2',
      'requests.cpu': '1',
      'requests.memory': '1Gi',
    });
    // Deleting one frees its place.
    await runtimes.delete('one', NAMESPACE);
    await quotaUsing({ 'count/agentruntimes.paddock.dev': '1' });
    await runtimes.create(agentRuntime('three'));
  });
});
