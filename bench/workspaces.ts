// The dashboard's workspace endpoints at scale: 10,000 Workspaces in the cluster and a user in 50
// groups (who holds a role in 500 of them). p50 and p99 of GET /api/workspaces (one page of 100,
// and all 500) and of GET /api/workspaces/{name}, one request at a time, and their throughput at 10
// connections beside the same server's /healthz; the dashboard's memory growth for its cache.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_VERSION, KINDS, type Workspace } from '@paddock/kube';
import { tempDir } from '@paddock/testing';
import { startBenchCluster } from './lib/cluster.js';
import { httpLoad, startServer } from './lib/processes.js';
import { median, printTable, type Row } from './lib/table.js';

const WORKSPACES = 10_000;
const GROUPS = 1_000;
const USER_GROUPS = 50;
const CONCURRENCY = 32;
const SECONDS = 4;
const RUNS = 3;
/** Requests timed one at a time, after 200 of warm-up. */
const SEQUENTIAL = 2_000;
const root = join(import.meta.dirname, '..');
const dashboardBin = join(root, 'packages', 'dashboard', 'bin', 'paddock-dashboard.js');

function workspace(i: number): Workspace {
  return {
    apiVersion: API_VERSION,
    kind: 'Workspace',
    metadata: { name: `bench-${i}` },
    spec: {
      displayName: `Bench workspace ${i}`,
      description: 'A workspace of the benchmark',
      namespace: { name: `bench-${i}` },
      roleBindings: [
        { groups: [`team-${i % GROUPS}`], role: i % 3 === 0 ? 'owner' : 'editor' },
        { groups: ['everyone-else'], role: 'viewer' },
      ],
      directGrants: [
        { user: `user-${i}@example.com`, role: 'viewer', expires: '2099-01-01T00:00:00Z' },
      ],
    },
  };
}

function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]) / 1024;
}

const headers = {
  'x-forwarded-user': 'bench-user',
  'x-forwarded-email': 'bench-user@example.com',
  'x-forwarded-groups': Array.from({ length: USER_GROUPS }, (_, g) => `team-${g}`).join(','),
};

async function load(url: string, connections: number, withHeaders: boolean) {
  const options = { connections, seconds: SECONDS, ...(withHeaders ? { headers } : {}) };
  await httpLoad(url, { ...options, seconds: 1 });
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await httpLoad(url, options));
  return {
    rps: median(runs.map((r) => r.requestsPerSecond)),
    p50: median(runs.map((r) => r.p50Ms)),
    p99: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

/** Latency of one request at a time, timed here with sub-millisecond precision. */
async function sequential(url: string, requestHeaders: Record<string, string>) {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < SEQUENTIAL + 200; i++) {
    const started = performance.now();
    const answer = await fetch(url, { headers: requestHeaders });
    await answer.arrayBuffer();
    if (answer.status !== 200) errors++;
    if (i >= 200) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99), errors };
}

const dir = await tempDir('paddock-bench-workspaces-');
try {
  const cluster = await startBenchCluster(dir.path);
  try {
    const { kube, kubeconfig } = cluster;
    const dashboard = await startServer(
      process.execPath,
      [dashboardBin, '--kubeconfig', kubeconfig],
      /"addr":"127\.0\.0\.1:(\d+)"/,
      {
        SVC_LOG_LEVEL: 'info',
        SVC_LOG_FORMAT: 'json',
        SVC_LISTEN_ADDR: '127.0.0.1:0',
        SVC_AUTH_MODE: 'proxy',
        SVC_SESSION_SECRET: 'bench-session-secret-of-at-least-32-characters',
        SVC_BUILTIN_SQLITE_PATH: join(dir.path, 'users.db'),
      },
    );
    try {
      const base = `http://127.0.0.1:${dashboard.port}`;
      while ((await fetch(`${base}/readyz`)).status !== 200) await sleep(100);
      await sleep(1_000);
      const emptyRss = rssMiB(dashboard.child.pid!);

      const workspaces = kube.resource<Workspace>(KINDS.find((k) => k.kind === 'Workspace')!);
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < WORKSPACES) await workspaces.create(workspace(next++));
        }),
      );
      const createMs = performance.now() - started;
      // The user holds a role in every workspace of its 50 groups: 500 of them.
      const expected = (WORKSPACES / GROUPS) * USER_GROUPS;
      let total = 0;
      while (total !== expected) {
        const answer = await fetch(`${base}/api/workspaces?limit=1`, { headers });
        total = ((await answer.json()) as { total: number }).total;
        if (total !== expected) await sleep(200);
      }
      const seenMs = performance.now() - started;
      await sleep(2_000);
      const fullRss = rssMiB(dashboard.child.pid!);

      const rows: Row[] = [];
      const targets: [string, string, boolean][] = [
        ['GET /healthz', '/healthz', false],
        ['GET /api/workspaces (page of 100)', '/api/workspaces', true],
        [`GET /api/workspaces?limit=1000 (all ${expected})`, '/api/workspaces?limit=1000', true],
        ['GET /api/workspaces/{name}', '/api/workspaces/bench-1007', true],
      ];
      let healthRps = 0;
      // Warms this process's HTTP client before anything is timed.
      await sequential(`${base}/healthz`, {});
      for (const [what, path, withHeaders] of targets) {
        const one = await sequential(`${base}${path}`, withHeaders ? headers : {});
        const many = await load(`${base}${path}`, 10, withHeaders);
        if (path === '/healthz') healthRps = many.rps;
        rows.push({
          what,
          'p50 ms': one.p50.toFixed(3),
          'p99 ms': one.p99.toFixed(3),
          'req/s at 10 conn.': Math.round(many.rps),
          'p99 ms at 10 conn.': many.p99,
          'vs health': (many.rps / healthRps).toFixed(2),
          errors: many.errors + one.errors,
        });
      }
      printTable(
        `Dashboard workspaces: ${WORKSPACES.toLocaleString('en-US')} Workspaces, a user in ${USER_GROUPS} groups (${expected} visible)`,
        rows,
      );
      printTable('Workspace cache', [
        { what: 'dashboard RSS, no Workspaces', figure: `${emptyRss.toFixed(0)} MiB` },
        {
          what: `dashboard RSS, ${WORKSPACES.toLocaleString('en-US')} Workspaces`,
          figure: `${fullRss.toFixed(0)} MiB`,
        },
        {
          what: 'growth per 1,000 Workspaces',
          figure: `${(((fullRss - emptyRss) / WORKSPACES) * 1000).toFixed(1)} MiB`,
        },
        {
          what: 'created, and all visible to the user',
          figure: `${(createMs / 1000).toFixed(1)} s, ${(seenMs / 1000).toFixed(1)} s`,
        },
      ]);
    } finally {
      await dashboard.stop();
    }
  } finally {
    await cluster.stop();
  }
} finally {
  await dir.remove();
}
