import {
  agentPodAudience,
  AGENT_API_PORT_NAME,
  AGENT_MCP_PORT_NAME,
  AGENT_RUNS_PORT_NAME,
  type AgentRuntime,
  LABEL_AGENT,
  podEndpoint,
  type EndpointPod,
  type KubeObject,
  type NamedPod,
  type PodEndpoint,
} from '@paddock/kube';
import { ordinalOf } from './mcp-session-id.js';

/** The fields of a pod the door reads. */
export type DoorPod = KubeObject &
  EndpointPod &
  NamedPod & {
    metadata: KubeObject['metadata'] & { name: string };
    status?: EndpointPod['status'] & {
      phase?: string;
      conditions?: { type: string; status: string }[];
    };
  };

export type PodTarget =
  | { ok: true; endpoint: PodEndpoint; audience: string }
  | { ok: false; code: 'not_found' | 'unavailable'; message: string };

/** The ports of a pod the door leads to: the sandbox's human API and MCP, the agent's runs. */
export type DoorPort = 'api' | 'mcp' | 'runs';

const PORTS: Record<DoorPort, { name: string; what: string }> = {
  api: { name: AGENT_API_PORT_NAME, what: 'human API' },
  mcp: { name: AGENT_MCP_PORT_NAME, what: 'MCP' },
  runs: { name: AGENT_RUNS_PORT_NAME, what: 'runs API' },
};

/** The sentence for an agent whose runs are asked for while it names no model provider. */
export const NO_PROVIDER = 'this agent names no model provider: set spec.provider to run tasks';

/**
 * Whether the agent runs tasks at all: an agent that does not exist is not found, one that names
 * no provider has pods that serve the sandbox alone (a conflict with the request, not a pod that
 * failed to answer).
 */
export function runsAvailability(
  agent: Pick<AgentRuntime, 'spec'> | undefined,
  name: string,
): { ok: true } | { ok: false; code: 'not_found' | 'conflict'; message: string } {
  if (agent === undefined) {
    return { ok: false, code: 'not_found', message: `no agent "${name}" in this workspace` };
  }
  if (agent.spec.provider === undefined)
    return { ok: false, code: 'conflict', message: NO_PROVIDER };
  return { ok: true };
}

const isReady = (pod: DoorPod) =>
  pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;

/**
 * Whether a pod is one the agent's StatefulSet made: labelled with the agent, named
 * `<agent>-<ordinal>` and controlled by the StatefulSet of the agent's name. Labels and owner
 * references can be written by a workspace editor on a pod of their own; what makes a look-alike
 * harmless is that its proofs are addressed by name (agentPodAudience), which only the real pod
 * of that name accepts. These checks keep such pods out of the door's lists as well.
 */
export function isAgentPod(pod: DoorPod, agent: string): boolean {
  const owner = pod.metadata.ownerReferences?.find((o) => o.controller === true);
  return (
    pod.metadata.labels?.[LABEL_AGENT] === agent &&
    ordinalOf(agent, pod.metadata.name) !== undefined &&
    owner?.kind === 'StatefulSet' &&
    owner.name === agent
  );
}

/**
 * Where the door leads for a pod of an agent, or why it cannot: a pod that is not the agent's is
 * not found (as one of another workspace is); one that is not Ready, or has no address for the
 * port yet, is unavailable for now.
 */
export function podTarget(
  pod: DoorPod | undefined,
  agent: string,
  name: string,
  port: DoorPort,
): PodTarget {
  if (pod === undefined || !isAgentPod(pod, agent)) {
    return { ok: false, code: 'not_found', message: `agent "${agent}" has no pod "${name}"` };
  }
  if (pod.metadata.deletionTimestamp !== undefined) {
    return {
      ok: false,
      code: 'unavailable',
      message: `pod "${name}" is stopping; try again when its replacement is ready`,
    };
  }
  if (!isReady(pod)) {
    const phase = pod.status?.phase ?? 'Pending';
    return {
      ok: false,
      code: 'unavailable',
      message: `pod "${name}" is not ready yet (${phase}); try again in a moment`,
    };
  }
  const endpoint = podEndpoint(pod, PORTS[port].name);
  if (endpoint === undefined) {
    return {
      ok: false,
      code: 'unavailable',
      message:
        port === 'runs'
          ? `pod "${name}" has no runs API yet (it started before the agent named a provider); try again when it has been replaced`
          : `pod "${name}" has no ${PORTS[port].what} port with an address`,
    };
  }
  const namespace = pod.metadata.namespace ?? 'default';
  return { ok: true, endpoint, audience: agentPodAudience(pod.metadata.name, agent, namespace) };
}

/** The Ready pods of an agent, in ordinal order: where a new MCP session may go. */
export function readyPods(pods: readonly DoorPod[], agent: string): DoorPod[] {
  return pods
    .filter((p) => isAgentPod(p, agent) && p.metadata.deletionTimestamp === undefined && isReady(p))
    .sort(
      (a, b) => (ordinalOf(agent, a.metadata.name) ?? 0) - (ordinalOf(agent, b.metadata.name) ?? 0),
    );
}
