// A real paddock-sandbox for the agent's tests: the compiled binary on a free port, on a fresh
// workspace, whose MCP endpoint the agent connects to as it does in an agent pod.
import { join } from 'node:path';
import { start, tempDir, type Started } from '@paddock/testing';

export const SANDBOX_BIN = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'sandbox',
  'bin',
  'paddock-sandbox.js',
);

export interface RunningSandbox {
  process: Started;
  workspace: string;
  mcpUrl: URL;
  stop(): Promise<void>;
}

export async function startSandbox(): Promise<RunningSandbox> {
  const workspace = await tempDir('paddock-agent-test-');
  const sandbox = start(
    process.execPath,
    [SANDBOX_BIN, '-addr', '127.0.0.1:0', '-workspace', workspace.path],
    { env: { ...process.env, SVC_LOG_FORMAT: 'json' } },
  );
  try {
    const [, port] = await sandbox.waitForOutput(/"addr":"127\.0\.0\.1:(\d+)"/, 30_000);
    return {
      process: sandbox,
      workspace: workspace.path,
      mcpUrl: new URL(`http://127.0.0.1:${port}/mcp`),
      async stop() {
        await sandbox.stop();
        await workspace.remove();
      },
    };
  } catch (error) {
    await sandbox.stop();
    await workspace.remove();
    throw error;
  }
}
