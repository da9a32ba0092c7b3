import { existsSync } from 'node:fs';
import { isIPv6 } from 'node:net';
import { join } from 'node:path';
import { ClusterConfig, SERVICE_ACCOUNT_DIR } from './cluster-config.js';
import { UnavailableError } from './errors.js';

export interface ClusterTarget {
  /** A kubeconfig file; KUBECONFIG (its first file) when not given. */
  kubeconfig?: string;
  /** An API server URL and bearer token, e.g. the embedded cluster's. */
  url?: string;
  token?: string;
  /**
   * A folder holding a ServiceAccount's `token`, `ca.crt` and `namespace` as a pod mounts them,
   * used with KUBERNETES_SERVICE_HOST and _PORT when no kubeconfig is given. The standard
   * in-cluster folder when not given; a node that runs pods as processes mounts it elsewhere.
   */
  serviceAccountDir?: string;
}

export { SERVICE_ACCOUNT_DIR };

/**
 * The cluster to talk to, in order: an explicit URL and token, a kubeconfig file (given or from
 * KUBECONFIG), the in-cluster configuration of a pod. Anything else is an UnavailableError saying
 * what to set.
 */
export function loadKubeConfig(
  target: ClusterTarget = {},
  env: NodeJS.ProcessEnv = process.env,
): ClusterConfig {
  if (target.url !== undefined) {
    // skipTLSVerify only matters for https; the embedded cluster speaks plain http on loopback.
    return ClusterConfig.fromClusterAndUser(
      { name: 'paddock', server: target.url, skipTLSVerify: target.url.startsWith('http:') },
      { name: 'paddock', ...(target.token === undefined ? {} : { token: target.token }) },
    );
  }
  const file = target.kubeconfig ?? env.KUBECONFIG?.split(':')[0];
  if (file !== undefined && file !== '') {
    if (!existsSync(file)) {
      throw new UnavailableError(`the kubeconfig ${file} does not exist`, 0, undefined);
    }
    return ClusterConfig.fromFile(file);
  }
  const dir = target.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const host = env.KUBERNETES_SERVICE_HOST;
  if (host !== undefined && existsSync(join(dir, 'token'))) {
    // As the library's loadFromCluster, from this folder; the token file is read again as the
    // kubelet renews it.
    const port = env.KUBERNETES_SERVICE_PORT ?? '443';
    const server = `https://${isIPv6(host) ? `[${host}]` : host}:${port}`;
    return ClusterConfig.fromClusterAndUser(
      { name: 'in-cluster', server, caFile: join(dir, 'ca.crt'), skipTLSVerify: false },
      {
        name: 'in-cluster',
        authProvider: { name: 'tokenFile', config: { tokenFile: join(dir, 'token') } },
      },
    );
  }
  throw new UnavailableError(
    'no cluster configured: set KUBECONFIG, run in a pod, or start the embedded cluster',
    0,
    undefined,
  );
}
