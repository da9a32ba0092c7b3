import { SANDBOX_NODE_FLAGS } from '@paddock/common';
import { SANDBOX_BIN, type Started } from '@paddock/testing';
import { startServer } from './processes.js';

export interface BenchApiSandbox extends Started {
  /** The MCP listener's port. */
  port: number;
  /** The human-facing listener's port. */
  apiPort: number;
}

/**
 * The sandbox on `workspace` with its human-facing listener started with `flags`, both on free
 * loopback ports, in dev mode (loopback only: dev mode trusts the identity header, with no proxy in
 * front to prove it); resolves once both listen.
 */
export async function startBenchApiSandbox(
  workspace: string,
  flags: string[],
  env: Record<string, string> = {},
): Promise<BenchApiSandbox> {
  const sandbox = await startServer(
    process.execPath,
    [
      // As a pod runs it: its memory (idle and while zipping) and its tunnel with the pod's flags.
      ...SANDBOX_NODE_FLAGS,
      SANDBOX_BIN,
      '-addr',
      '127.0.0.1:0',
      '-api-addr',
      '127.0.0.1:0',
      '-dev-mode',
      '-workspace',
      workspace,
      ...flags,
    ],
    /"addr":"127\.0\.0\.1:(\d+)"/,
    { SVC_LOG_FORMAT: 'json', ...env },
  );
  const [, apiPort] = await sandbox.waitForOutput(/"apiAddr":"127\.0\.0\.1:(\d+)"/, 30_000);
  return Object.assign(sandbox, { apiPort: Number(apiPort) });
}
