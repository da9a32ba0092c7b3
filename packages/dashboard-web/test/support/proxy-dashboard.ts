import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import {
  API_VERSION,
  CORE_KINDS,
  KINDS,
  installCrds,
  type AgentRuntime,
  type Kube,
  type KubeObject,
  type Workspace,
  type WorkspaceSpec,
} from '@paddock/kube';
import {
  eventually,
  launchBrowser,
  startDashboard,
  startEmbeddedCluster,
  startOperator,
  type RunningDashboard,
} from '@paddock/testing';

const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;

/** A person as the authenticating proxy names them: the user and their comma-separated groups. */
export interface ProxyPerson {
  user: string;
  groups: string;
}

export interface ProxyDashboard {
  kube: Kube;
  dashboard: RunningDashboard;
  browser: Browser;
  /** A Workspace in the namespace `ns-<name>` (created with it), once Ready. */
  workspace(name: string, spec: Omit<WorkspaceSpec, 'namespace'>): Promise<void>;
  /** An AgentRuntime, as created (the operator makes its pods' StatefulSet). */
  agent(namespace: string, name: string, spec: AgentRuntime['spec']): Promise<AgentRuntime>;
  /** A browser context acting as the person: the proxy's headers on every request. */
  contextOf(person: ProxyPerson, options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Closes the contexts and the browser, then stops the dashboard, the operator and the cluster. */
  stop(): Promise<void>;
}

/**
 * What the browser tests of the workspace pages run against: the embedded cluster with the CRDs
 * and the operator running, the dashboard in proxy mode (`devs` are its editors), ready, and
 * Chromium. The cluster has no node: pods are made with agentPod().
 */
export async function startProxyDashboard(): Promise<ProxyDashboard> {
  const launching = launchBrowser();
  const contexts: BrowserContext[] = [];
  // Whatever has started, stopped in the reverse order.
  const stops: Array<() => Promise<unknown>> = [
    () =>
      launching.then(
        (browser) => browser.close(),
        () => undefined,
      ),
  ];
  const stop = async () => {
    for (const step of stops.reverse()) await step();
  };
  try {
    const cluster = await startEmbeddedCluster();
    stops.push(() => cluster.stop());
    const { kube } = cluster;
    await installCrds(kube);
    await kube
      .resource<KubeObject>(CORE_KINDS.namespace)
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'paddock-system' } });
    const [operator, dashboard] = await Promise.all([
      startOperator(cluster.kubeconfig),
      startDashboard({
        SVC_AUTH_MODE: 'proxy',
        KUBECONFIG: cluster.kubeconfig,
        SVC_AUTH_ROLE_EDITOR_GROUPS: 'devs',
      }),
    ]);
    stops.push(
      () => operator.stop(),
      () => dashboard.stop(),
      () => Promise.all(contexts.map((c) => c.close())),
    );
    const browser = await launching;
    await eventually('the dashboard ready', async () =>
      (await fetch(`${dashboard.base}/readyz`)).status === 200 ? true : undefined,
    );

    const workspaces = kube.resource<Workspace>(kindOf('Workspace'));
    return {
      kube,
      dashboard,
      browser,
      stop,
      async workspace(name, spec) {
        await workspaces.create({
          apiVersion: API_VERSION,
          kind: 'Workspace',
          metadata: { name },
          spec: { namespace: { name: `ns-${name}`, create: true }, ...spec },
        });
        await eventually(
          `${name} Ready`,
          async () => ((await workspaces.get(name)).status?.phase === 'Ready' ? true : undefined),
          20_000,
        );
      },
      agent: (namespace, name, spec) =>
        kube.resource<AgentRuntime>(kindOf('AgentRuntime')).create({
          apiVersion: API_VERSION,
          kind: 'AgentRuntime',
          metadata: { name, namespace },
          spec,
        }),
      async contextOf({ user, groups }, options = {}) {
        const context = await browser.newContext({
          baseURL: dashboard.base,
          extraHTTPHeaders: { 'X-Forwarded-User': user, 'X-Forwarded-Groups': groups },
          viewport: { width: 1280, height: 900 },
          ...options,
        });
        contexts.push(context);
        return context;
      },
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
