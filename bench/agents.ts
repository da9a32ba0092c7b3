// Agents for real on the embedded cluster: 100 AgentRuntimes in 10 Workspaces applied at once, with
// the operator turning each into a StatefulSet and the local node running each pod as a sandbox
// process. Seconds until every pod is Ready; the operator's, the node's and the sandboxes' memory;
// the cluster writes one AgentRuntime reconcile makes when nothing changed.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { execFileSync } from 'node:child_process';
import {
  CORE_KINDS,
  KINDS,
  type AgentRuntime,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import { freePort, start, tempDir } from '@paddock/testing';
import { startBenchCluster } from './lib/cluster.js';
import { ControllerMetrics, memoryMiB, noOpWrites } from './lib/operator-metrics.js';
import { printTable, type Row } from './lib/table.js';

const WORKSPACES = 10;
const PER_WORKSPACE = 10;
const AGENTS = WORKSPACES * PER_WORKSPACE;
const POLL_MS = 250;
const TOUCH_ANNOTATION = 'bench.paddock.dev/touched';
const root = join(import.meta.dirname, '..');
const operatorBin = join(root, 'packages', 'operator', 'bin', 'paddock-operator.js');
const paddockBin = join(root, 'packages', 'platform', 'bin', 'paddock.js');

const kind = (name: string) => KINDS.find((k) => k.kind === name)!;
const namespaceOf = (w: number) => `bench-agents-${w}`;

function workspace(w: number): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name: namespaceOf(w) },
    spec: {
      displayName: `Bench agents ${w}`,
      namespace: { name: namespaceOf(w), create: true },
      quotas: { agents: { maxReplicasPerAgent: 2 } },
    },
  };
}

function agent(w: number, a: number): AgentRuntime {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: { name: `agent-${a}`, namespace: namespaceOf(w) },
    spec: { promptPackRef: { name: 'prompts' }, replicas: 1, model: 'bench-model' },
  };
}

