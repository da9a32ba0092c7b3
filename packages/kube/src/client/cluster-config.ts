import { readFileSync } from 'node:fs';
import { Agent as HttpAgent, type Agent } from 'node:http';
import type { RequestOptions } from 'node:https';
import { isIPv6 } from 'node:net';
import { dirname, isAbsolute, join } from 'node:path';
import type { Cluster, Context, KubeConfig, User } from '@kubernetes/client-node';
// The library's own parsing of a kubeconfig's entries and its token-file authentication, by deep
// import: its package entry (and its KubeConfig) loads the whole generated API client, some
// 1,000 modules and tens of MiB in every process, which none of these need.
import { newClusters, newContexts, newUsers } from '@kubernetes/client-node/dist/config_types.js';
import { FileAuth } from '@kubernetes/client-node/dist/file_auth.js';
import { parse } from 'yaml';

/** The TLS facts of a connection to the API server; connections are pooled by them. */
export interface TlsFacts {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** Set only when the kubeconfig says so; Node's default (verify) otherwise. */
  rejectUnauthorized?: boolean;
  servername?: string;
}

/** What a request to the API server carries: where, as whom, over which TLS. */
export interface Connection {
  /** The server's URL, without a trailing slash. */
  server: string;
  headers: Record<string, string>;
  tls: TlsFacts;
  /**
   * The library's own agent, when it made the connection (a proxy, or a fresh agent to pool by
   * its options).
   */
  agent?: Agent;
}

/** Where a ServiceAccount's credentials are mounted in a pod. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** Auth-providers the library tries before a token file. */
const LIBRARY_FIRST_PROVIDERS = new Set(['azure', 'gcp', 'exec']);

/**
 * A kubeconfig's clusters, users and contexts, and the current one's connection facts. The same
 * entries as @kubernetes/client-node's KubeConfig (parsed by its own functions) and the same
 * connection it would make: a bearer token (given or read from a token file, again every minute as
 * the kubelet renews it), basic auth, client certificates, the cluster's CA, its TLS server name
 * and impersonation. What needs more of the library (exec and auth-provider plugins, proxies) is
 * handed to its KubeConfig, loaded on the first such connection.
 */
export class ClusterConfig {
  private readonly fileAuth = new FileAuth();
  private library: Promise<KubeConfig> | undefined;

  constructor(
    public clusters: readonly Cluster[] = [],
    public users: readonly User[] = [],
    public contexts: readonly Context[] = [],
    public currentContext = '',
  ) {}

  /**
   * A pod's in-cluster configuration, as the library's loadFromCluster: KUBERNETES_SERVICE_HOST
   * and _PORT, the ServiceAccount's files under `pathPrefix` (a node that mounts them elsewhere).
   */
  loadFromCluster(pathPrefix = ''): void {
    const host = process.env.KUBERNETES_SERVICE_HOST ?? '';
    const port = process.env.KUBERNETES_SERVICE_PORT;
    const scheme = port === '80' || port === '8080' || port === '8001' ? 'http' : 'https';
    const root = `${pathPrefix}${SERVICE_ACCOUNT_DIR}`;
    this.clusters = [
      {
        name: 'inCluster',
        server: `${scheme}://${isIPv6(host) ? `[${host}]` : host}:${port}`,
        caFile: `${root}/ca.crt`,
        skipTLSVerify: false,
      },
    ];
    this.users = [
      {
        name: 'inClusterUser',
        authProvider: { name: 'tokenFile', config: { tokenFile: `${root}/token` } },
      },
    ];
    this.contexts = [{ cluster: 'inCluster', user: 'inClusterUser', name: 'inClusterContext' }];
    this.currentContext = 'inClusterContext';
  }

  /** One cluster and one user, as the library's loadFromClusterAndUser. */
  static fromClusterAndUser(cluster: Cluster, user: User): ClusterConfig {
    const context = 'loaded-context';
    return new ClusterConfig(
      [cluster],
      [user],
      [{ cluster: cluster.name, user: user.name, name: context }],
      context,
    );
  }

  /** A kubeconfig file, as the library's loadFromFile: relative file paths are the file's. */
  static fromFile(file: string): ClusterConfig {
    const document = (parse(readFileSync(file, 'utf8')) ?? {}) as Record<string, unknown>;
    const root = dirname(file);
    const absolute = (path: string | undefined) =>
      path === undefined || path === null || isAbsolute(path) ? path : join(root, path);
    const clusters = newClusters(document.clusters).map((c) => ({
      ...c,
      caFile: absolute(c.caFile),
    }));
    const users = newUsers(document.users).map((u) => ({
      ...u,
      certFile: absolute(u.certFile),
      keyFile: absolute(u.keyFile),
    }));
    const current = document['current-context'];
    return new ClusterConfig(
      clusters,
      users,
      newContexts(document.contexts),
      typeof current === 'string' ? current : '',
    );
  }

