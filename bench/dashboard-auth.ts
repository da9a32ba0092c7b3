// The dashboard's authentication under load: GET /api/auth/me authenticated by session cookie, by
// API key and by proxy headers, each beside the same server's unauthenticated /healthz in the same
// run; API key verification with 10 and with 100,000 keys stored; the p50 of one builtin login.
import { randomBytes, randomUUID } from 'node:crypto';
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

const RUNS = 3;
const SECONDS = 4;
const CONNECTIONS = 50;
const LOGINS = 30;
const VERIFICATIONS = 5000;
async function medianLoad(url: string, headers: Record<string, string>) {
  await httpLoad(url, { connections: CONNECTIONS, seconds: 1, headers }); // warm-up
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    runs.push(await httpLoad(url, { connections: CONNECTIONS, seconds: SECONDS, headers }));
  }
  return {
    rps: median(runs.map((r) => r.requestsPerSecond)),
    p50: median(runs.map((r) => r.p50Ms)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
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

    const health = await medianLoad(`${base}/healthz`, {});
    const bySession = await medianLoad(`${base}/api/auth/me`, { cookie });
    const byKey = await medianLoad(`${base}/api/auth/me`, { authorization: `Bearer ${key}` });
    rows.push(
      {
        route: 'GET /healthz (builtin server)',
        'req/s': Math.round(health.rps),
        'p50 ms': health.p50,
        ratio: '1.00',
        errors: health.errors,
      },
      {
        route: 'GET /api/auth/me, session cookie',
        'req/s': Math.round(bySession.rps),
        'p50 ms': bySession.p50,
        ratio: (bySession.rps / health.rps).toFixed(2),
        errors: bySession.errors,
      },
      {
        route: 'GET /api/auth/me, API key',
        'req/s': Math.round(byKey.rps),
        'p50 ms': byKey.p50,
        ratio: (byKey.rps / health.rps).toFixed(2),
        errors: byKey.errors,
      },
    );
  } finally {
    await builtin.stop();
  }

  const proxy = await startBenchDashboard(join(dir.path, 'proxy'), { SVC_AUTH_MODE: 'proxy' });
  try {
    const base = `http://127.0.0.1:${proxy.port}`;
    const headers = { 'x-forwarded-user': 'bench', 'x-forwarded-groups': 'dev,ops' };
    const health = await medianLoad(`${base}/healthz`, {});
    const byProxy = await medianLoad(`${base}/api/auth/me`, headers);
    rows.push(
      {
        route: 'GET /healthz (proxy server)',
        'req/s': Math.round(health.rps),
        'p50 ms': health.p50,
        ratio: '1.00',
        errors: health.errors,
      },
      {
        route: 'GET /api/auth/me, proxy headers',
        'req/s': Math.round(byProxy.rps),
        'p50 ms': byProxy.p50,
        ratio: (byProxy.rps / health.rps).toFixed(2),
        errors: byProxy.errors,
      },
    );
  } finally {
    await proxy.stop();
  }
  printTable(
    `Authenticated requests, ${CONNECTIONS} connections, median of ${RUNS} runs of ${SECONDS} s`,
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
