// A real paddock-sandbox for the agent's tests: the compiled binary on a free port, on a fresh
// workspace, whose MCP endpoint the agent connects to as it does in an agent pod.
import { startSandbox as startSandboxProcess, tempDir, type Started } from '@paddock/testing';

export interface RunningSandbox {
  process: Started;
  workspace: string;
  mcpUrl: URL;
  stop(): Promise<void>;
}

export async function startSandbox(): Promise<RunningSandbox> {
  const workspace = await tempDir('paddock-agent-test-');
  try {
    const sandbox = await startSandboxProcess(workspace.path);
    return {
      process: sandbox,
      workspace: workspace.path,
      mcpUrl: new URL(`${sandbox.base}/mcp`),
      async stop() {
        await sandbox.stop();
        await workspace.remove();
      },
    };
  } catch (error) {
    await workspace.remove();
    throw error;
  }
}
