// The dashboard's authentication under load: GET /api/auth/me authenticated by session cookie, by
// API key and by proxy headers, each beside the same server's unauthenticated /healthz; API key
// verification with 10 and with 100,000 keys stored; the p50 of one builtin login.
//
// The routes of a server are measured in rounds, each running every route once in turn, so that a
// slower spell of the machine falls on all of them alike; a route's ratio is the median over the
// rounds of its rate over the same round's /healthz. Beside it, the server's CPU time per request
// (every thread of the process, from /proc), which the load generator's own cost does not touch.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { join } from 'node:path';
import { tempDir } from '@paddock/testing';
import { apiKeySigningKey, ApiKeys, ARGON2_OPTIONS, openStore } from '@paddock/dashboard';
import {
  BENCH_ADMIN_PASSWORD,
  BENCH_SESSION_SECRET,
  startBenchDashboard,
} from './lib/dashboard.js';
import { httpLoad } from './lib/processes.js';
import { median, printTable } from './lib/table.js';

const ROUNDS = 5;
const SECONDS = 3;
const CONNECTIONS = 50;
const LOGINS = 30;
const VERIFICATIONS = 5000;

/** CPU time of every thread of a process so far, in nanoseconds (the first field of schedstat). */
function cpuNs(pid: number): number {
  let total = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // A thread that ended between the listing and the read took its time with it.
    }
  }
  return total;
}

/** Requests the server answered on a route so far, by its own request counter (every status). */
async function served(base: string, route: string, headers: Record<string, string>) {
  const res = await fetch(`${base}/metrics`, { headers });
  if (res.status !== 200) throw new Error(`/metrics answered ${res.status}`);
  const prefix = `paddock_dashboard_http_requests_total{method="GET",route="${route}",`;
  let count = 0;
  for (const line of (await res.text()).split('\n')) {
    if (line.startsWith(prefix)) count += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return count;
}

interface Measured {
  label: string;
  rps: number[];
  p50: number[];
  cpuUs: number[];
  errors: number;
}

/**
 * Runs every route of a server once per round, in turn, after a warm-up of each; `metrics` are
 * the headers that may read /metrics. Each route's figures are its runs', in round order.
 */
async function rounds(
  server: { port: number; child: { pid?: number | undefined } },
  routes: Array<{ label: string; path: string; headers: Record<string, string> }>,
  metrics: Record<string, string>,
): Promise<Measured[]> {
  const base = `http://127.0.0.1:${server.port}`;
  const pid = server.child.pid!;
  for (const { path, headers } of routes) {
    await httpLoad(base + path, { connections: CONNECTIONS, seconds: 1, headers });
  }
  const measured = routes.map(({ label }) => ({
    label,
    rps: [] as number[],
    p50: [] as number[],
    cpuUs: [] as number[],
    errors: 0,
  }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, { path, headers }] of routes.entries()) {
      const before = await served(base, path, metrics);
      const cpuBefore = cpuNs(pid);
      const load = await httpLoad(base + path, {
        connections: CONNECTIONS,
        seconds: SECONDS,
        headers,
      });
      const cpu = cpuNs(pid) - cpuBefore;
      const requests = (await served(base, path, metrics)) - before;
      const m = measured[i]!;
      m.rps.push(load.requestsPerSecond);
      m.p50.push(load.p50Ms);
      m.cpuUs.push(cpu / 1000 / requests);
      m.errors += load.errors;
    }
  }
  return measured;
}

/** The table's rows: the first route is the reference (/healthz) of the others. */
function rowsOf(measured: Measured[]): Array<Record<string, string | number>> {
  const [health] = measured;
  return measured.map((m) => ({
    route: m.label,
    'req/s': Math.round(median(m.rps)),
    'p50 ms': median(m.p50),
    ratio: median(m.rps.map((rps, round) => rps / health!.rps[round]!)).toFixed(2),
    'µs CPU/req': median(m.cpuUs).toFixed(1),
    'CPU ratio': (median(health!.cpuUs) / median(m.cpuUs)).toFixed(2),
    errors: m.errors,
  }));
}

