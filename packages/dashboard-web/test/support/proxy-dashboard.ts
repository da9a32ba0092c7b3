import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import {
  API_VERSION,
  KINDS,
  type AgentRuntime,
  type Kube,
  type WorkspaceSpec,
} from '@paddock/kube';
import {
  launchBrowser,
  startControlPlane,
  type ControlPlane,
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
 * What the browser tests of the workspace pages run against: the control plane (the embedded
 * cluster, the operator and the dashboard in proxy mode, `devs` its editors) and Chromium. The
 * cluster has no node: pods are made with agentPod().
 */
export async function startProxyDashboard(): Promise<ProxyDashboard> {
  const launching = launchBrowser();
  const contexts: BrowserContext[] = [];
  let plane: ControlPlane | undefined;
  const stop = async () => {
    await Promise.all(contexts.map((c) => c.close()));
    await plane?.stop();
    await launching.then(
      (browser) => browser.close(),
      () => undefined,
    );
  };
  try {
    plane = await startControlPlane();
    const { kube, dashboard } = plane;
    const browser = await launching;
    return {
      kube,
      dashboard,
      browser,
      stop,
      workspace: async (name, spec) => void (await plane!.workspace(name, spec)),
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
