// A real user's builtin sign-in during a flood of wrong-password logins: the p50 and p99 of the
// user's sign-ins (one after another) while 600 wrong-password logins arrive with bounded
// concurrency, beside the same
// sign-in with no flood, measured in the same run; how many of the flood were answered 429. The
// flood comes from 127.0.0.1, the user from other loopback addresses (one per sign-in, as phones
// and laptops of one person would): the dashboard tells them apart by address. A second flood
// comes from a new address per request (through a trusted proxy's X-Forwarded-For), which only
// the bounded argon2 queue can answer.
import { request, Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { tempDir } from '@paddock/testing';
import { BENCH_ADMIN_PASSWORD, startBenchDashboard } from './lib/dashboard.js';
import { median, percentile, printTable } from './lib/table.js';

const RUNS = 3;
const FLOOD = 600;
const FLOOD_CONCURRENCY = 16;
const BASELINE_SIGN_INS = 30;

let nextUserAddress = 0;
/** A loopback address of its own for each real sign-in: 127.1.x.y. */
function userAddress(): string {
  const n = ++nextUserAddress;
  return `127.1.${(n >> 8) & 255}.${n & 255}`;
}

const floodAgent = new Agent({ keepAlive: true, maxSockets: FLOOD_CONCURRENCY });

/** POSTs a login; resolves with the status and the time it took. */
function login(
  port: number,
  body: { username: string; password: string },
  options: { localAddress?: string; agent?: Agent; headers?: Record<string, string> } = {},
): Promise<{ status: number; ms: number }> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/auth/builtin/login',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
          ...options.headers,
        },
        ...(options.localAddress ? { localAddress: options.localAddress, agent: false } : {}),
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const realSignIn = async (port: number) => {
  const answer = await login(
    port,
    { username: 'admin', password: BENCH_ADMIN_PASSWORD },
    { localAddress: userAddress() },
  );
  return answer;
};

/** Floods FLOOD wrong-password logins while the real user signs in, one sign-in after another. */
async function flood(port: number, headersOf: (i: number) => Record<string, string>) {
  const statuses = new Map<number, number>();
  let next = 0;
  let flooding = true;
  const started = performance.now();
  const user: Array<{ status: number; ms: number }> = [];
  const signingIn = (async () => {
    while (flooding) user.push(await realSignIn(port));
  })();
  await Promise.all(
    Array.from({ length: FLOOD_CONCURRENCY }, async () => {
      while (next < FLOOD) {
        const i = next++;
        const { status } = await login(
          port,
          { username: i % 2 === 0 ? 'admin' : 'nobody', password: 'wrong-password' },
          { agent: floodAgent, headers: headersOf(i) },
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }
    }),
  );
  flooding = false;
  const floodMs = performance.now() - started;
  await signingIn;
  return { statuses, floodMs, user };
}

/** The figures of one flood scenario, gathered over the runs. */
function floodFigures() {
  return {
    p50: [] as number[],
    p99: [] as number[],
    limited: [] as number[],
    ms: [] as number[],
    refused: 0,
    count: 0,
    refusedWith: new Set<number>(),
  };
}

const dir = await tempDir('paddock-bench-signin-flood-');
const rows: Array<Record<string, string | number>> = [];
try {
  const dashboard = await startBenchDashboard(dir.path, {
    SVC_AUTH_MODE: 'builtin',
    // The X-Forwarded-For of the second flood is believed from 127.0.0.1 only.
    SVC_AUTH_PROXY_TRUSTED_ADDRESSES: '127.0.0.1',
  });
  const port = dashboard.port;
  try {
    // Warm-up: the first hash computes the dummy hash too.
    for (let i = 0; i < 3; i++) await realSignIn(port);
    const baselines: number[] = [];
    const single = floodFigures();
    const spread = floodFigures();
    let baselineP99: number[] = [];
    let forwarded = 0;
    for (let run = 0; run < RUNS; run++) {
      const quiet: number[] = [];
      for (let i = 0; i < BASELINE_SIGN_INS; i++) {
        const { status, ms } = await realSignIn(port);
        if (status !== 200) throw new Error(`baseline sign-in answered ${status}`);
        quiet.push(ms);
      }
      baselines.push(median(quiet));
      baselineP99 = [...baselineP99, percentile(quiet, 0.99)];
      for (const [target, headersOf] of [
        [single, () => ({})],
        [
          spread,
          () => ({ 'x-forwarded-for': `10.9.${(++forwarded >> 8) & 255}.${forwarded & 255}` }),
        ],
      ] as const) {
        const { statuses, floodMs, user } = await flood(port, headersOf);
        const ok = user.filter((u) => u.status === 200).map((u) => u.ms);
        target.refused += user.length - ok.length;
        target.count += user.length;
        for (const u of user) if (u.status !== 200) target.refusedWith.add(u.status);
        target.p50.push(median(ok));
        target.p99.push(percentile(ok, 0.99));
        target.limited.push(statuses.get(429) ?? 0);
        target.ms.push(floodMs);
      }
    }
    const base = median(baselines);
    rows.push({
      scenario: 'no flood (baseline)',
      'user p50 ms': base,
      'user p99 ms': median(baselineP99),
      ratio: '1.00',
      'flood 429s': '-',
      'flood s': '-',
      'user sign-ins': RUNS * BASELINE_SIGN_INS,
      'user refused': '0',
    });
    for (const [scenario, figures] of [
      ['600 wrong logins, one address', single],
      ['600 wrong logins, an address each', spread],
    ] as const) {
      rows.push({
        scenario,
        'user p50 ms': median(figures.p50),
        'user p99 ms': median(figures.p99),
        ratio: (median(figures.p50) / base).toFixed(2),
        'flood 429s': `${median(figures.limited)} of ${FLOOD}`,
        'flood s': (median(figures.ms) / 1000).toFixed(2),
        'user sign-ins': figures.count,
        'user refused': `${figures.refused}${figures.refused > 0 ? ` (${[...figures.refusedWith].join(', ')})` : ''}`,
      });
    }
  } finally {
    await dashboard.stop();
  }
  printTable(
    `Builtin sign-in of a real user during a wrong-password flood (${FLOOD_CONCURRENCY} at once), median of ${RUNS} runs`,
    rows,
  );
} finally {
  await dir.remove();
}
