import { join } from 'node:path';
import {
  API_VERSION,
  CORE_KINDS,
  KINDS,
  LABEL_AGENT,
  type AgentRuntime,
  type EndpointPod,
  type Kube,
  type KubeObject,
  type Workspace,
  type WorkspaceSpec,
} from '@paddock/kube';
import { startControlPlane } from './control-plane.js';
import type { RunningDashboard } from './dashboard.js';
import type { EmbeddedCluster } from './embedded-cluster.js';
import { claimPodAddressRange } from './pod-address-ranges.js';
import { start, type Started } from './processes.js';
import { tempDir } from './temp.js';
import { eventually } from './waiting.js';

const PADDOCK_BIN = join(import.meta.dirname, '..', '..', 'platform', 'bin', 'paddock.js');
const kind = (name: string) => KINDS.find((k) => k.kind === name)!;

/** The pod fields the fixture reads. */
export interface PlatformPod extends KubeObject, EndpointPod {
  metadata: KubeObject['metadata'] & { name: string };
  status?: { podIP?: string; conditions?: { type: string; status: string }[] };
}

interface StatefulSet extends KubeObject {
  metadata: KubeObject['metadata'] & { name: string };
  status?: {
    observedGeneration?: number;
    currentRevision?: string;
    updateRevision?: string;
    updatedReplicas?: number;
    readyReplicas?: number;
  };
}
const STATEFUL_SET = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
};

const isReady = (pod: PlatformPod) =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

export interface AgentPlatform {
  cluster: EmbeddedCluster;
  kube: Kube;
  operator: Started;
  /** `paddock node`: runs the agents' pods as processes on this machine. */
  node: Started;
  dashboard: RunningDashboard;
  /** A Workspace, Ready; its namespace is `ns-<name>`. */
  workspace(
    name: string,
    spec?: Omit<WorkspaceSpec, 'namespace' | 'displayName'>,
  ): Promise<Workspace>;
  /**
   * An AgentRuntime in the workspace's namespace (with a PromptPack `prompts`), waited for until
   * `replicas` pods are Ready; returns their names.
   */
  agent(
    workspace: string,
    name: string,
    spec?: Partial<AgentRuntime['spec']>,
    replicas?: number,
  ): Promise<string[]>;
  /** The agent's pods, once `count` of them are Ready (after a restart, say). */
  readyPods(workspace: string, agent: string, count: number): Promise<PlatformPod[]>;
  /** The folder on this machine that is the pod's /workspace. */
  workspaceFolder(workspace: string, pod: string): string;
  stop(): Promise<void>;
}

export interface AgentPlatformOptions {
  /** SVC_* variables of the dashboard beyond the cluster's kubeconfig (e.g. its auth mode). */
  dashboardEnv?: Record<string, string>;
}

/**
 * The whole platform as tests use it for agents' workspaces: the embedded cluster, the compiled
 * operator, the local node running agent pods (real sandboxes) and the compiled dashboard.
 */
export async function startAgentPlatform(
  options: AgentPlatformOptions = {},
): Promise<AgentPlatform> {
  const plane = await startControlPlane(options);
  const { cluster, kube, operator, dashboard } = plane;
  try {
    const data = await tempDir('paddock-agent-platform-');
    plane.onStop(() => data.remove());
    const range = await claimPodAddressRange();
    plane.onStop(() => range.release());
    const node = start(
      process.execPath,
      [
        PADDOCK_BIN,
        'node',
        '--data',
        data.path,
        '--kubeconfig',
        cluster.kubeconfig,
        '--pod-addresses',
        range.option,
      ],
      { env: { PATH: process.env.PATH, SVC_LOG_FORMAT: 'json' } },
    );
    plane.onStop(() => node.stop());
    await node.waitForOutput(/running the node/, 30_000);

    const namespaceOf = (workspace: string) => `ns-${workspace}`;
    const podsOf = async (workspace: string, agent: string) =>
      (
        await kube
          .resource<PlatformPod>(CORE_KINDS.pod)
          .list({ namespace: namespaceOf(workspace), labelSelector: `${LABEL_AGENT}=${agent}` })
      ).items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
    const readyPods = (workspace: string, agent: string, count: number) =>
      eventually(
        `${count} ready pods of ${agent}`,
        async () => {
          const pods = await podsOf(workspace, agent);
          const ready = pods.filter(isReady);
          if (ready.length !== count || pods.length !== count) return undefined;
          // Settled: the StatefulSet has seen its last change and every pod is of its revision.
          const set = await kube
            .resource<StatefulSet>(STATEFUL_SET)
            .get(agent, namespaceOf(workspace));
          const { status } = set;
          const settled =
            status?.observedGeneration === set.metadata.generation &&
            status?.currentRevision === status?.updateRevision &&
            status?.updatedReplicas === count &&
            status?.readyReplicas === count;
          return settled ? ready : undefined;
        },
        60_000,
        100,
      );

    return {
      cluster,
      kube,
      operator,
      node,
      dashboard,
      stop: () => plane.stop(),
      readyPods,
      workspaceFolder: (workspace, pod) =>
        join(data.path, 'volumes', namespaceOf(workspace), `workspace-${pod}`),
      workspace: (name, spec) => plane.workspace(name, spec),
      async agent(workspace, name, spec = {}, replicas = 1) {
        const namespace = namespaceOf(workspace);
        const packs = kube.resource<KubeObject>(kind('PromptPack'));
        await packs
          .create({
            apiVersion: API_VERSION,
            kind: 'PromptPack',
            metadata: { name: 'prompts', namespace },
            spec: { systemPrompt: 'Be brief.' },
          } as KubeObject)
          .catch((err: unknown) => {
            if (!/exists/i.test(String(err))) throw err;
          });
        await kube.resource<AgentRuntime>(kind('AgentRuntime')).create({
          apiVersion: API_VERSION,
          kind: 'AgentRuntime',
          metadata: { name, namespace },
          spec: { promptPackRef: { name: 'prompts' }, model: 'test-model', replicas, ...spec },
        });
        const pods = await readyPods(workspace, name, replicas);
        return pods.map((p) => p.metadata.name);
      },
    };
  } catch (err) {
    await plane.stop();
    throw err;
  }
}
