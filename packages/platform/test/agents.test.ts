import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CORE_KINDS,
  installCrds,
  KINDS,
  podEndpoint,
  type AgentRuntime,
  type Kube,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import {
  claimPodAddressRange,
  eventually,
  startEmbeddedCluster,
  startOperator,
  tempDir,
  type EmbeddedCluster,
  type PodAddressRange,
  type Started,
} from '@paddock/testing';
import { LocalNode } from '../src/local-node.js';
import type { Pod } from '../src/local-node/pod.js';

/**
 * Agents for real on the embedded cluster: kubectl applies an AgentRuntime, the compiled operator
 * makes its StatefulSet and Service, the cluster's StatefulSet controller its pods and claims, and
 * the local node runs them. Everything a user does goes through kubectl or MCP.
 */

const run = promisify(execFile);
const isReady = (pod: Pod | undefined) =>
  pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
const NAMESPACE = 'agents-e2e';
const kind = (name: string) => KINDS.find((k) => k.kind === name)!;

describe('agents on the embedded cluster, with the operator and the local node', () => {
  let cluster: EmbeddedCluster;
  let kube: Kube;
  let operator: Started;
  let node: LocalNode;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let range: PodAddressRange | undefined;

  const kubectl = async (...args: string[]): Promise<string> => {
    try {
      const { stdout } = await run(
        'kubectl',
        ['--kubeconfig', cluster.kubeconfig, '--cache-dir', join(dir.path, 'kube-cache'), ...args],
        { env: { ...process.env, HOME: dir.path } },
      );
      return stdout;
    } catch (err) {
      assert.fail(`kubectl ${args.join(' ')}: ${(err as { stderr: string }).stderr}`);
    }
  };
  const apply = async (name: string, yaml: string) => {
    const file = join(dir.path, name);
    await writeFile(file, yaml);
    await kubectl('apply', '-f', file);
  };
  const jsonpath = (what: string, path: string) =>
    kubectl('get', what, '-n', NAMESPACE, '-o', `jsonpath=${path}`);
  const agents = () => kube.resource<AgentRuntime>(kind('AgentRuntime'));
  const names = async (resource: string) =>
    (await kubectl('get', resource, '-n', NAMESPACE, '-o', 'jsonpath={.items[*].metadata.name}'))
      .split(' ')
      .filter((n) => n !== '')
      .sort();
  const pods = async (agent: string) =>
    (
      await kube
        .resource<Pod>(CORE_KINDS.pod)
        .list({ namespace: NAMESPACE, labelSelector: `paddock.dev/agent=${agent}` })
    ).items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  /** The agent once its status says `phase` with `ready` of `replicas` pods. */
  const agentIs = (name: string, phase: string, ready: number, replicas = ready) =>
    eventually(
      `${name} ${phase} ${ready}/${replicas}`,
      async () => {
        const agent = await agents().get(name, NAMESPACE);
        const s = agent.status;
        return s?.phase === phase && s.readyReplicas === ready && s.replicas === replicas
          ? agent
          : undefined;
      },
      60_000,
      100,
    );
  const podsAre = (agent: string, want: string[]) =>
    eventually(
      `pods of ${agent}: ${want.join(', ') || 'none'}`,
      async () => {
        const found = (await pods(agent)).map((p) => p.metadata.name);
        return found.join() === want.join() ? true : undefined;
      },
      60_000,
      100,
    );
  const mcp = async <T>(pod: Pod, use: (client: Client) => Promise<T>): Promise<T> => {
    const endpoint = podEndpoint(pod, 'mcp');
    assert.ok(endpoint, `pod ${pod.metadata.name} has an address`);
    const client = new Client({ name: 'agents-e2e', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://${endpoint.host}:${endpoint.port}/mcp`)),
    );
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  };
  const text = (result: unknown) =>
    ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

  before(async () => {
    dir = await tempDir('paddock-agents-e2e-');
    cluster = await startEmbeddedCluster();
    kube = cluster.kube;
    await installCrds(kube);
    await kube
      .resource<KubeObject>(CORE_KINDS.namespace)
      .create({ metadata: { name: 'paddock-system' } });
    operator = await startOperator(cluster.kubeconfig);
    range = await claimPodAddressRange();
    node = new LocalNode({
      kube,
      dataDir: join(dir.path, 'node'),
      addresses: range,
      backOff: { initialMs: 300, maxMs: 600, resetAfterMs: 60_000 },
    });
    await node.start();
    await apply(
      'workspace.yaml',
      `apiVersion: paddock.dev/v1alpha1
kind: Workspace
metadata: {name: e2e}
spec:
  displayName: E2E
  namespace: {name: ${NAMESPACE}, create: true}
  quotas: {agents: {maxReplicasPerAgent: 2}}
  costControls: {dailyBudget: '10', budgetExceededAction: pauseJobs}
`,
    );
    await eventually(
      'the workspace Ready',
      async () =>
        (await kubectl('get', 'workspace', 'e2e', '-o', 'jsonpath={.status.phase}')) === 'Ready'
          ? true
          : undefined,
      30_000,
      100,
    );
    await apply(
      'prompt-pack.yaml',
      `apiVersion: paddock.dev/v1alpha1
kind: PromptPack
metadata: {name: prompts, namespace: ${NAMESPACE}}
spec: {systemPrompt: Be brief.}
`,
    );
  });

  after(async () => {
    await node?.stop();
    await operator?.stop();
    await cluster?.stop();
    await dir?.remove();
    await range?.release();
  });

  it('runs an applied agent as a StatefulSet: Service, claim, a Ready pod, status Running 1/1', async () => {
    await apply(
      'agent.yaml',
      `apiVersion: paddock.dev/v1alpha1
kind: AgentRuntime
metadata: {name: helper, namespace: ${NAMESPACE}}
spec:
  promptPackRef: {name: prompts}
  model: test-model
  env: {GREETING: hello}
`,
    );
    await agentIs('helper', 'Running', 1);
    assert.deepEqual(await names('statefulsets'), ['helper']);
    assert.deepEqual(await names('services'), ['helper']);
    assert.deepEqual(await names('persistentvolumeclaims'), ['workspace-helper-0']);
    assert.equal(await jsonpath('pvc/workspace-helper-0', '{.status.phase}'), 'Bound');
    assert.match(
      await kubectl('get', 'pvc', '-n', NAMESPACE),
      /STATUS\s+VOLUME\s+CAPACITY\s+ACCESS MODES[^\n]*\nworkspace-helper-0\s+Bound\s+10Gi\s+RWO\s/,
    );
    assert.equal(await jsonpath('sts/helper', '{.status.readyReplicas}'), '1');
    assert.equal(await jsonpath('svc/helper', '{.spec.clusterIP}'), 'None');
    const table = await kubectl('get', 'ar', '-n', NAMESPACE);
    assert.match(table, /helper\s+1\s+1\s+Running\s+test-model/);
    const [pod] = await pods('helper');
    assert.ok(pod);
    assert.equal(pod.spec.nodeName, 'paddock-local');
    const log = await kubectl('logs', '-n', NAMESPACE, 'helper-0');
    assert.match(log, /"msg":"MCP server listening"/);
  });

  it('scales with kubectl to 2 and back to 1: pod 1 goes, its claim stays', async () => {
    await kubectl('scale', 'ar/helper', '-n', NAMESPACE, '--replicas=2');
    await agentIs('helper', 'Running', 2);
    await podsAre('helper', ['helper-0', 'helper-1']);
    await kubectl('scale', 'ar/helper', '-n', NAMESPACE, '--replicas=1');
    await agentIs('helper', 'Running', 1);
    await podsAre('helper', ['helper-0']);
    assert.deepEqual(await names('persistentvolumeclaims'), [
      'workspace-helper-0',
      'workspace-helper-1',
    ]);
  });

  it('is capped by the workspace’s maxReplicasPerAgent, spec kept', async () => {
    await kubectl('scale', 'ar/helper', '-n', NAMESPACE, '--replicas=3');
    await agentIs('helper', 'Running', 2);
    const agent = await agents().get('helper', NAMESPACE);
    assert.equal(agent.spec.replicas, 3);
    const limited = agent.status?.conditions?.find((c) => c.type === 'ReplicasLimited');
    assert.equal(limited?.status, 'True');
    await kubectl('scale', 'ar/helper', '-n', NAMESPACE, '--replicas=1');
    await agentIs('helper', 'Running', 1);
    await podsAre('helper', ['helper-0']);
  });

  it('keeps a file written through MCP across a restart of the pod, and replaces the pod when the env changes', async () => {
    const [first] = await pods('helper');
    assert.ok(first);
    await mcp(first, (client) =>
      client.callTool({ name: 'Write', arguments: { file_path: 'kept.txt', content: 'kept\n' } }),
    );
    await kubectl('delete', 'pod', 'helper-0', '-n', NAMESPACE, '--wait=false');
    const restarted = await eventually(
      'a new helper-0 Ready',
      async () => {
        const [pod] = await pods('helper');
        const ready = isReady(pod);
        return pod && pod.metadata.uid !== first.metadata.uid && ready ? pod : undefined;
      },
      60_000,
      100,
    );
    const read = await mcp(restarted, (client) =>
      client.callTool({ name: 'Read', arguments: { file_path: 'kept.txt' } }),
    );
    assert.match(text(read), /kept/);

    await kubectl(
      'patch',
      'ar/helper',
      '-n',
      NAMESPACE,
      '--type=merge',
      '-p',
      '{"spec":{"env":{"GREETING":"changed"}}}',
    );
    const replaced = await eventually(
      'helper-0 replaced with the new env',
      async () => {
        const [pod] = await pods('helper');
        const env = pod?.spec.containers[0]?.env?.find((e) => e.name === 'GREETING');
        const ready = isReady(pod);
        return pod && env?.value === 'changed' && ready ? pod : undefined;
      },
      60_000,
      100,
    );
    assert.notEqual(replaced.metadata.uid, restarted.metadata.uid);
    await agentIs('helper', 'Running', 1);
    const again = await mcp(replaced, (client) =>
      client.callTool({ name: 'Read', arguments: { file_path: 'kept.txt' } }),
    );
    assert.match(text(again), /kept/);
  });

  it('pauses to 0 pods while the budget is exceeded, and comes back when it is not', async () => {
    const today = new Date().toISOString();
    const agent = await agents().get('helper', NAMESPACE);
    await agents().replaceStatus({
      ...agent,
      status: {
        ...agent.status,
        costUsage: {
          day: today.slice(0, 10),
          dailySpend: '25.00',
          month: today.slice(0, 7),
          monthlySpend: '25.00',
        },
      },
    });
    await podsAre('helper', []);
    const paused = await agentIs('helper', 'Pending', 0, 0);
    assert.equal(paused.spec.replicas, 1, 'spec.replicas is never rewritten');
    assert.equal(paused.status?.conditions?.find((c) => c.type === 'Paused')?.status, 'True');
    const workspaces = kube.resource<Workspace>(kind('Workspace'));
    const workspace = await workspaces.get('e2e');
    await workspaces.replace({
      ...workspace,
      spec: {
        ...workspace.spec,
        costControls: { ...workspace.spec.costControls, dailyBudget: '100' },
      },
    });
    await agentIs('helper', 'Running', 1);
    await podsAre('helper', ['helper-0']);
  });

  it('leaves a pod of another image Pending with an event saying why', async () => {
    await apply(
      'other.yaml',
      `apiVersion: paddock.dev/v1alpha1
kind: AgentRuntime
metadata: {name: other, namespace: ${NAMESPACE}}
spec:
  promptPackRef: {name: prompts}
  image: nginx:1.27
`,
    );
    const events = await eventually(
      'the node’s event on other-0',
      async () => {
        const found = await kube.eventsFor(NAMESPACE, { name: 'other-0', kind: 'Pod' });
        return found.some((e) => /^this node runs only paddock-sandbox/.test(e.message ?? ''))
          ? found
          : undefined;
      },
      60_000,
      100,
    );
    assert.ok(events.some((e) => e.message?.includes('nginx:1.27')));
    assert.equal(await jsonpath('pod/other-0', '{.status.phase}'), 'Pending');
    await agentIs('other', 'Pending', 0, 1);
  });

  it('deletes with the agent its StatefulSet, Service, pods, claims and their folders', async () => {
    const volume = join(dir.path, 'node', 'volumes', NAMESPACE, 'workspace-helper-0');
    assert.ok(existsSync(volume));
    assert.equal(await readFile(join(volume, 'kept.txt'), 'utf8'), 'kept\n');
    await kubectl('delete', 'ar', 'helper', 'other', '-n', NAMESPACE);
    await eventually(
      'everything the agents made gone',
      async () => {
        const left = [
          ...(await names('statefulsets')),
          ...(await names('services')),
          ...(await names('pods')),
          ...(await names('persistentvolumeclaims')),
        ];
        return left.length === 0 ? true : undefined;
      },
      60_000,
      100,
    );
    await eventually('the claim folders removed', () => (existsSync(volume) ? undefined : true));
  });
});
