// The embedded Kubernetes API under Paddock's kind of load: create 10,000 Workspaces, list them
// all, and a watch delivering 10,000 events; the server's RSS and the size of its SQLite file. Then
// a list of the 10,000 in pages of 500 while 100 writes a second happen (time per page, and whether
// each object is seen exactly once), and what ResourceQuota admission adds to creates.
import { statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CORE_KINDS,
  KINDS,
  Kube,
  installCrds,
  type KubeObject,
  type ResourceClient,
  type Workspace,
} from '@paddock/kube';
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

const PAGE = 500;
const WRITES_PER_SECOND = 100;
const QUOTA_CREATES = 2_000;
/** Above what the quota run creates, so that none is refused. */
const QUOTA_LIMIT = QUOTA_CREATES + 10;

/** What a client does with each page before asking for the next (kubectl prints it, say). */
const CLIENT_MS_PER_PAGE = 50;
const PAGED_ROUNDS = 5;

/**
 * Lists the Workspaces in pages of 500 while another client creates and deletes 100 a second,
 * from the first page on: how long the server takes per page, and whether the list is the
 * snapshot of its first page (every object that existed then seen exactly once, none made later).
 */
async function pagedListUnderWrites(workspaces: ResourceClient<Workspace>) {
  const pageMs: number[] = [];
  let missing = 0;
  let repeated = 0;
  let newer = 0;
  let writes = 0;
  let made = 0;
  for (let round = 0; round < PAGED_ROUNDS; round++) {
    // No write runs now: this is exactly what the first page's version holds.
    const existing = new Set((await workspaces.listAll()).items.map((w) => w.metadata.name));
    const seen = new Map<string, number>();
    const count = (items: Workspace[]) => {
      for (const w of items) seen.set(w.metadata.name, (seen.get(w.metadata.name) ?? 0) + 1);
    };
    let started = performance.now();
    let page = await workspaces.list({ limit: PAGE });
    pageMs.push(performance.now() - started);
    count(page.items);
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const tick = performance.now();
        // Creates of names that sort last, deletes of names not listed yet: what a list that is not
        // a snapshot would show, or skip.
        if (writes % 2 === 0) {
          await workspaces.create({
            ...workspace(0),
            metadata: { ...workspace(0).metadata, name: `zz-made-${made++}` },
          });
        } else {
          await workspaces.delete(`bench-${COUNT - made}`);
        }
        writes++;
        await sleep(Math.max(0, 1000 / WRITES_PER_SECOND - (performance.now() - tick)));
      }
    })();
    while (page.metadata.continue) {
      await sleep(CLIENT_MS_PER_PAGE);
      started = performance.now();
      page = await workspaces.list({ limit: PAGE, continue: page.metadata.continue });
      pageMs.push(performance.now() - started);
      count(page.items);
    }
    writing = false;
    await writer;
    missing += [...existing].filter((name) => !seen.has(name)).length;
    repeated += [...seen.values()].filter((n) => n > 1).length;
    newer += [...seen.keys()].filter((name) => !existing.has(name)).length;
  }
  const sorted = [...pageMs].sort((a, b) => a - b);
  return {
    pages: pageMs.length,
    p50PageMs: sorted[Math.floor(sorted.length / 2)]!,
    missing,
    repeated,
    newer,
    writes,
  };
}

/** Creates of ConfigMaps in a namespace without a quota and in one with a ResourceQuota. */
async function quotaOverhead(kube: Kube) {
  const namespaces = kube.resource<KubeObject>(CORE_KINDS.namespace);
  const configMaps = kube.resource<KubeObject>(CORE_KINDS.configMap);
  const rate = async (namespace: string) => {
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
    if (namespace === 'quota-on') {
      await kube.resource<KubeObject>(CORE_KINDS.resourceQuota).create({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'bench', namespace },
        spec: { hard: { configmaps: String(QUOTA_LIMIT), 'count/secrets': '100' } },
      } as KubeObject);
    }
    let refused = 0;
    const started = performance.now();
    await pool(QUOTA_CREATES, (i) =>
      configMaps
        .create({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: `cm-${i}`, namespace },
          data: { i: String(i) },
        } as KubeObject)
        .catch(() => refused++),
    );
    return { perSecond: QUOTA_CREATES / ((performance.now() - started) / 1000), refused };
  };
  const without = await rate('quota-off');
  const withQuota = await rate('quota-on');
  return { without: without.perSecond, with: withQuota.perSecond, refused: withQuota.refused };
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

    const paging = await pagedListUnderWrites(workspaces);
    const quota = await quotaOverhead(kube);

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
        what: `paged list (pages of ${PAGE}) under ${WRITES_PER_SECOND} writes/s, ${PAGED_ROUNDS} times`,
        figure: `${paging.p50PageMs.toFixed(1)} ms per page (p50)`,
        detail: `${paging.pages} pages; ${paging.missing} missing, ${paging.repeated} repeated, ${paging.newer} made later seen; ${paging.writes} writes meanwhile`,
      },
      {
        what: `create ${QUOTA_CREATES} ConfigMaps, no quota`,
        figure: `${Math.round(quota.without).toLocaleString('en-US')} objects/s`,
        detail: '',
      },
      {
        what: `create ${QUOTA_CREATES} ConfigMaps under a ResourceQuota`,
        figure: `${Math.round(quota.with).toLocaleString('en-US')} objects/s`,
        detail: `${quota.refused} refused (the quota allows ${QUOTA_LIMIT})`,
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
