import {
  API_VERSION,
  CORE_KINDS,
  installCrds,
  KINDS,
  type Kube,
  type KubeObject,
  type Workspace,
  type WorkspaceSpec,
} from '@paddock/kube';
import { startDashboard, type RunningDashboard } from './dashboard.js';
import { startEmbeddedCluster, startOperator, type EmbeddedCluster } from './embedded-cluster.js';
import type { Started } from './processes.js';
import { eventually } from './waiting.js';

const WORKSPACE_KIND = KINDS.find((k) => k.kind === 'Workspace')!;

export interface ControlPlane {
  cluster: EmbeddedCluster;
  kube: Kube;
  operator: Started;
  dashboard: RunningDashboard;
  /**
   * A Workspace in the namespace `ns-<name>` (created with it), once Ready; its display name is
   * `Workspace <name>` unless the spec gives one.
   */
  workspace(
    name: string,
    spec?: Omit<WorkspaceSpec, 'namespace' | 'displayName'> & { displayName?: string },
  ): Promise<Workspace>;
  /** A step for stop(), which runs the steps in the reverse order of their adding. */
  onStop(step: () => Promise<unknown>): void;
  stop(): Promise<void>;
}

/**
 * The embedded cluster with Paddock's CRDs and the `paddock-system` namespace, the compiled
 * operator and the compiled dashboard, ready. The dashboard is in proxy mode unless
 * `dashboardEnv` says otherwise: users are the headers `X-Forwarded-User` and
 * `X-Forwarded-Groups`, the group `devs` its editors and `admins` its admins.
 */
export async function startControlPlane(
  options: { dashboardEnv?: Record<string, string> } = {},
): Promise<ControlPlane> {
  const cluster = await startEmbeddedCluster();
  const { kube } = cluster;
  const stops: Array<() => Promise<unknown>> = [() => cluster.stop()];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    await installCrds(kube);
    await kube
      .resource<KubeObject>(CORE_KINDS.namespace)
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paddock-system' } });
    const [operator, dashboard] = await Promise.all([
      startOperator(cluster.kubeconfig),
      startDashboard({
        SVC_AUTH_MODE: 'proxy',
        SVC_AUTH_ROLE_EDITOR_GROUPS: 'devs',
        SVC_AUTH_ROLE_ADMIN_GROUPS: 'admins',
        ...options.dashboardEnv,
        KUBECONFIG: cluster.kubeconfig,
      }),
    ]);
    stops.push(
      () => operator.stop(),
      () => dashboard.stop(),
    );
    await eventually('the dashboard ready', async () =>
      (await fetch(`${dashboard.base}/readyz`)).status === 200 ? true : undefined,
    );
    const workspaces = kube.resource<Workspace>(WORKSPACE_KIND);
    return {
      cluster,
      kube,
      operator,
      dashboard,
      stop,
      onStop: (step) => void stops.push(step),
      async workspace(name, spec = {}) {
        await workspaces.create({
          apiVersion: API_VERSION,
          kind: 'Workspace',
          metadata: { name },
          spec: {
            displayName: `Workspace ${name}`,
            namespace: { name: `ns-${name}`, create: true },
            ...spec,
          },
        });
        return eventually(
          `${name} Ready`,
          async () => {
            const found = await workspaces.get(name);
            return found.status?.phase === 'Ready' ? found : undefined;
          },
          20_000,
        );
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
