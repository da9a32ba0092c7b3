import type { AgentRuntime } from '@paddock/kube';

/**
 * What the Workspace controller does to the AgentRuntimes of its namespace: pause them while a
 * budget is exceeded (pauseJobs, block), and flag those asking more replicas than the workspace allows.
 */

/** The replica count an AgentRuntime had before cost controls paused it. */
export const ANNOTATION_PAUSED_REPLICAS = 'paddock.dev/paused-replicas';

/** The condition on an AgentRuntime whose spec.replicas is over quotas.agents.maxReplicasPerAgent. */
export const CONDITION_REPLICAS_LIMITED = 'ReplicasLimited';

/**
 * The AgentRuntime as it must be for `pause`, or undefined when it already is: paused, replicas 0
 * with the previous count remembered; resumed, that count restored and the annotation removed.
 */
export function pausedAgent(agent: AgentRuntime, pause: boolean): AgentRuntime | undefined {
  const annotations = agent.metadata.annotations ?? {};
  const remembered = annotations[ANNOTATION_PAUSED_REPLICAS];
  if (pause) {
    if (remembered !== undefined) {
      return agent.spec.replicas === 0
        ? undefined
        : { ...agent, spec: { ...agent.spec, replicas: 0 } };
    }
    const replicas = agent.spec.replicas ?? 1;
    return {
      ...agent,
      metadata: {
        ...agent.metadata,
        annotations: { ...annotations, [ANNOTATION_PAUSED_REPLICAS]: String(replicas) },
      },
      spec: { ...agent.spec, replicas: 0 },
    };
  }
  if (remembered === undefined) return undefined;
  const rest = Object.fromEntries(
    Object.entries(annotations).filter(([key]) => key !== ANNOTATION_PAUSED_REPLICAS),
  );
  const parsed = Number(remembered);
  const replicas = Number.isInteger(parsed) && parsed >= 0 ? parsed : 1;
  // Someone scaled it up while paused: their count wins over the remembered one.
  const restored = (agent.spec.replicas ?? 0) > 0 ? agent.spec.replicas : replicas;
  return {
    ...agent,
    metadata: { ...agent.metadata, annotations: rest },
    spec: { ...agent.spec, ...(restored !== undefined && { replicas: restored }) },
  };
}

/** The ReplicasLimited verdict for an AgentRuntime, or undefined when there is nothing to say. */
export function replicasVerdict(
  agent: AgentRuntime,
  limit: number | undefined,
): { status: 'True' | 'False'; reason: string; message: string } | undefined {
  const replicas = agent.spec.replicas ?? 1;
  const wasLimited = agent.status?.conditions?.some(
    (c) => c.type === CONDITION_REPLICAS_LIMITED && c.status === 'True',
  );
  if (limit !== undefined && replicas > limit) {
    return {
      status: 'True',
      reason: 'OverWorkspaceLimit',
      message: `Asks ${replicas} replicas; the workspace allows at most ${limit} per agent (limit ${limit}).`,
    };
  }
  if (wasLimited === true) {
    return {
      status: 'False',
      reason: 'WithinWorkspaceLimit',
      message:
        limit === undefined
          ? 'The workspace sets no replica limit.'
          : `Asks ${replicas} replicas, within the limit of ${limit}.`,
    };
  }
  return undefined;
}
