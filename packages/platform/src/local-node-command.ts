import { resolve } from 'node:path';
import { createLogger, loggingFromEnv, Shutdown, UsageError } from '@paddock/common';
import { Kube } from '@paddock/kube';
import { LocalNode, SHUTDOWN_GRACE_SECONDS } from './local-node.js';
import { DEFAULT_POD_ADDRESSES, inRange, type AddressRange } from './local-node/pod-addresses.js';

export interface LocalNodeCommandOptions {
  /** The embedded cluster's kubeconfig. */
  kubeconfig: string;
  /** The platform's data folder: claims' folders go under its volumes/, pods' own under pods/. */
  dataDir: string;
  /** `<namespace>/<claim>=<folder>`: the claim's volume starts as a copy of the folder. */
  seeds?: readonly string[];
  /** `FIRST[/COUNT]`: the loopback addresses pods get. */
  podAddresses?: string | undefined;
}

/** The range of --pod-addresses, or a usage error. */
export function parsePodAddresses(value: string): AddressRange {
  const [first = '', count = String(DEFAULT_POD_ADDRESSES.count), extra] = value.split('/');
  const range = { first, count: /^\d{1,5}$/.test(count) ? Number(count) : NaN };
  if (extra !== undefined || !(range.count >= 1) || !inRange(first, range)) {
    throw new UsageError(
      `--pod-addresses must be FIRST[/COUNT], FIRST an address in 127.0.0.0/8 (not .0 or .255), not "${value}"`,
    );
  }
  return range;
}

/** The seeds of --seed options, by `<namespace>/<claim>`, or a usage error. */
export function parseSeeds(values: readonly string[]): Map<string, string> {
  const seeds = new Map<string, string>();
  for (const value of values) {
    const match = /^([a-z0-9-]+)\/([a-z0-9.-]+)=(.+)$/.exec(value);
    if (match === null) {
      throw new UsageError(`--seed must be NAMESPACE/CLAIM=FOLDER, not "${value}"`);
    }
    seeds.set(`${match[1]}/${match[2]}`, resolve(match[3]!));
  }
  return seeds;
}

/** `paddock node`: the embedded cluster's node, running its sandbox pods as local processes. */
export async function runLocalNode(options: LocalNodeCommandOptions): Promise<void> {
  const seeds = parseSeeds(options.seeds ?? []);
  const addresses =
    options.podAddresses === undefined ? undefined : parsePodAddresses(options.podAddresses);
  const logger = createLogger({ name: 'paddock-node', ...loggingFromEnv() });
  const kube = Kube.connect({ kubeconfig: options.kubeconfig });
  const node = new LocalNode({
    kube,
    dataDir: options.dataDir,
    seeds,
    logger,
    ...(addresses && { addresses }),
  });
  // However this process ends, no sandbox it started outlives it.
  process.on('exit', () => node.killNow());
  // Pods stop together, each within the shutdown grace; a moment more to write their last lines.
  new Shutdown({ logger, graceMs: (SHUTDOWN_GRACE_SECONDS + 3) * 1000 })
    .add('kubernetes client', () => kube.close())
    .add('pods', () => node.stop())
    .listen();
  await node.start();
  logger.info(
    { kubeconfig: options.kubeconfig, data: options.dataDir, node: node.nodeName },
    'running the node',
  );
}
