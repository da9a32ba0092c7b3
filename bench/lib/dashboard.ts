import { join } from 'node:path';
import { DASHBOARD_ENV, DASHBOARD_NODE_FLAGS } from '@paddock/dashboard/shared';
import { DASHBOARD_BIN, type Started } from '@paddock/testing';
import { startServer } from './processes.js';

/** The session secret of the benchmarks' dashboards (API keys are signed with a key from it). */
export const BENCH_SESSION_SECRET = 'bench-session-secret-of-at-least-32-characters';
/** The builtin admin's password of the benchmarks' dashboards. */
export const BENCH_ADMIN_PASSWORD = 'bench-admin-password';

/**
 * The dashboard on a free loopback port, with the Node.js flags and environment it runs with in the
 * image and under `paddock up`, logging at info as JSON, its session secret, its builtin admin and
 * its users.db in `dataDir`, with `env` on top; resolves once it listens.
 */
export function startBenchDashboard(
  dataDir: string,
  env: Record<string, string>,
): Promise<Started & { port: number }> {
  return startServer(
    process.execPath,
    [...DASHBOARD_NODE_FLAGS, DASHBOARD_BIN],
    /"addr":"127\.0\.0\.1:(\d+)"/,
    {
      ...DASHBOARD_ENV,
      SVC_LOG_LEVEL: 'info',
      SVC_LOG_FORMAT: 'json',
      SVC_LISTEN_ADDR: '127.0.0.1:0',
      SVC_SESSION_SECRET: BENCH_SESSION_SECRET,
      SVC_BUILTIN_SQLITE_PATH: join(dataDir, 'users.db'),
      SVC_BUILTIN_ADMIN_PASSWORD: BENCH_ADMIN_PASSWORD,
      ...env,
    },
  );
}
