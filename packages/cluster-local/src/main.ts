import {
  createLogger,
  formatAddress,
  loggingFromEnv,
  packageInfo,
  Shutdown,
} from '@paddock/common';
import { startCluster } from './cluster.js';
import { parseCommandLine, USAGE } from './command-line.js';

/** `paddock-cluster`: parse the command line, then serve until a signal. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  const command = parseCommandLine(argv);
  if ('help' in command) return void process.stdout.write(`${USAGE}\n`);
  if ('version' in command) {
    return void process.stdout.write(`${packageInfo(import.meta.url).version}\n`);
  }
  const { flags } = command;
  const logger = createLogger({ name: 'paddock-cluster', ...loggingFromEnv(env) });
  const cluster = await startCluster({
    listen: flags.listen,
    ...(flags.dataDir ? { dataDir: flags.dataDir } : {}),
    ...(flags.kubeconfigPath ? { kubeconfigPath: flags.kubeconfigPath } : {}),
    logger,
  });
  new Shutdown({ logger }).add('api server', () => cluster.close()).listen();
  logger.info(
    {
      addr: formatAddress(cluster.address),
      url: cluster.url,
      data: flags.dataDir ?? 'memory',
      ...(flags.kubeconfigPath ? { kubeconfig: flags.kubeconfigPath } : {}),
    },
    'Kubernetes API server listening',
  );
}
