import { DASHBOARD_ENV, DASHBOARD_NODE_FLAGS } from '@paddock/dashboard/shared';
import { OPERATOR_NODE_FLAGS } from '@paddock/operator/node-flags';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootstrapCluster } from './cluster-bootstrap.js';
import { reachableHost } from './sample-addresses.js';
import type { SampleModel } from './sample-model.js';
import { DOOR_TOKEN_ENV } from './local-door-command.js';
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
  /** The sample agent's model (PADDOCK_MODEL_*), when the person gave one. */
  sampleModel?: SampleModel | undefined;
}

export const DEFAULT_SANDBOX_PORT = 7070;
export const DEFAULT_DASHBOARD_PORT = 3000;
export const DEFAULT_CLUSTER_PORT = 6443;
/** The operator's health and metrics port: the cluster's port + 1. */
const OPERATOR_PORT_OFFSET = 1;
/** The local dashboard's initial admin. */
export const LOCAL_ADMIN_USERNAME = 'admin';

/** The file of the local secrets, in the local dashboard's folder. */
const SECRETS_FILE = 'secrets.json';

interface LocalSecrets {
  sessionSecret: string;
  adminPassword: string;
}

/** The local dashboard's folder under the data folder. */
function localDashboardDir(dataDir: string): string {
  return join(dataDir, 'dashboard');
}

/** The local dashboard's users and sessions (its SQLite store). */
export function localUserStore(dataDir: string): string {
  return join(localDashboardDir(dataDir), 'users.db');
}

/**
 * The local dashboard's session secret and initial admin password, made at the first start and
 * kept (mode 0600) under the data folder, so sessions survive restarts and the password can be
 * shown at every start. The password is only the initial one: the dashboard creates the admin
 * with it when its store has no admin, and a password changed later (in the dashboard, or with
 * `paddock users reset-password`) lives in the store alone; the file is left as it is, so that
 * it seeds a fresh store the same way.
 */
async function localSecrets(dir: string): Promise<LocalSecrets> {
  const file = join(dir, SECRETS_FILE);
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
  return `http://${reachableHost(host)}:${port}${path}`;
}

/**
 * The components of the local platform in start order. Each component adds itself here when it
 * lands: its command, its ready URL, and the lines a newcomer needs to use it.
 */
