import assert from 'node:assert/strict';
import { ApiException, KubeConfig } from '@kubernetes/client-node';
import { startCluster, type ClusterOptions, type RunningCluster } from '@paddock/cluster-local';

/** A client configuration for the embedded server's plain HTTP side, as a bearer of `token`. */
export function kubeConfig(url: string, token: string): KubeConfig {
  const config = new KubeConfig();
  config.loadFromOptions({
    // client-node talks plain HTTP only with this set.
    clusters: [{ name: 'paddock', server: url, skipTLSVerify: true }],
    users: [{ name: 'user', token }],
    contexts: [{ name: 'paddock', cluster: 'paddock', user: 'user' }],
    currentContext: 'paddock',
  });
  return config;
}

export interface TestCluster extends RunningCluster {
  /** The admin's client configuration. */
  admin: KubeConfig;
}

export async function startTestCluster(options: ClusterOptions = {}): Promise<TestCluster> {
  const cluster = await startCluster(options);
  return Object.assign(cluster, { admin: kubeConfig(cluster.url, cluster.adminToken) });
}

/** A Kubernetes Status, as errors answer. */
export interface Status {
  kind: string;
  apiVersion: string;
  status: string;
  message: string;
  reason: string;
  code: number;
  details?: {
    name?: string;
    group?: string;
    kind?: string;
    causes?: Array<{ reason: string; message: string; field: string }>;
  };
}

/** The Status a client call failed with; fails the test if the call succeeds. */
export async function failure(call: Promise<unknown>): Promise<Status> {
  try {
    await call;
  } catch (err) {
    if (!(err instanceof ApiException)) throw err;
    const body: unknown = err.body;
    // Some answers (401) reach the caller without their body.
    if (body === undefined || body === null || body === '') return { code: err.code } as Status;
    return (typeof body === 'string' ? JSON.parse(body) : body) as Status;
  }
  assert.fail('the call succeeded, a failure was expected');
}

/** A request the typed clients do not make, with the admin token unless told otherwise. */
export async function request(
  cluster: RunningCluster,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; contentType?: string; accept?: string } = {},
): Promise<{ status: number; body: unknown; text: string; headers: Headers }> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? cluster.adminToken : options.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  if (options.accept) headers['accept'] = options.accept;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = options.contentType ?? 'application/json';
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  }
  const response = await fetch(`${cluster.url}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: logs, health.
  }
  return { status: response.status, body: parsed, text, headers: response.headers };
}
