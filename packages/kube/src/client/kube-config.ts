import { existsSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { UnavailableError } from './errors.js';

export interface ClusterTarget {
  /** A kubeconfig file; KUBECONFIG (its first file) when not given. */
  kubeconfig?: string;
  /** An API server URL and bearer token, e.g. the embedded cluster's. */
  url?: string;
  token?: string;
}

/** Where a ServiceAccount's credentials are mounted in a pod. */
const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';

/**
 * The cluster to talk to, in order: an explicit URL and token, a kubeconfig file (given or from
 * KUBECONFIG), the in-cluster configuration of a pod. Anything else is an UnavailableError saying
 * what to set.
 */
export function loadKubeConfig(
  target: ClusterTarget = {},
  env: NodeJS.ProcessEnv = process.env,
): KubeConfig {
  const config = new KubeConfig();
  if (target.url !== undefined) {
    // skipTLSVerify only matters for https; the embedded cluster speaks plain http on loopback.
    config.loadFromClusterAndUser(
      { name: 'paddock', server: target.url, skipTLSVerify: target.url.startsWith('http:') },
      { name: 'paddock', ...(target.token === undefined ? {} : { token: target.token }) },
    );
    return config;
  }
  const file = target.kubeconfig ?? env.KUBECONFIG?.split(':')[0];
  if (file !== undefined && file !== '') {
    if (!existsSync(file)) {
      throw new UnavailableError(`the kubeconfig ${file} does not exist`, 0, undefined);
    }
    config.loadFromFile(file);
    return config;
  }
  if (env.KUBERNETES_SERVICE_HOST !== undefined && existsSync(IN_CLUSTER_TOKEN)) {
    config.loadFromCluster();
    return config;
  }
  throw new UnavailableError(
    'no cluster configured: set KUBECONFIG, run in a pod, or start the embedded cluster',
    0,
    undefined,
  );
}