const dir = await tempDir('paddock-bench-dashboard-');
const rows: Array<Record<string, string | number>> = [];
const loginTimes: number[] = [];
const wrongTimes: number[] = [];
const unknownTimes: number[] = [];
try {
  const builtin = await startBenchDashboard(join(dir.path, 'builtin'), {
    SVC_AUTH_MODE: 'builtin',
    SVC_BUILTIN_MAX_FAILED_ATTEMPTS: '1000000', // the failures below must not lock the account
    SVC_BUILTIN_SOURCE_RATE_LIMIT: '100000', // nor the per-address limit refuse the logins
  });
  try {
    const base = `http://127.0.0.1:${builtin.port}`;
    const login = async (username: string, password: string, times: number[], expect: number) => {
      const started = performance.now();
      const res = await fetch(`${base}/api/auth/builtin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password }),
      });
      times.push(performance.now() - started);
      if (res.status !== expect) throw new Error(`login answered ${res.status}`);
      return res;
    };
    const first = await login('admin', BENCH_ADMIN_PASSWORD, loginTimes, 200);
    const cookie = first.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    for (let i = 1; i < LOGINS; i++) await login('admin', BENCH_ADMIN_PASSWORD, loginTimes, 200);
    for (let i = 0; i < LOGINS; i++) await login('admin', 'wrong-password', wrongTimes, 401);
    for (let i = 0; i < LOGINS; i++) await login('nobody', 'wrong-password', unknownTimes, 401);
    const created = await fetch(`${base}/api/settings/api-keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: base },
      body: JSON.stringify({ name: 'bench' }),
    });
    const { key } = (await created.json()) as { key: string };

    const byKey = { authorization: `Bearer ${key}` };
    rows.push(
      ...rowsOf(
        await rounds(
          builtin,
          [
            { label: 'GET /healthz (builtin server)', path: '/healthz', headers: {} },
            {
              label: 'GET /api/auth/me, session cookie',
              path: '/api/auth/me',
              headers: { cookie },
            },
            { label: 'GET /api/auth/me, API key', path: '/api/auth/me', headers: byKey },
          ],
          byKey,
        ),
      ),
    );
  } finally {
    await builtin.stop();
  }

  const proxy = await startBenchDashboard(join(dir.path, 'proxy'), { SVC_AUTH_MODE: 'proxy' });
  try {
    const headers = { 'x-forwarded-user': 'bench', 'x-forwarded-groups': 'dev,ops' };
    rows.push(
      ...rowsOf(
        await rounds(
          proxy,
          [
            { label: 'GET /healthz (proxy server)', path: '/healthz', headers: {} },
            { label: 'GET /api/auth/me, proxy headers', path: '/api/auth/me', headers },
          ],
          headers,
        ),
      ),
    );
  } finally {
    await proxy.stop();
  }
  printTable(
    `Authenticated requests, ${CONNECTIONS} connections, median of ${ROUNDS} rounds of ${SECONDS} s per route`,
    rows,
  );

  // Key verification, in process: one HMAC and one primary-key lookup, whatever the key count.
  const store = await openStore({ kind: 'sqlite', path: join(dir.path, 'keys', 'keys.db') });
  try {
    const owner = await store.users.create({
      provider: 'builtin',
      username: 'owner',
      email: 'owner@example.com',
    });
    const signingKey = apiKeySigningKey(BENCH_SESSION_SECRET);
    const policy = { maxPerUser: 1_000_000, defaultExpirationDays: 0 };
    const keys = new ApiKeys(store, signingKey, policy);
    const verifyRows = [];
    let stored = 0;
    for (const count of [10, 100_000]) {
      // The other keys go straight into the store (minting each through the service would count
      // the owner's keys every time); the probe is a real key, minted last.
      while (stored < count - 1) {
        const id = randomUUID();
        await store.apiKeys.create({
          id,
          userId: owner.id,
          name: `k${stored}`,
          prefix: `svc_sk_${id.slice(0, 8)}`,
          secretHash: randomBytes(32).toString('hex'),
          createdAt: Date.now(),
          expiresAt: null,
        });
        stored++;
      }
      const probe = (await keys.create(owner.id, { name: 'probe' }, Date.now())).key;
      stored++;
      const times: number[] = [];
      for (let i = 0; i < VERIFICATIONS; i++) {
        // A service of its own each time: the store lookup, not the service's memory of the key.
        const fresh = new ApiKeys(store, signingKey, policy);
        const started = performance.now();
        if (!(await fresh.verify(probe, Date.now()))) throw new Error('verification failed');
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      verifyRows.push({
        'keys stored': count.toLocaleString('en-US'),
        'p50 µs': (median(times) * 1000).toFixed(1),
        'p99 µs': (times[Math.floor(times.length * 0.99)]! * 1000).toFixed(1),
      });
    }
    printTable(`API key verification (SQLite), ${VERIFICATIONS} verifications each`, verifyRows);
  } finally {
    await store.close();
  }

  const argon2 = `argon2id m=${ARGON2_OPTIONS.memoryCost} KiB t=${ARGON2_OPTIONS.timeCost} p=${ARGON2_OPTIONS.parallelism}`;
  printTable(`Builtin login (POST /api/auth/builtin/login), ${LOGINS} sequential logins each`, [
    { attempt: 'right password', 'p50 ms': median(loginTimes).toFixed(1), argon2 },
    { attempt: 'wrong password', 'p50 ms': median(wrongTimes).toFixed(1), argon2 },
    { attempt: 'unknown user', 'p50 ms': median(unknownTimes).toFixed(1), argon2 },
  ]);
} finally {
  await dir.remove();
}
