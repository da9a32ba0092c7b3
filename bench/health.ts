// The cost of Paddock's common HTTP stack (fastify, error envelope, request hooks, pino) on the
// cheapest route there is, /healthz, against a bare node:http server in the same run.
import { join } from 'node:path';
import { httpLoad, peakRssMiB, startServer } from './lib/processes.js';
import { median, printTable } from './lib/table.js';

const RUNS = 3;
const SECONDS = 4;
const CONNECTIONS = 50;
const server = join(import.meta.dirname, 'fixtures', 'health-server.ts');
const node = ['--conditions=paddock-source', '--import', 'tsx', server];

const rows = [];
const results: Record<string, number> = {};
for (const variant of ['bare', 'paddock'] as const) {
  const proc = await startServer(process.execPath, [...node, variant], /port=(\d+)/);
  try {
    const url = `http://127.0.0.1:${proc.port}/healthz`;
    await httpLoad(url, { connections: CONNECTIONS, seconds: 1 }); // warm-up
    const runs = [];
    for (let i = 0; i < RUNS; i++)
      runs.push(await httpLoad(url, { connections: CONNECTIONS, seconds: SECONDS }));
    const rps = median(runs.map((r) => r.requestsPerSecond));
    results[variant] = rps;
    rows.push({
      server: variant === 'bare' ? 'node:http (baseline)' : 'paddock common stack',
      'req/s': Math.round(rps),
      'p50 ms': median(runs.map((r) => r.p50Ms)),
      'p99 ms': median(runs.map((r) => r.p99Ms)),
      errors: runs.reduce((n, r) => n + r.errors, 0),
      'peak RSS MiB': peakRssMiB(proc.child.pid!),
      'vs baseline': variant === 'bare' ? '1.00' : (rps / results.bare!).toFixed(2),
    });
  } finally {
    await proc.stop();
  }
}
printTable(
  `GET /healthz, ${CONNECTIONS} connections, median of ${RUNS} runs of ${SECONDS} s`,
  rows,
);