export async function localComponents(platform: LocalPlatform): Promise<ComponentSpec[]> {
  const { host, dashboardPort } = platform;
  const embedded = platform.kubeconfig === undefined;
  const cluster = embedded
    ? [embeddedCluster(platform), operator(platform), localNode(platform), sampleDoor(platform)]
    : [];
  const dashboardDir = localDashboardDir(platform.dataDir);
  const secrets = await localSecrets(dashboardDir);
  return [
    ...cluster,
    {
      name: 'dashboard',
      command: process.execPath,
      args: [
        ...DASHBOARD_NODE_FLAGS,
        binOf('@paddock/dashboard', 'paddock-dashboard'),
        '--kubeconfig',
        platform.kubeconfig ?? embeddedKubeconfig(platform),
      ],
      env: {
        ...DASHBOARD_ENV,
        SVC_AUTH_MODE: 'builtin',
        SVC_LISTEN_ADDR: `${host}:${dashboardPort}`,
        SVC_BUILTIN_SQLITE_PATH: localUserStore(platform.dataDir),
        SVC_SESSION_SECRET: secrets.sessionSecret,
        SVC_BUILTIN_ADMIN_USERNAME: LOCAL_ADMIN_USERNAME,
        SVC_BUILTIN_ADMIN_PASSWORD: secrets.adminPassword,
      },
      readyUrl: url(host, dashboardPort, '/readyz'),
      banner: [
        `web UI and API:           ${url(host, dashboardPort, '/')}`,
        `initial admin:            ${LOCAL_ADMIN_USERNAME} / ${secrets.adminPassword} (kept in ${join(dashboardDir, SECRETS_FILE)}; a password changed in the dashboard is not written there)`,
        `reset a password:         npx paddock users reset-password ${LOCAL_ADMIN_USERNAME} --data ${platform.dataDir}`,
        `users and sessions:       ${localUserStore(platform.dataDir)}`,
        ...(embedded
          ? [
              `sample agent's workspace: ${url(host, dashboardPort, '/workspaces/sample/agents/sample-agent?tab=files')} (files, changes, terminal, MCP and SSH settings)`,
            ]
          : []),
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
    afterReady: () =>
      bootstrapCluster(
        kubeconfig,
        join(repositoryRoot, 'examples', 'resources'),
        platform,
        platform.sampleModel,
      ),
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
      ...OPERATOR_NODE_FLAGS,
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

/** The sample agent's pod, which `npm start` gives stable local addresses. */
export const SAMPLE_AGENT = { namespace: 'paddock-sample', pod: 'sample-agent-0' } as const;
/** Its workspace volume (the volumeClaimTemplate `workspace` of the StatefulSet sample-agent). */
const SAMPLE_CLAIM = 'workspace-sample-agent-0';

/**
 * The embedded cluster runs no containers, so `paddock node` is its one node: it binds every pod to
 * itself and runs those of the sandbox image as local processes, each on a loopback address of its
 * own, with its volumes as folders under the data folder. The sample agent's volume starts as a copy
 * of examples/sample-workspace. It is a component like the others, a process of its own, because
 * the supervisor already gives it all it needs: it starts once the cluster's bootstrap is done
 * (start order), it stops before the cluster (reverse order) so the sandboxes' last lines still
 * reach their pods, a crash restarts it with back-off, and the stop signals go to its process
 * group, which holds the sandboxes it started: none outlives the platform, even when it has to be
 * killed.
 */
function localNode(platform: LocalPlatform): ComponentSpec {
  const kubeconfig = embeddedKubeconfig(platform);
  return {
    name: 'node',
    command: process.execPath,
    args: [
      join(packageRoot, 'bin', 'paddock.js'),
      'node',
      '--data',
      platform.dataDir,
      '--kubeconfig',
      kubeconfig,
      '--seed',
      `${SAMPLE_AGENT.namespace}/${SAMPLE_CLAIM}=${join(repositoryRoot, 'examples', 'sample-workspace')}`,
    ],
    banner: [
      `pods:                     kubectl --kubeconfig ${kubeconfig} get sts,pods,pvc -n ${SAMPLE_AGENT.namespace}`,
      `sample agent's log:       kubectl --kubeconfig ${kubeconfig} logs -n ${SAMPLE_AGENT.namespace} ${SAMPLE_AGENT.pod}`,
    ],
  };
}

/**
 * The sample agent's door: its pod's MCP listener and human API on the platform's sandbox ports,
 * wherever the pod runs now. On loopback the human API is opened as the local user `dev`; off
 * loopback both doors want the bearer token made at each start and shown in the banner.
 */
function sampleDoor(platform: LocalPlatform): ComponentSpec {
  const { host, sandboxPort } = platform;
  const token = isLoopback(host) ? undefined : randomBytes(32).toString('base64url');
  return {
    name: 'sandbox',
    command: process.execPath,
    args: [
      join(packageRoot, 'bin', 'paddock.js'),
      'door',
      '--kubeconfig',
      embeddedKubeconfig(platform),
      '--listen',
      `${host}:${sandboxPort}`,
      '--pod',
      `${SAMPLE_AGENT.namespace}/${SAMPLE_AGENT.pod}`,
    ],
    // No ready URL: the platform does not wait for the sample agent, which its user may delete;
    // until the pod serves, the door answers 503 saying so.
    ...(token === undefined ? {} : { env: { [DOOR_TOKEN_ENV]: token } }),
    banner: [
      `sample agent (pod ${SAMPLE_AGENT.namespace}/${SAMPLE_AGENT.pod}), over its door:`,
      `MCP over HTTP+SSE:        ${url(host, sandboxPort, '/sse')}`,
      `MCP over Streamable HTTP: ${url(host, sandboxPort, '/mcp')}`,
      token === undefined
        ? `human API (as dev):       ${url(host, sandboxPort + 1, '/api/docs')}`
        : `human API:                ${url(host, sandboxPort + 1, '/api/docs')}`,
      ...(token === undefined
        ? []
        : [`door token (--host is not loopback): Authorization: Bearer ${token}`]),
      `its workspace:            ${join(platform.dataDir, 'volumes', SAMPLE_AGENT.namespace, SAMPLE_CLAIM)}`,
    ],
  };
}