  getCurrentContextObject(): Context | null {
    return this.contexts.find((c) => c.name === this.currentContext) ?? null;
  }

  getCurrentCluster(): Cluster | null {
    const context = this.getCurrentContextObject();
    return this.clusters.find((c) => c.name === context?.cluster) ?? null;
  }

  getCurrentUser(): User | null {
    const context = this.getCurrentContextObject();
    return this.users.find((u) => u.name === context?.user) ?? null;
  }

  /** The connection facts of the next request; files (CA, certificates, token) are read now. */
  async connection(): Promise<Connection> {
    const cluster = this.getCurrentCluster();
    if (cluster === null) throw new Error('the kubeconfig has no current cluster');
    const user = this.getCurrentUser();
    if (needsLibrary(cluster, user)) return this.libraryConnection(cluster);
    // The library's rule: plain HTTP only where the kubeconfig gives up on TLS verification.
    if (cluster.server.startsWith('http:') && !cluster.skipTLSVerify) {
      throw new Error('HTTP protocol is not allowed when skipTLSVerify is not set or false');
    }
    const tls: TlsFacts = {};
    const headers: Record<string, string> = {};
    if (cluster.skipTLSVerify) tls.rejectUnauthorized = false;
    if (cluster.tlsServerName) tls.servername = cluster.tlsServerName;
    const ca = bufferOf(cluster.caFile, cluster.caData);
    if (ca) tls.ca = ca;
    if (user) {
      const cert = bufferOf(user.certFile, user.certData);
      if (cert) tls.cert = cert;
      const key = bufferOf(user.keyFile, user.keyData);
      if (key) tls.key = key;
      if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
      if (this.fileAuth.isAuthProvider(user)) {
        const opts = { headers };
        await this.fileAuth.applyAuthentication(user, opts);
      }
      if (user.token) headers.Authorization = `Bearer ${user.token}`;
      if (user.username) {
        const basic = Buffer.from(`${user.username}:${user.password}`).toString('base64');
        headers.Authorization = `Basic ${basic}`;
      }
    }
    return { server: cluster.server, headers, tls };
  }

  private async libraryConnection(cluster: Cluster): Promise<Connection> {
    this.library ??= import('@kubernetes/client-node/dist/config.js').then(({ KubeConfig }) => {
      const config = new KubeConfig();
      config.loadFromOptions({
        clusters: [...this.clusters],
        users: [...this.users],
        contexts: [...this.contexts],
        currentContext: this.currentContext,
      });
      return config;
    });
    const config = await this.library;
    const options: RequestOptions & { headers?: Record<string, string> } = {};
    await config.applyToHTTPSOptions(options);
    const headers: Record<string, string> = { ...options.headers };
    if (typeof options.auth === 'string') {
      headers.Authorization = `Basic ${Buffer.from(options.auth).toString('base64')}`;
    }
    return {
      server: cluster.server,
      headers,
      tls: {},
      ...(options.agent instanceof HttpAgent ? { agent: options.agent } : {}),
    };
  }
}

/**
 * Whether the library's own code makes the connection: proxies, exec plugins and every
 * auth-provider but a plain token file (the library tries azure, gcp and exec before the file).
 */
export function needsLibrary(cluster: Cluster, user: User | null): boolean {
  if (cluster.proxyUrl) return true;
  if (user === null) return false;
  if (user.exec) return true;
  const provider = user.authProvider as
    { name?: string; config?: { tokenFile?: string; exec?: unknown } } | null | undefined;
  if (provider === null || provider === undefined) return false;
  const tokenFileOnly =
    typeof provider.config?.tokenFile === 'string' &&
    provider.config.exec === undefined &&
    !LIBRARY_FIRST_PROVIDERS.has(provider.name ?? '');
  return !tokenFileOnly;
}

/** A file's bytes, else base64 data, as the library reads CA and client certificates. */
function bufferOf(
  file: string | null | undefined,
  data: string | null | undefined,
): Buffer | undefined {
  if (file) return readFileSync(file);
  if (data) return Buffer.from(data, 'base64');
  return undefined;
}
