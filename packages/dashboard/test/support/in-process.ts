import { Writable } from 'node:stream';
import { join } from 'node:path';
import { createLogger, logMailer } from '@paddock/common';
import { ADMIN_PASSWORD, freePort, SESSION_SECRET, tempDir } from '@paddock/testing';
import { dashboardContext, type DashboardParts } from '../../src/assemble.js';
import { loadDashboardConfig, type DashboardConfig } from '../../src/config.js';
import { createDashboardApp, type DashboardApp } from '../../src/http/app.js';
import type { DashboardContext } from '../../src/http/context.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/types.js';

/** The JSON lines a logger wrote, parsed, in order. */
export class CapturedLog {
  readonly lines: Array<Record<string, unknown>> = [];
  private text = '';
  readonly stream = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      this.text += chunk.toString('utf8');
      const lines = this.text.split('\n');
      this.text = lines.pop() ?? '';
      for (const line of lines) {
        if (line !== '') this.lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });

  /** Every line whose message is `msg`. */
  withMessage(msg: string): Array<Record<string, unknown>> {
    return this.lines.filter((line) => line.msg === msg);
  }

  /** Everything written so far, as text. */
  all(): string {
    return this.lines.map((line) => JSON.stringify(line)).join('\n');
  }
}

export interface InProcessDashboard {
  app: DashboardApp;
  ctx: DashboardContext;
  config: DashboardConfig;
  store: Store;
  log: CapturedLog;
  base: string;
  stop: () => Promise<void>;
}

/**
 * A dashboard in this process on a real socket and a real SQLite file, its log captured (JSON,
 * debug and up): `env` are its SVC_* variables, `parts` what it is made of beside the store,
 * `port` its port when it must be known before (a free one by default).
 */
export async function startInProcess(
  env: Record<string, string>,
  parts: Omit<Partial<DashboardParts>, 'store' | 'logger'> = {},
  port?: number,
): Promise<InProcessDashboard> {
  const dir = await tempDir('paddock-dashboard-in-process-');
  port ??= await freePort();
  const config = loadDashboardConfig(
    {
      SVC_LISTEN_ADDR: `127.0.0.1:${port}`,
      SVC_SESSION_SECRET: SESSION_SECRET,
      SVC_BUILTIN_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env,
    },
    { randomSecret: () => SESSION_SECRET },
  );
  const store = await openStore({ kind: 'sqlite', path: join(dir.path, 'users.db') });
  const log = new CapturedLog();
  const logger = createLogger({
    name: 'paddock-dashboard',
    level: 'debug',
    format: 'json',
    destination: log.stream,
  });
  const mailer = config.SVC_AUTH_MODE === 'builtin' ? logMailer(logger) : undefined;
  const ctx = dashboardContext(config, { ...parts, store, logger, ...(mailer ? { mailer } : {}) });
  await ctx.accounts?.ensureInitialAdmin({
    username: config.SVC_BUILTIN_ADMIN_USERNAME,
    email: config.SVC_BUILTIN_ADMIN_EMAIL,
    password: ADMIN_PASSWORD,
  });
  const app = await createDashboardApp(ctx);
  const base = await app.app.listen({ host: '127.0.0.1', port });
  return {
    app,
    ctx,
    config,
    store,
    log,
    base,
    stop: async () => {
      await app.app.close();
      await store.close();
      await dir.remove();
    },
  };
}
