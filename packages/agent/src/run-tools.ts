// The tools of one run: the sandbox's, through its MCP server, then the Available tools of the
// workspace's ToolRegistries. Opened when the run starts (so a registry changed meanwhile counts)
// and closed when it ends.
import type { Logger } from '@paddock/common';
import type { Kube } from '@paddock/kube';
import { registryTools } from './registry-tools.js';
import { connectSandboxTools, type SandboxTools } from './sandbox-tools.js';

export interface RunToolsOptions {
  sandboxMcpUrl: URL;
  kube: Kube;
  namespace: string;
  logger: Logger;
}

export async function runTools(options: RunToolsOptions): Promise<SandboxTools> {
  const sandbox = await connectSandboxTools(options.sandboxMcpUrl);
  let registries;
  try {
    registries = await registryTools({ kube: options.kube, namespace: options.namespace });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  for (const problem of registries.problems) {
    options.logger.warn(
      { namespace: options.namespace },
      `a registry tool is not offered: ${problem}`,
    );
  }
  // A registry tool never shadows one of the sandbox's.
  const taken = new Set(sandbox.tools.map((tool) => tool.name));
  return {
    tools: [...sandbox.tools, ...registries.tools.filter((tool) => !taken.has(tool.name))],
    close: async () => {
      await Promise.all([sandbox.close(), registries.close()]);
    },
  };
}
