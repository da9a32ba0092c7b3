// The operator under load: 1,000 Workspaces applied at once (each creating its namespace, with a
// group RoleBinding and network isolation) until all are Ready; the cluster writes one reconcile makes
// when nothing changed; the operator's RSS at 1,000 and at 10,000 Workspaces.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { KINDS, type Workspace } from '@paddock/kube';
import { OPERATOR_NODE_FLAGS } from '@paddock/operator/node-flags';
import { freePort, start, tempDir } from '@paddock/testing';
import { startBenchCluster } from './lib/cluster.js';
import { ControllerMetrics, memoryMiB, noOpWrites } from './lib/operator-metrics.js';
import { printTable, type Row } from './lib/table.js';

const FIRST = 1_000;
const SECOND = 10_000;
const CONCURRENCY = 32;
const POLL_MS = 250;
const TOUCH_ANNOTATION = 'bench.paddock.dev/touched';
const root = join(import.meta.dirname, '..');
const operatorBin = join(root, 'packages', 'operator', 'bin', 'paddock-operator.js');

function workspace(i: number): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name: `bench-${i}`, labels: { bench: 'operator' } },
    spec: {
      displayName: `Bench workspace ${i}`,
      namespace: { name: `bench-${i}`, create: true },
      roleBindings: [{ groups: [`team-${i % 50}`], role: 'editor' }],
      networkPolicy: { isolate: true },
    },
  };
}

/** Runs `task(i)` for i in [from, to) with a bounded number in flight. */
async function pool(from: number, to: number, task: (i: number) => Promise<unknown>) {
  let next = from;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < to) await task(next++);
    }),
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const mib = (n: number) => `${n.toFixed(0)} MiB`;

const dir = await tempDir('paddock-bench-operator-');
try {
  const cluster = await startBenchCluster(dir.path);
  try {
    const { kube, kubeconfig } = cluster;
    const workspaces = kube.resource<Workspace>(KINDS.find((k) => k.kind === 'Workspace')!);

    const metricsPort = await freePort();
    // With the flags it runs with wherever it runs.
    const operator = start(
      process.execPath,
      [...OPERATOR_NODE_FLAGS, operatorBin, '--kubeconfig', kubeconfig],
      {
        env: {
          ...process.env,
          SVC_OPERATOR_LISTEN_ADDR: `127.0.0.1:${metricsPort}`,
          SVC_OPERATOR_WORKERS: '8',
        },
      },
    );
    try {
      await operator.waitForOutput(/leading: controllers started/, 60_000);
      const pid = operator.child.pid!;

      const metrics = new ControllerMetrics(metricsPort, 'workspace');
      const resourceVersion = async () =>
        Number((await workspaces.list({ limit: 1 })).metadata.resourceVersion);
      const readyCount = async () =>
        (await workspaces.listAll({ labelSelector: 'bench=operator' })).items.filter(
          (w) => w.status?.phase === 'Ready',
        ).length;

      /** Applies Workspaces [from, to) and times until all `to` are Ready (polled every 250 ms). */
      // Listing every Workspace costs the cluster CPU the operator also needs: larger sets are
      // polled less often.
      const applyUntilReady = async (from: number, to: number, limitMs: number) => {
        const pollMs = to > FIRST ? POLL_MS * 8 : POLL_MS;
        const started = performance.now();
        await pool(from, to, (i) => workspaces.create(workspace(i)));
        const appliedMs = performance.now() - started;
        let ready = 0;
        while ((ready = await readyCount()) < to && performance.now() - started < limitMs)
          await sleep(pollMs);
        return { appliedMs, readyMs: performance.now() - started, ready };
      };

      const settle = () => metrics.settle(POLL_MS);

      const rows: Row[] = [];
      const first = await applyUntilReady(0, FIRST, 10 * 60_000);
      rows.push({
        what: `${FIRST.toLocaleString('en-US')} Workspaces applied at once, all Ready`,
        figure: seconds(first.readyMs),
        detail: `${first.ready} Ready; creates took ${seconds(first.appliedMs)}`,
      });

      // Steady state. The controller has no periodic resync, so a resync is forced: each Workspace
      // gets an annotation (no spec change, no new generation), which its watch delivers and queues.
      // The Lease renewals go on meanwhile; they are measured over an idle window first and taken off.
      const noOp = await noOpWrites(
        metrics,
        resourceVersion,
        async () => {
          await pool(0, FIRST, (i) =>
            workspaces.patch(`bench-${i}`, {
              metadata: { annotations: { [TOUCH_ANNOTATION]: '1' } },
            }),
          );
          return FIRST;
        },
        { pollMs: POLL_MS, idleMs: 10_000 },
      );
      rows.push({
        what: 'writes per reconcile, nothing changed',
        figure: (noOp.writes / Math.max(noOp.reconciled, 1)).toFixed(3),
        detail: `${noOp.reconciled} reconciles; ${noOp.counted} writes − ${noOp.touches} touches − ${noOp.background} Lease renewals`,
      });
      rows.push({
        what: 'baseline: cluster writes with the operator idle',
        figure: `${((noOp.idleWrites / noOp.idleMs) * 60_000).toFixed(1)} /min`,
        detail: `${noOp.idleWrites} over ${seconds(noOp.idleMs)}`,
      });
      const atFirst = memoryMiB(pid);
      rows.push({
        what: `operator RSS at ${FIRST.toLocaleString('en-US')}`,
        figure: mib(atFirst.rss),
        detail: `peak ${mib(atFirst.peak)}`,
      });

      printTable(`Operator: ${FIRST.toLocaleString('en-US')} Workspaces (8 workers)`, rows);
      rows.length = 0;

      const second = await applyUntilReady(FIRST, SECOND, 30 * 60_000);
      await settle();
      const atSecond = memoryMiB(pid);
      rows.push({
        what: `${(SECOND - FIRST).toLocaleString('en-US')} more applied, all ${SECOND.toLocaleString('en-US')} Ready`,
        figure: seconds(second.readyMs),
        detail: `${second.ready} Ready; creates took ${seconds(second.appliedMs)}`,
      });
      rows.push({
        what: `operator RSS at ${SECOND.toLocaleString('en-US')}`,
        figure: mib(atSecond.rss),
        detail: `peak ${mib(atSecond.peak)}`,
      });
      rows.push({
        what: 'ratio of RSS',
        figure: `${(atSecond.rss / atFirst.rss).toFixed(2)}×`,
        detail: `at ${SECOND.toLocaleString('en-US')} / at ${FIRST.toLocaleString('en-US')}`,
      });

      printTable(
        `Operator: Workspaces with namespace, RoleBinding and isolation (8 workers)`,
        rows,
      );
    } finally {
      await operator.stop();
    }
  } finally {
    await cluster.stop();
  }
} finally {
  await dir.remove();
}