/** The pids of a process's children. */
function childrenOf(pid: number): number[] {
  const out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (n: number) => `${n.toFixed(0)} MiB`;

const dir = await tempDir('paddock-bench-agents-');
try {
  const cluster = await startBenchCluster(dir.path);
  try {
    const { kube, kubeconfig } = cluster;
    const workspaces = kube.resource<Workspace>(kind('Workspace'));
    const agents = kube.resource<AgentRuntime>(kind('AgentRuntime'));
    const promptPacks = kube.resource<KubeObject>(kind('PromptPack'));
    const pods = kube.resource<
      KubeObject & { status?: { conditions?: { type: string; status: string }[] } }
    >(CORE_KINDS.pod);

    const metricsPort = await freePort();
    const operator = start(process.execPath, [operatorBin, '--kubeconfig', kubeconfig], {
      env: {
        ...process.env,
        SVC_OPERATOR_LISTEN_ADDR: `127.0.0.1:${metricsPort}`,
        SVC_OPERATOR_WORKERS: '8',
      },
    });
    const node = start(
      process.execPath,
      [paddockBin, 'node', '--data', join(dir.path, 'node'), '--kubeconfig', kubeconfig],
      { env: { ...process.env, SVC_LOG_LEVEL: 'warn' } },
    );
    try {
      await operator.waitForOutput(/leading: controllers started/, 60_000);
      const metrics = new ControllerMetrics(metricsPort, 'agentruntime');
      const resourceVersion = async () =>
        Number((await workspaces.list({ limit: 1 })).metadata.resourceVersion);

      // The workspaces and their prompt packs first: what is measured is the agents.
      for (let w = 0; w < WORKSPACES; w++) await workspaces.create(workspace(w));
      for (;;) {
        const ready = (await workspaces.listAll()).items.filter((x) => x.status?.phase === 'Ready');
        if (ready.length === WORKSPACES) break;
        await sleep(POLL_MS);
      }
      for (let w = 0; w < WORKSPACES; w++) {
        await promptPacks.create({
          apiVersion: 'paddock.dev/v1alpha1',
          kind: 'PromptPack',
          metadata: { name: 'prompts', namespace: namespaceOf(w) },
          spec: { systemPrompt: 'Be brief.' },
        } as KubeObject);
      }

      const readyPods = async () =>
        (
          await pods.listAll({ labelSelector: 'app.kubernetes.io/name=paddock-agent' })
        ).items.filter((p) =>
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
        ).length;
      const runningAgents = async () =>
        (await agents.listAll()).items.filter((a) => a.status?.phase === 'Running').length;

      const started = performance.now();
      await Promise.all(
        Array.from({ length: WORKSPACES }, (_, w) =>
          Promise.all(
            Array.from({ length: PER_WORKSPACE }, (_, a) =>
              agents.create(agent(w, w * PER_WORKSPACE + a)),
            ),
          ),
        ),
      );
      const appliedMs = performance.now() - started;
      let ready = 0;
      while ((ready = await readyPods()) < AGENTS && performance.now() - started < 15 * 60_000) {
        await sleep(POLL_MS);
      }
      const podsReadyMs = performance.now() - started;
      let running = 0;
      while (
        (running = await runningAgents()) < AGENTS &&
        performance.now() - started < 16 * 60_000
      ) {
        await sleep(POLL_MS);
      }
      const agentsRunningMs = performance.now() - started;

      // The idle rate (Lease renewals, probes that changed nothing) is measured first and taken off.
      const noOp = await noOpWrites(
        metrics,
        resourceVersion,
        async () => {
          for (let w = 0; w < WORKSPACES; w++) {
            await Promise.all(
              Array.from({ length: PER_WORKSPACE }, (_, a) =>
                agents.patch(
                  `agent-${w * PER_WORKSPACE + a}`,
                  { metadata: { annotations: { [TOUCH_ANNOTATION]: '1' } } },
                  { namespace: namespaceOf(w) },
                ),
              ),
            );
          }
          return AGENTS;
        },
        { pollMs: POLL_MS, idleMs: 10_000 },
      );

      const sandboxes = childrenOf(node.child.pid!).map(memoryMiB);
      const sandboxTotal = sandboxes.reduce((sum, m) => sum + m.rss, 0);
      const operatorMemory = memoryMiB(operator.child.pid!);
      const nodeMemory = memoryMiB(node.child.pid!);
      const clusterMemory = memoryMiB(cluster.pid);

      const rows: Row[] = [
        {
          what: `${AGENTS} AgentRuntimes applied at once, every pod Ready`,
          figure: seconds(podsReadyMs),
          detail: `${ready} pods Ready; creates took ${seconds(appliedMs)}`,
        },
        {
          what: 'and every AgentRuntime Running (status written)',
          figure: seconds(agentsRunningMs),
          detail: `${running} Running`,
        },
        {
          what: 'writes per agent reconcile, nothing changed',
          figure: (Math.max(noOp.writes, 0) / Math.max(noOp.reconciled, 1)).toFixed(3),
          detail: `${noOp.reconciled} reconciles; ${noOp.counted} writes − ${noOp.touches} touches − ${noOp.background} background`,
        },
        {
          what: 'background writes with everything idle',
          figure: `${((noOp.idleWrites / noOp.idleMs) * 60_000).toFixed(1)} /min`,
          detail: `${noOp.idleWrites} over ${seconds(noOp.idleMs)}`,
        },
        {
          what: 'operator RSS',
          figure: mib(operatorMemory.rss),
          detail: `peak ${mib(operatorMemory.peak)}`,
        },
        {
          what: 'node agent RSS',
          figure: mib(nodeMemory.rss),
          detail: `peak ${mib(nodeMemory.peak)}`,
        },
        {
          what: 'sandbox processes, RSS each',
          figure: mib(sandboxTotal / Math.max(sandboxes.length, 1)),
          detail: `${sandboxes.length} processes, ${mib(sandboxTotal)} in all`,
        },
        {
          what: 'embedded cluster RSS',
          figure: mib(clusterMemory.rss),
          detail: `peak ${mib(clusterMemory.peak)}`,
        },
      ];
      printTable(`Agents: ${AGENTS} AgentRuntimes in ${WORKSPACES} Workspaces (8 workers)`, rows);
    } finally {
      if (process.env.BENCH_LOGS !== undefined) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync(join(process.env.BENCH_LOGS, 'operator.log'), operator.output());
        writeFileSync(join(process.env.BENCH_LOGS, 'node.log'), node.output());
      }
      await node.stop();
      await operator.stop();
    }
  } finally {
    await cluster.stop();
  }
} finally {
  await dir.remove();
}
