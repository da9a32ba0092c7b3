import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapCluster } from './cluster-bootstrap.js';
import { binOf } from './package-bins.js';
import type { ComponentSpec } from './supervisor.js';

export interface LocalPlatform {
  /** Absolute folder for every component's state (./data by default). */
  dataDir: string;
  /** The interface every listener binds: loopback unless asked otherwise. */
  host: string;
  /** Port of the sandbox's MCP listener; its human-facing API takes the next one. */
  sandboxPort: number;
  dashboardPort: number;
  clusterPort: number;
  /** A kubeconfig of a cluster to use instead of the embedded one (KUBECONFIG). */
  kubeconfig?: string | undefined;
}

export const DEFAULT_SANDBOX_PORT = 7070;
export const DEFAULT_DASHBOARD_PORT = 3000;
export const DEFAULT_CLUSTER_PORT = 6443;
/** The operator's health and metrics port: the cluster's port + 1. */
const OPERATOR_PORT_OFFSET = 1;
/** The local dashboard's initial admin. */
export const LOCAL_ADMIN_USERNAME = 'admin';

interface LocalSecrets {
  sessionSecret: string;
  adminPassword: string;
}

/**
 * The local dashboard's session secret and initial admin password, made at the first start and
 * kept (mode 0600) under the data folder, so sessions survive restarts and the password can be
 * shown at every start.
 */
