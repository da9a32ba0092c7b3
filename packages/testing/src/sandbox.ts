import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { start, type Started } from './processes.js';

/** The compiled paddock-sandbox command. */
export const SANDBOX_BIN = join(
  import.meta.dirname,
  '..',
  '..',
  'sandbox',
  'bin',
  'paddock-sandbox.js',
);

export interface RunningSandbox extends Started {
  port: number;
  base: string;
}

/** Starts the compiled paddock-sandbox on a free port and waits until it listens. */
export async function startSandbox(
  workspace: string,
  options: { env?: Record<string, string | undefined>; args?: string[] } = {},
): Promise<RunningSandbox> {
  const sandbox = start(
    process.execPath,
    [SANDBOX_BIN, '-addr', '127.0.0.1:0', '-workspace', workspace, ...(options.args ?? [])],
    { env: { ...process.env, SVC_LOG_FORMAT: 'json', ...options.env } },
  );
  try {
    const [, port] = await sandbox.waitForOutput(/"addr":"127\.0\.0\.1:(\d+)"/, 30_000);
    return Object.assign(sandbox, { port: Number(port), base: `http://127.0.0.1:${port}` });
  } catch (error) {
    await sandbox.stop();
    throw error;
  }
}

export interface RunningApiSandbox extends RunningSandbox {
  apiPort: number;
  apiBase: string;
}

/**
 * The static secret the test proxy sends in X-Paddock-Proof (the sandboxes of the tests hold its
 * SHA-256, as a deployment behind a generic reverse proxy does).
 */
export const TEST_PROXY_SECRET = 'test-proxy-secret-0123456789abcdef0123456789abcdef';
export const TEST_PROXY_SECRET_SHA256 = createHash('sha256')
  .update(TEST_PROXY_SECRET)
  .digest('hex');
/** The proof header of the test proxy, for requests and for paddock-forward's --header. */
export const PROOF = { 'x-paddock-proof': TEST_PROXY_SECRET };

/**
 * Starts the compiled paddock-sandbox with the human-facing listener on a free port and the given
 * flags (e.g. ['-enable-api', '-enable-exec']), and waits until both listeners are up. Outside
 * -dev-mode it requires the test proxy's proof (see `as`) unless `env` configures another.
 */
export async function startApiSandbox(
  workspace: string,
  flags: string[],
  env: Record<string, string | undefined> = {},
): Promise<RunningApiSandbox> {
  const proofConfigured =
    flags.includes('-dev-mode') ||
    'SVC_API_PROOF_PUBLIC_KEY' in env ||
    'SVC_API_PROXY_SECRET_SHA256' in env;
  const sandbox = await startSandbox(workspace, {
    env: proofConfigured ? env : { SVC_API_PROXY_SECRET_SHA256: TEST_PROXY_SECRET_SHA256, ...env },
    args: ['-api-addr', '127.0.0.1:0', ...flags],
  });
  const [, port] = await sandbox.waitForOutput(/"apiAddr":"127\.0\.0\.1:(\d+)"/, 30_000);
  return Object.assign(sandbox, { apiPort: Number(port), apiBase: `http://127.0.0.1:${port}` });
}

/**
 * Identity headers as the auth-terminating proxy in front of the sandbox sets them, with its proof
 * (the test proxy's static secret).
 */
export function as(sub: string, user = sub, groups: string[] = []): Record<string, string> {
  return {
    ...PROOF,
    'x-forwarded-sub': sub,
    'x-forwarded-user': user,
    'x-forwarded-groups': groups.join(','),
  };
}

/** The JSON-RPC `initialize` request a raw HTTP test sends to open an MCP session. */
export const MCP_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw-http-test', version: '1' },
  },
} as const;
