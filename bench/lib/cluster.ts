import { join } from 'node:path';
import { CORE_KINDS, Kube, installCrds, type KubeObject } from '@paddock/kube';
import { startServer } from './processes.js';

const clusterBin = join(
  import.meta.dirname,
  '..',
  '..',
  'packages',
  'cluster-local',
  'bin',
  'paddock-cluster.js',
);

export interface BenchCluster {
  kube: Kube;
  kubeconfig: string;
  pid: number;
  stop: () => Promise<void>;
}

/**
 * The embedded cluster as its own process with its state under `dir`, Paddock's CRDs installed
 * and the platform's namespace made, as the local platform has it.
 */
export async function startBenchCluster(dir: string): Promise<BenchCluster> {
  const kubeconfig = join(dir, 'kubeconfig');
  const server = await startServer(
    process.execPath,
    [
      clusterBin,
      '--listen',
      '127.0.0.1:0',
      '--data',
      join(dir, 'data'),
      '--kubeconfig',
      kubeconfig,
    ],
    /"addr":"127\.0\.0\.1:(\d+)"/,
  );
  const kube = Kube.connect({ kubeconfig });
  await installCrds(kube);
  await kube
    .resource<KubeObject>(CORE_KINDS.namespace)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paddock-system' } });
  return { kube, kubeconfig, pid: server.child.pid!, stop: async () => void (await server.stop()) };
}
