import { join } from 'node:path';
import { start, tempDir, type Started } from '@paddock/testing';
import { Kube } from '@paddock/kube';

const CLUSTER_BIN = join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'cluster-local',
  'bin',
  'paddock-cluster.js',
);

export interface EmbeddedCluster {
  kube: Kube;
  /** The admin kubeconfig the cluster wrote, for processes such as the operator. */
  kubeconfig: string;
  process: Started;
  /** Stops the cluster and removes its files; safe to call twice. */
  stop: () => Promise<void>;
}

/** The embedded Kubernetes API as a process of its own, on a free port, in a fresh folder. */
export async function startEmbeddedCluster(): Promise<EmbeddedCluster> {
  const dir = await tempDir('paddock-operator-runtime-');
  const kubeconfig = join(dir.path, 'kubeconfig');
  const process = start(globalThis.process.execPath, [
    CLUSTER_BIN,
    '--listen',
    '127.0.0.1:0',
    '--kubeconfig',
    kubeconfig,
  ]);
  await process.waitForOutput(/"addr":"127\.0\.0\.1:\d+"/, 30_000);
  return {
    kube: Kube.connect({ kubeconfig }),
    kubeconfig,
    process,
    stop: async () => {
      await process.stop();
      await dir.remove();
    },
  };
}
