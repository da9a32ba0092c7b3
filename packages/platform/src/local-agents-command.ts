import { join } from 'node:path';
import { createLogger, loggingFromEnv, Shutdown } from '@paddock/common';
import { Kube } from '@paddock/kube';
import { LocalAgents } from './local-agents.js';
import { STOP_GRACE_SECONDS } from './local-agents/replicas.js';

export interface LocalAgentsCommandOptions {
  /** The embedded cluster's kubeconfig. */
  kubeconfig: string;
  /** The platform's data folder: replicas' workspaces go under its agents/ folder. */
  dataDir: string;
}

/** `paddock agents`: runs the embedded cluster's agents as local processes until a signal. */
export async function runLocalAgents(options: LocalAgentsCommandOptions): Promise<void> {
  const logger = createLogger({ name: 'paddock-local-agents', ...loggingFromEnv() });
  const workspacesDir = join(options.dataDir, 'agents');
  const agents = new LocalAgents({
    kube: Kube.connect({ kubeconfig: options.kubeconfig }),
    workspacesDir,
    logger,
  });
  // However this process ends, no sandbox it started outlives it.
  process.on('exit', () => agents.killNow());
  // Replicas stop together, each within its grace period; a moment more to write their last lines.
  new Shutdown({ logger, graceMs: (STOP_GRACE_SECONDS + 4) * 1000 })
    .add('agents', () => agents.stop())
    .listen();
  await agents.start();
  logger.info({ kubeconfig: options.kubeconfig, workspaces: workspacesDir }, 'running agents');
}
