// The embedded Kubernetes API under Paddock's kind of load: create 10,000 Workspaces, list them
// all, and a watch delivering 10,000 events; the server's RSS and the size of its SQLite file.
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { KINDS, Kube, type Workspace, installCrds } from '@paddock/kube';
import { tempDir } from '@paddock/testing';
import { peakRssMiB, startServer } from './lib/processes.js';
import { printTable } from './lib/table.js';

const COUNT = 10_000;
const CONCURRENCY = 32;
const root = join(import.meta.dirname, '..');
const clusterBin = join(root, 'packages', 'cluster-local', 'bin', 'paddock-cluster.js');

function workspace(i: number): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name: `bench-${i}`, labels: { bench: 'cluster', shard: String(i % 10) } },
    spec: {
      displayName: `Bench workspace ${i}`,
      namespace: { name: `bench-${i}` },
      roleBindings: [{ groups: [`team-${i % 50}`], role: 'editor' }],
      anonymousAccess: { enabled: false },
    },
  };
}

/** Runs `task(i)` for i in [0, count) with a bounded number in flight. */
async function pool(count: number, task: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

const dir = await tempDir('paddock-bench-cluster-');
try {
  const kubeconfig = join(dir.path, 'kubeconfig');
  const data = join(dir.path, 'data');
  const server = await startServer(
    process.execPath,
    [clusterBin, '--listen', '127.0.0.1:0', '--data', data, '--kubeconfig', kubeconfig],
    /"addr":"127\.0\.0\.1:(\d+)"/,
  );
  try {
    const kube = Kube.connect({ kubeconfig });
    await installCrds(kube);
    const kind = KINDS.find((k) => k.kind === 'Workspace')!;
    const workspaces = kube.resource<Workspace>(kind);

    // A watch that counts the events of the creations and of one update each.
    let events = 0;
    let lastEventAt = 0;
    let firstEventAt = 0;
    const stopWatch = await workspaces.watch(
      { labelSelector: 'bench=cluster' },
      (event) => {
        if (event.type === 'BOOKMARK') return;
        if (events === 0) firstEventAt = performance.now();
        events++;
        lastEventAt = performance.now();
      },
      () => {},
    );

    const before = (await workspaces.list({ limit: 1 })).metadata.resourceVersion;
    let started = performance.now();
    await pool(COUNT, (i) => workspaces.create(workspace(i)));
    const createMs = performance.now() - started;

    started = performance.now();
    const listed = await workspaces.listAll();
    const listMs = performance.now() - started;
    started = performance.now();
    const selected = await workspaces.list({ labelSelector: 'shard=3' });
    const selectMs = performance.now() - started;

    const deadline = Date.now() + 60_000;
    while (events < COUNT && Date.now() < deadline) await sleep(50);
    stopWatch();
    const watchSeconds = (lastEventAt - firstEventAt) / 1000;

    // A watch resuming from before the creations: the server replays them from its change log.
    let replayed = 0;
    let replayDone!: () => void;
    const allReplayed = new Promise<void>((resolve) => (replayDone = resolve));
    started = performance.now();
    const stopReplay = await workspaces.watch(
      {
        labelSelector: 'bench=cluster',
        ...(before === undefined ? {} : { resourceVersion: before }),
      },
      (event) => {
        if (event.type !== 'BOOKMARK' && ++replayed === COUNT) replayDone();
      },
      () => {},
    );
    await Promise.race([allReplayed, sleep(60_000)]);
    const replayMs = performance.now() - started;
    stopReplay();

    printTable(`Embedded cluster: ${COUNT.toLocaleString('en-US')} Workspaces`, [
      {
        what: `create (${CONCURRENCY} in flight)`,
        figure: `${Math.round(COUNT / (createMs / 1000)).toLocaleString('en-US')} objects/s`,
        detail: `${(createMs / 1000).toFixed(1)} s`,
      },
      {
        what: 'list all (pages of 500)',
        figure: `${listMs.toFixed(0)} ms`,
        detail: `${listed.items.length} objects`,
      },
      {
        what: 'list by label (1 in 10)',
        figure: `${selectMs.toFixed(0)} ms`,
        detail: `${selected.items.length} objects`,
      },
      {
        what: 'watch, live during the creations',
        figure: `${Math.round(events / Math.max(watchSeconds, 0.001)).toLocaleString('en-US')} events/s`,
        detail: `${events} events`,
      },
      {
        what: 'watch resumed from before (replay)',
        figure: `${Math.round(replayed / (replayMs / 1000)).toLocaleString('en-US')} events/s`,
        detail: `${replayed} events`,
      },
      {
        what: 'server peak RSS',
        figure: `${peakRssMiB(server.child.pid!).toFixed(0)} MiB`,
        detail: '',
      },
      {
        what: 'SQLite files',
        figure: `${(folderBytes(data) / 1024 / 1024).toFixed(1)} MiB`,
        detail: 'database and write-ahead log',
      },
    ]);
  } finally {
    await server.stop();
  }
} finally {
  await dir.remove();
}
