import { LABEL_AGENT, type KubeObject, type ObjectIdentity } from '@paddock/kube';
import type { ObservedPod } from '../../agentruntime/index.js';

/**
 * What the AgentRuntime controller's informers keep of each object: enough to map a change to the
 * agents it concerns and, for pods, to compute the agents' status. The rest is read when needed.
 * (What it keeps of Workspaces is agentruntime/workspace-for-agents.ts, of PromptPacks their
 * identity and version.)
 */

/** An AgentRuntime's identity, generation and annotations, and the PromptPack it follows. */
export interface LeanAgent extends KubeObject {
  metadata: {
    name: string;
    namespace: string;
    resourceVersion?: string;
    generation?: number;
    annotations?: Record<string, string>;
  };
  spec: { promptPackRef?: { name: string } };
}

export function leanAgent(object: KubeObject): LeanAgent {
  const {
    name = '',
    namespace = '',
    resourceVersion,
    generation,
    annotations,
  } = object.metadata ?? {};
  const spec = (object as { spec?: { promptPackRef?: { name?: unknown } } }).spec;
  const pack = spec?.promptPackRef?.name;
  return {
    metadata: {
      name,
      namespace,
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(generation === undefined ? {} : { generation }),
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: typeof pack === 'string' ? { promptPackRef: { name: pack } } : {},
  };
}

/** A pod's identity and labels, and the container states the agent's phase is computed from. */
export interface LeanPod extends KubeObject, ObservedPod {
  metadata: {
    name: string;
    namespace?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
  };
}

type RawPod = Pick<ObservedPod, 'status'>;

export function leanPod(object: KubeObject): LeanPod {
  const { name = '', namespace, resourceVersion, labels } = object.metadata ?? {};
  const status = (object as RawPod).status;
  const containerStatuses = status?.containerStatuses?.map((c) => ({
    name: c.name,
    ...(c.ready === undefined ? {} : { ready: c.ready }),
    ...(c.restartCount === undefined ? {} : { restartCount: c.restartCount }),
    ...(c.state === undefined
      ? {}
      : {
          state: {
            ...(c.state.waiting === undefined ? {} : { waiting: c.state.waiting }),
            ...(c.state.terminated === undefined ? {} : { terminated: c.state.terminated }),
          },
        }),
  }));
  return {
    metadata: {
      name,
      ...(namespace === undefined ? {} : { namespace }),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(labels === undefined ? {} : { labels }),
    },
    ...(status === undefined
      ? {}
      : {
          status: {
            ...(status.phase === undefined ? {} : { phase: status.phase }),
            ...(containerStatuses === undefined ? {} : { containerStatuses }),
          },
        }),
  };
}

/** An agent's StatefulSet or NetworkPolicy, as its identity and the agent it belongs to. */
export interface LeanAgentObject extends KubeObject {
  metadata: ObjectIdentity & { labels?: Record<string, string> };
}

export function leanAgentObject(object: KubeObject): LeanAgentObject {
  const { name = '', namespace, resourceVersion, labels } = object.metadata ?? {};
  const agent = labels?.[LABEL_AGENT];
  return {
    metadata: {
      name,
      ...(namespace === undefined ? {} : { namespace }),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(agent === undefined ? {} : { labels: { [LABEL_AGENT]: agent } }),
    },
  };
}
