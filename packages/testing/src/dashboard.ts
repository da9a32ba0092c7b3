import { DASHBOARD_ENV, DASHBOARD_NODE_FLAGS } from '@paddock/dashboard/shared';
import { join } from 'node:path';
import { start, type Started } from './processes.js';
import { tempDir } from './temp.js';

export const DASHBOARD_BIN = join(
  import.meta.dirname,
  '..',
  '..',
  'dashboard',
  'bin',
  'paddock-dashboard.js',
);
export const SESSION_SECRET = 'test-session-secret-of-at-least-32-characters';
export const ADMIN_PASSWORD = 'admin-password-for-tests';

export interface RunningDashboard {
  base: string;
  process: Started;
  /** The folder of its SQLite database. */
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

/**
 * Starts the compiled paddock-dashboard on a free port with the given SVC_* variables (a session
 * secret, an admin password and a SQLite file in a fresh folder unless given) and waits until it
 * listens.
 */
export async function startDashboard(env: Record<string, string> = {}): Promise<RunningDashboard> {
  const dir = await tempDir('paddock-dashboard-');
  const child = start(process.execPath, [...DASHBOARD_NODE_FLAGS, DASHBOARD_BIN], {
    env: {
      PATH: process.env.PATH,
      ...DASHBOARD_ENV,
      SVC_LOG_FORMAT: 'json',
      SVC_LISTEN_ADDR: '127.0.0.1:0',
      SVC_SESSION_SECRET: SESSION_SECRET,
      SVC_BUILTIN_SQLITE_PATH: join(dir.path, 'users.db'),
      SVC_BUILTIN_ADMIN_PASSWORD: ADMIN_PASSWORD,
      // Every test client shares 127.0.0.1: suites about rate limits set their own.
      SVC_BUILTIN_SOURCE_RATE_LIMIT: '10000',
      ...env,
    },
  });
  const [, port] = await child.waitForOutput(/"addr":"127\.0\.0\.1:(\d+)"/, 30_000);
  return {
    base: `http://127.0.0.1:${port}`,
    process: child,
    dataDir: dir.path,
    output: child.output,
    stop: async () => {
      await child.stop();
      await dir.remove();
    },
  };
}

/** A response with its body read once, as JSON when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** The Set-Cookie lines of the answer. */
  cookies: string[];
}

/**
 * A browser-like client of one dashboard: keeps its cookies, sends the dashboard's Origin on
 * state-changing requests, never follows redirects (tests look at them).
 */
export class Client {
  readonly jar = new Map<string, string>();

  constructor(
    readonly base: string,
    private readonly defaults: Record<string, string> = {},
  ) {}

  cookieHeader(): string | undefined {
    if (this.jar.size === 0) return undefined;
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request(
    method: string,
    path: string,
    options: { json?: unknown; headers?: Record<string, string>; body?: string } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = { ...this.defaults, ...options.headers };
    const cookie = this.cookieHeader();
    if (cookie !== undefined && !('cookie' in headers)) headers.cookie = cookie;
    // An empty origin in the options means: send none, as a non-browser client would.
    if (headers.origin === '') delete headers.origin;
    else if (method !== 'GET' && method !== 'HEAD' && !('origin' in headers))
      headers.origin = this.base;
    let body = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const response = await fetch(new URL(path, this.base), {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    const cookies = response.headers.getSetCookie();
    for (const line of cookies) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some(
        (a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=Thu, 01 Jan 1970/i.test(a),
      );
      if (expired) this.jar.delete(name!.trim());
      else this.jar.set(name!.trim(), value.join('='));
    }
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '')
      parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed, cookies };
  }

  get(path: string, headers?: Record<string, string>): Promise<Answer> {
    return this.request('GET', path, headers ? { headers } : {});
  }

  post(path: string, json?: unknown, headers?: Record<string, string>): Promise<Answer> {
    return this.request('POST', path, { json: json ?? {}, ...(headers ? { headers } : {}) });
  }
}

/** The error code of an error answer. */
export function errorOf(answer: Answer): string | undefined {
  return (answer.body as { error?: string } | null)?.error;
}