async function localSecrets(dir: string): Promise<LocalSecrets> {
  const file = join(dir, 'secrets.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LocalSecrets;
  } catch {
    const secrets: LocalSecrets = {
      sessionSecret: randomBytes(32).toString('base64url'),
      adminPassword: randomBytes(12).toString('base64url'),
    };
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${JSON.stringify(secrets, null, 2)}\n`, { mode: 0o600 });
    return secrets;
  }
}

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const repositoryRoot = join(packageRoot, '..', '..');

/** Whether only this machine can reach a listener bound to `host`. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function url(host: string, port: number, path: string): string {
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host;
  return `http://${shown}:${port}${path}`;
}

/** Copies the sample workspace under the data folder once, so agents never edit the repository. */
async function sampleWorkspace(dataDir: string): Promise<string> {
  const target = join(dataDir, 'workspaces', 'sample');
  if (!(await stat(target).catch(() => undefined))) {
    await cp(join(repositoryRoot, 'examples', 'sample-workspace'), target, { recursive: true });
  }
  return target;
}

/**
 * The components of the local platform in start order. Each component adds itself here when it
 * lands: its command, its ready URL, and the lines a newcomer needs to use it.
 */
export async function localComponents(platform: LocalPlatform): Promise<ComponentSpec[]> {
  const { host, sandboxPort, dashboardPort } = platform;
  const embedded = platform.kubeconfig === undefined;
  const cluster = embedded
    ? [embeddedCluster(platform), operator(platform), localAgents(platform)]
    : [];
  const dashboardDir = join(platform.dataDir, 'dashboard');
  const secrets = await localSecrets(dashboardDir);
  const workspace = await sampleWorkspace(platform.dataDir);
  // Dev mode stands in for the identity a proxy would set; off loopback anyone could act as `dev`
  // (a terminal, SSH keys), so there the human API wants the identity headers like in production,
  // with the proof of a proxy: a secret made at each start and shown in the banner. MCP off
  // loopback needs a bearer token, made the same way.
  const devMode = isLoopback(host);
  const apiProof = devMode ? undefined : randomBytes(32).toString('hex');
  const mcpToken = devMode ? undefined : randomBytes(32).toString('base64url');
  return [
    ...cluster,
    {
      name: 'sandbox',
      command: process.execPath,
      args: [
        binOf('@paddock/sandbox', 'paddock-sandbox'),
        '-addr',
        `${host}:${sandboxPort}`,
        '-api-addr',
        `${host}:${sandboxPort + 1}`,
        '-enable-api',
        '-enable-exec',
        '-enable-port-forward',
        '-enable-ssh',
        ...(devMode ? ['-dev-mode'] : []),
        '-workspace',
        workspace,
      ],
      ...(apiProof !== undefined && mcpToken !== undefined
        ? {
            env: {
              SVC_API_PROXY_SECRET_SHA256: createHash('sha256').update(apiProof).digest('hex'),
              SVC_MCP_TOKEN: mcpToken,
            },
          }
        : {}),
      readyUrl: url(host, sandboxPort, '/readyz'),
      banner: [
        `MCP over HTTP+SSE:        ${url(host, sandboxPort, '/sse')}`,
        `MCP over Streamable HTTP: ${url(host, sandboxPort, '/mcp')}`,
        ...(devMode
          ? [`human API (dev mode):     ${url(host, sandboxPort + 1, '/api/docs')}`]
          : [
              `MCP token (--host is not loopback): Authorization: Bearer ${mcpToken}`,
              `human API (--host is not loopback): ${url(host, sandboxPort + 1, '/api/docs')}`,
              `  send X-Forwarded-Sub: <you> and X-Paddock-Proof: ${apiProof}`,
            ]),
        `sample workspace:         ${workspace}`,
      ],
    },
    {
      name: 'dashboard',
      command: process.execPath,
      args: [
        binOf('@paddock/dashboard', 'paddock-dashboard'),
        '--kubeconfig',
        platform.kubeconfig ?? embeddedKubeconfig(platform),
      ],
      env: {
        SVC_AUTH_MODE: 'builtin',
        SVC_LISTEN_ADDR: `${host}:${dashboardPort}`,
        SVC_BUILTIN_SQLITE_PATH: join(dashboardDir, 'users.db'),
        SVC_SESSION_SECRET: secrets.sessionSecret,
        SVC_BUILTIN_ADMIN_USERNAME: LOCAL_ADMIN_USERNAME,
        SVC_BUILTIN_ADMIN_PASSWORD: secrets.adminPassword,
      },
      readyUrl: url(host, dashboardPort, '/readyz'),
      banner: [
        `web UI and API:           ${url(host, dashboardPort, '/')}`,
        `initial admin:            ${LOCAL_ADMIN_USERNAME} / ${secrets.adminPassword}`,
        `users and sessions:       ${join(dashboardDir, 'users.db')}`,
      ],
    },
  ];
}

/**
 * The embedded Kubernetes API, when no cluster is configured: state under the data folder, a
 * kubeconfig there for kubectl, Paddock's CRDs and the sample resources installed once it is ready.
 */
function embeddedCluster(platform: LocalPlatform): ComponentSpec {
  const { host, clusterPort } = platform;
  const dir = join(platform.dataDir, 'cluster');
  const kubeconfig = embeddedKubeconfig(platform);
  return {
    name: 'cluster',
    command: process.execPath,
    args: [
      binOf('@paddock/cluster-local', 'paddock-cluster'),
      '--listen',
      `${host}:${clusterPort}`,
      '--data',
      dir,
      '--kubeconfig',
      kubeconfig,
    ],
    readyUrl: url(host, clusterPort, '/readyz'),
    banner: [
      `Kubernetes API:           ${url(host, clusterPort, '')}`,
      `kubectl:                  kubectl --kubeconfig ${kubeconfig} get workspaces`,
    ],
    afterReady: () => bootstrapCluster(kubeconfig, join(repositoryRoot, 'examples', 'resources')),
  };
}

/** The admin kubeconfig the embedded cluster writes at start. */
function embeddedKubeconfig(platform: LocalPlatform): string {
  return join(platform.dataDir, 'cluster', 'kubeconfig');
}

/** The operator, against the embedded cluster: it makes the sample workspace and registry Ready. */
function operator(platform: LocalPlatform): ComponentSpec {
  const { host } = platform;
  const port = platform.clusterPort + OPERATOR_PORT_OFFSET;
  return {
    name: 'operator',
    command: process.execPath,
    args: [
      binOf('@paddock/operator', 'paddock-operator'),
      '--kubeconfig',
      embeddedKubeconfig(platform),
    ],
    // The sample registry's tools start after the operator: look again soon, not in 5 minutes.
    env: {
      SVC_OPERATOR_LISTEN_ADDR: `${host}:${port}`,
      SVC_OPERATOR_TOOL_REDISCOVERY_SECONDS: '10',
    },
    readyUrl: url(host, port, '/readyz'),
    banner: [`metrics:                  ${url(host, port, '/metrics')}`],
  };
}

/**
 * The embedded cluster runs no containers, so `paddock agents` plays the kubelet for its agents:
 * each replica of a paddock-sandbox agent runs as a local process whose output is its pod's log.
 * It is a component like the others, a process of its own, because the supervisor already gives
 * it all it needs: it starts once the cluster's bootstrap is done (start order), it stops before
 * the cluster (reverse order) so the sandboxes' last lines still reach their pods, a crash
 * restarts it with back-off, and the stop signals go to its process group, which holds the
 * sandboxes it started: none outlives the platform, even when it has to be killed.
 */
function localAgents(platform: LocalPlatform): ComponentSpec {
  const kubeconfig = embeddedKubeconfig(platform);
  return {
    name: 'agents',
    command: process.execPath,
    args: [
      join(packageRoot, 'bin', 'paddock.js'),
      'agents',
      '--data',
      platform.dataDir,
      '--kubeconfig',
      kubeconfig,
    ],
    banner: [
      `agent replicas:           paddock-sandbox ones run here, workspaces in ${join(platform.dataDir, 'agents')}`,
      `sample agent's log:       kubectl --kubeconfig ${kubeconfig} logs -n paddock-sample sample-agent-0`,
    ],
  };
}
