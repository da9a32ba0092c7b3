import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  API_VERSION,
  CORE_KINDS,
  installCrds,
  KINDS,
  LABEL_AGENT,
  type AgentRuntime,
  type AgentRuntimeSpec,
  type Kube,
  type KubeObject,
} from '@paddock/kube';
import {
  assertDies,
  eventually,
  isAlive,
  startEmbeddedCluster,
  tempDir,
  type EmbeddedCluster,
} from '@paddock/testing';
import { LocalAgents } from '../src/local-agents.js';
import type { Pod } from '../src/local-agents/pod.js';

const NAMESPACE = 'team';
const agentKind = KINDS.find((k) => k.kind === 'AgentRuntime')!;

describe('the local agents of the embedded cluster', () => {
  let cluster: EmbeddedCluster;
  let kube: Kube;
  let dir: { path: string; remove: () => Promise<void> };
  let agents: LocalAgents;
  /** Every process the runner was seen running, to check that none outlives it. */
  const seen = new Set<number>();

  const agentClient = () => kube.resource<AgentRuntime>(agentKind);
  const podsOf = async (agent: string) =>
    (
      await kube
        .resource<Pod>(CORE_KINDS.pod)
        .list({ namespace: NAMESPACE, labelSelector: `${LABEL_AGENT}=${agent}` })
    ).items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  const processesOf = (agent: string) => {
    const running = agents.processes().filter((p) => p.pod.startsWith(`${agent}-`));
    for (const p of running) seen.add(p.pid);
    return running;
  };
  const createAgent = (name: string, spec: Partial<AgentRuntimeSpec>) =>
    agentClient().create({
      apiVersion: API_VERSION,
      kind: 'AgentRuntime',
      metadata: { name, namespace: NAMESPACE },
      spec: { promptPackRef: { name: 'prompts' }, ...spec },
    });
  const eventsOf = async (name: string, kind: string) =>
    (await kube.eventsFor(NAMESPACE, { name, kind })).map((e) => ({
      type: e.type,
      reason: e.reason,
      message: e.message,
      count: e.count,
      source: e.source?.component,
    }));
  const allRunning = async (agent: string, count: number) => {
    const pods = await podsOf(agent);
    return pods.length === count && pods.every((p) => p.status?.phase === 'Running')
      ? pods
      : undefined;
  };

  before(async () => {
    cluster = await startEmbeddedCluster();
    kube = cluster.kube;
    await installCrds(kube);
    await kube.resource<KubeObject>(CORE_KINDS.namespace).create({ metadata: { name: NAMESPACE } });
    await kube.resource<KubeObject>(KINDS.find((k) => k.kind === 'PromptPack')!).create({
      apiVersion: API_VERSION,
      kind: 'PromptPack',
      metadata: { name: 'prompts', namespace: NAMESPACE },
      spec: { systemPrompt: 'Be brief.' },
    } as KubeObject);
    dir = await tempDir();
    agents = new LocalAgents({
      kube,
      workspacesDir: dir.path,
      backOff: { initialMs: 300, maxMs: 600, resetAfterMs: 60_000 },
      stopGraceMs: 5000,
    });
    await agents.start();
  });

  after(async () => {
    await agents?.stop();
    for (const pid of seen) await assertDies(pid);
    await cluster?.stop();
    await dir?.remove();
  });

  it('runs each replica of a sandbox agent as a process, scales it, and stops it with the agent', async () => {
    const created = await createAgent('helper', { replicas: 2, env: { GREETING: 'hello' } });
    const pods = await eventually('two Running pods', () => allRunning('helper', 2), 30_000, 100);
    for (const [i, pod] of pods.entries()) {
      assert.equal(pod.metadata.name, `helper-${i}`);
      assert.equal(pod.metadata.labels?.[LABEL_AGENT], 'helper');
      assert.deepEqual(
        pod.metadata.ownerReferences?.map((o) => [o.kind, o.name, o.uid, o.controller]),
        [['AgentRuntime', 'helper', created.metadata.uid, true]],
      );
      assert.equal(pod.spec.containers[0]?.name, 'agent');
      assert.equal(pod.spec.containers[0]?.image, 'paddock-sandbox:latest');
      assert.equal(pod.status?.podIP, '127.0.0.1');
      assert.ok(pod.status?.startTime);
      assert.equal(pod.status?.containerStatuses?.[0]?.ready, true);
      assert.ok(existsSync(join(dir.path, NAMESPACE, pod.metadata.name)), 'its own workspace');
    }
    // Real processes, with the agent's env, whose output is the pod's log.
    const processes = processesOf('helper');
    assert.equal(processes.length, 2);
    for (const { pid } of processes) {
      assert.ok(await isAlive(pid));
      assert.match(await readFile(`/proc/${pid}/environ`, 'latin1'), /(^|\0)GREETING=hello\0/);
    }
    const log = await eventually(
      'the sandbox’s own lines in the pod log',
      async () => {
        const text = await kube.podLogs(NAMESPACE, 'helper-0', { container: 'agent' });
        return /"msg":"MCP server listening"/.test(text) ? text : undefined;
      },
      10_000,
      100,
    );
    const port = pods[0]!.spec.containers[0]!.ports![0]!.containerPort;
    assert.match(log, new RegExp(`"addr":"127\\.0\\.0\\.1:${port}"`));
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    assert.equal(health.status, 200, 'the pod answers on its address and port');
    // Events as a kubelet and a ReplicaSet controller record them.
    const podEvents = await eventsOf('helper-0', 'Pod');
    for (const reason of ['Scheduled', 'Pulled', 'Created', 'Started']) {
      const event = podEvents.find((e) => e.reason === reason);
      assert.equal(event?.type, 'Normal', reason);
      assert.equal(event?.source, 'paddock-local-agents');
    }
    assert.deepEqual(
      (await eventsOf('helper', 'AgentRuntime')).map((e) => [e.reason, e.message]).sort(),
      [
        ['SuccessfulCreate', 'Created pod: helper-0'],
        ['SuccessfulCreate', 'Created pod: helper-1'],
      ],
    );
    const status = await eventually(
      'the agent Running with 2 ready replicas',
      async () => {
        const agent = await agentClient().get('helper', NAMESPACE);
        return agent.status?.readyReplicas === 2 ? agent.status : undefined;
      },
      10_000,
      100,
    );
    assert.deepEqual(status, {
      phase: 'Running',
      replicas: 2,
      readyReplicas: 2,
      observedGeneration: created.metadata.generation,
    });

    // Scaled to one: the second replica's process stops and its pod goes.
    const second = processes.find((p) => p.pod === 'helper-1')!;
    await agentClient().patch('helper', { spec: { replicas: 1 } }, { namespace: NAMESPACE });
    await assertDies(second.pid);
    await eventually('one pod left', async () =>
      (await podsOf('helper')).length === 1 ? true : undefined,
    );
    assert.deepEqual(
      processesOf('helper').map((p) => p.pod),
      ['helper-0'],
    );
    assert.ok(!existsSync(join(dir.path, NAMESPACE, 'helper-1')), 'its workspace went with it');
    assert.ok((await eventsOf('helper-1', 'Pod')).some((e) => e.reason === 'Killing'));
    await eventually('the agent’s status at one replica', async () => {
      const agent = await agentClient().get('helper', NAMESPACE);
      return agent.status?.replicas === 1 &&
        agent.status.readyReplicas === 1 &&
        agent.status.phase === 'Running' &&
        agent.status.observedGeneration === agent.metadata.generation
        ? true
        : undefined;
    });

    // Deleted: its last process stops, and the cluster collects its pod.
    const first = processes.find((p) => p.pod === 'helper-0')!;
    await agentClient().delete('helper', NAMESPACE);
    await assertDies(first.pid);
    assert.deepEqual(processesOf('helper'), []);
    await eventually('the pod collected', async () =>
      (await podsOf('helper')).length === 0 ? true : undefined,
    );
  });

  it('restarts a replica whose process dies, and counts the restart', async () => {
    await createAgent('phoenix', { replicas: 1 });
    await eventually('a Running pod', () => allRunning('phoenix', 1), 30_000, 100);
    const [before] = processesOf('phoenix');
    process.kill(before!.pid, 'SIGKILL');
    const [pod] = await eventually(
      'the pod Running again',
      async () => {
        const pods = await allRunning('phoenix', 1);
        return pods?.[0]?.status?.containerStatuses?.[0]?.restartCount === 1 ? pods : undefined;
      },
      30_000,
      100,
    );
    assert.equal(pod!.status?.containerStatuses?.[0]?.lastState.terminated?.exitCode, 137);
    const [after] = processesOf('phoenix');
    assert.notEqual(after?.pid, before!.pid);
    // The new process's lines reach the log in the next batch, which may follow the Running status.
    const log = await eventually('both processes’ lines in the log', async () => {
      const text = await kube.podLogs(NAMESPACE, 'phoenix-0');
      return (text.match(/MCP server listening/g)?.length ?? 0) >= 2 ? text : undefined;
    });
    assert.equal(log.match(/MCP server listening/g)?.length, 2, log);
    await agentClient().delete('phoenix', NAMESPACE);
    await assertDies(after!.pid);
  });

  it('backs off a replica that keeps crashing, and reports the agent Failed', async () => {
    // The sandbox refuses this setting at start, so it exits with its reason every time.
    await createAgent('crasher', { replicas: 1, env: { SVC_MCP_KEEPALIVE_SECONDS: 'never' } });
    const agent = await eventually(
      'the agent Failed',
      async () => {
        const found = await agentClient().get('crasher', NAMESPACE);
        return found.status?.phase === 'Failed' ? found : undefined;
      },
      30_000,
      100,
    );
    assert.equal(agent.status?.readyReplicas, 0);
    const [pod] = await podsOf('crasher');
    const container = pod!.status?.containerStatuses?.[0];
    assert.ok((container?.restartCount ?? 0) >= 1);
    assert.equal(container?.lastState.terminated?.exitCode, 2);
    const backOff = (await eventsOf('crasher-0', 'Pod')).find((e) => e.reason === 'BackOff');
    assert.equal(backOff?.type, 'Warning');
    assert.match(
      await kube.podLogs(NAMESPACE, 'crasher-0'),
      /SVC_MCP_KEEPALIVE_SECONDS/,
      'the process’s own reason is in the pod log',
    );
    await agentClient().delete('crasher', NAMESPACE);
    await eventually('no crasher process', () =>
      processesOf('crasher').length === 0 ? true : undefined,
    );
  });

  it('leaves the pod of an image it cannot run Pending, with one warning that says why', async () => {
    await createAgent('remote', { replicas: 1, image: 'ghcr.io/acme/agent:1.0' });
    const [pod] = await eventually('the pod waiting', async () => {
      const pods = await podsOf('remote');
      return pods[0]?.status?.containerStatuses?.[0]?.state.waiting?.reason === 'ErrImageNeverPull'
        ? pods
        : undefined;
    });
    assert.equal(pod!.status?.phase, 'Pending');
    assert.equal(pod!.spec.containers[0]?.ports, undefined);
    const warnings = await eventually('the warning', async () => {
      const found = (await eventsOf('remote-0', 'Pod')).filter((e) => e.type === 'Warning');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.reason, 'ErrImageNeverPull');
    assert.equal(warnings[0]?.count, 1);
    assert.match(warnings[0]?.message ?? '', /only the paddock-sandbox image runs/);
    assert.deepEqual(processesOf('remote'), []);
    const status = await eventually('the agent’s status', async () => {
      const found = await agentClient().get('remote', NAMESPACE);
      return found.status?.replicas === 1 ? found.status : undefined;
    });
    assert.equal(status.phase, 'Pending');
    assert.equal(status.readyReplicas, 0);
  });

  it('carries on after a restart: runs its pods again, and replaces one whose port was taken', async () => {
    await createAgent('steady', { replicas: 1 });
    await createAgent('moved', { replicas: 1 });
    const [steady] = await eventually('steady Running', () => allRunning('steady', 1), 30_000, 100);
    const [moved] = await eventually('moved Running', () => allRunning('moved', 1), 30_000, 100);
    const oldPids = agents.processes().map((p) => p.pid);
    await agents.stop();
    for (const pid of oldPids) await assertDies(pid);
    // Another program takes the port of one pod while nothing runs it.
    const takenPort = moved!.spec.containers[0]!.ports![0]!.containerPort;
    const squatter = createServer().listen(takenPort, '127.0.0.1');
    await once(squatter, 'listening');
    try {
      agents = new LocalAgents({ kube, workspacesDir: dir.path, stopGraceMs: 5000 });
      await agents.start();
      const [again] = await eventually(
        'steady Running again, restarted',
        async () => {
          const pods = await allRunning('steady', 1);
          return pods?.[0]?.status?.containerStatuses?.[0]?.restartCount === 1 ? pods : undefined;
        },
        30_000,
        100,
      );
      assert.equal(again!.metadata.uid, steady!.metadata.uid, 'the same pod');
      const [replaced] = await eventually(
        'moved replaced by a pod on another port',
        async () => {
          const pods = await allRunning('moved', 1);
          return pods?.[0] && pods[0].metadata.uid !== moved!.metadata.uid ? pods : undefined;
        },
        30_000,
        100,
      );
      assert.notEqual(replaced!.spec.containers[0]!.ports![0]!.containerPort, takenPort);
      const warning = (await eventsOf('moved-0', 'Pod')).find((e) => e.reason === 'PortInUse');
      assert.equal(warning?.type, 'Warning');
      assert.match(warning?.message ?? '', new RegExp(`Port ${takenPort} .* in use`));
      const remote = (await eventsOf('remote-0', 'Pod')).filter((e) => e.type === 'Warning');
      assert.deepEqual(
        remote.map((e) => [e.reason, e.count]),
        [['ErrImageNeverPull', 1]],
        'said once, not at every restart',
      );
      processesOf('steady');
      processesOf('moved');
    } finally {
      squatter.close();
    }
  });
});
