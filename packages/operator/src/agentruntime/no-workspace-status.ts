import type { AgentRuntime, Condition } from '@paddock/kube';
import { setCondition } from '../runtime/conditions.js';
import { agentSelector } from './agent-labels.js';
import {
  CONDITION_AVAILABLE,
  CONDITION_PROGRESSING,
  type ComputedAgentStatus,
} from './agent-status.js';

/** Available's and Progressing's reason while no Workspace has the agent's namespace. */
export const REASON_NO_WORKSPACE = 'NoWorkspace';

/**
 * The status of an agent whose namespace belongs to no Workspace: Pending, nothing made, and
 * conditions that say what is missing. It runs once a Workspace names its namespace.
 */
export function noWorkspaceStatus(agent: AgentRuntime, now: Date): ComputedAgentStatus {
  const generation = agent.metadata.generation ?? 0;
  const namespace = agent.metadata.namespace ?? '';
  const message = `No Workspace has the namespace ${namespace}: an agent runs in a workspace's namespace, with its limits and budget.`;
  let conditions: Condition[] = agent.status?.conditions ?? [];
  for (const type of [CONDITION_AVAILABLE, CONDITION_PROGRESSING]) {
    conditions = setCondition(
      conditions,
      {
        type,
        status: 'False',
        reason: REASON_NO_WORKSPACE,
        message,
        observedGeneration: generation,
      },
      now,
    );
  }
  return {
    phase: 'Pending',
    replicas: 0,
    readyReplicas: 0,
    selector: agentSelector(agent),
    observedGeneration: generation,
    conditions,
  };
}
