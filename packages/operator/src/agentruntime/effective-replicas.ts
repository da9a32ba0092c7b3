import type { AgentRuntime } from '@paddock/kube';
import type { ConditionUpdate } from '../runtime/conditions.js';
import { budgetActions } from '../workspace/cost.js';
import type { WorkspaceForAgents } from './workspace-for-agents.js';

/** The condition on an AgentRuntime asking more replicas than its workspace allows per agent. */
export const CONDITION_REPLICAS_LIMITED = 'ReplicasLimited';
/** The condition on an AgentRuntime whose workspace pauses its agents (a budget exceeded). */
export const CONDITION_PAUSED = 'Paused';
/**
 * The condition on an AgentRuntime whose workspace blocks its runs (a budget exceeded under
 * `block`): its agent loop reads it, refuses new runs and ends the current one.
 */
export const CONDITION_RUNS_BLOCKED = 'RunsBlocked';

/** What an agent's workloads take from its Workspace. */
export interface AgentWorkspace {
  /** The Workspace's name (for the `paddock.dev/workspace` label). */
  name: string;
  /** quotas.agents.maxReplicasPerAgent, when set. */
  maxReplicasPerAgent?: number;
  /** Set while the Workspace's budget action pauses its agents: why, for the Paused condition. */
  pause?: { reason: string; message: string };
  /** Set while the Workspace's budget action blocks runs: why, for the RunsBlocked condition. */
  block?: { reason: string; message: string };
}

/**
 * The facts an agent needs from its Workspace: the per-agent replica limit, and a pause while a
 * budget is exceeded (BudgetExceeded True) and the action is pauseJobs or block.
 */
export function agentWorkspace(workspace: WorkspaceForAgents): AgentWorkspace {
  const limit = workspace.spec.quotas?.agents?.maxReplicasPerAgent;
  const exceeded = workspace.status?.conditions?.find(
    (c) => c.type === 'BudgetExceeded' && c.status === 'True',
  );
  const action = workspace.spec.costControls?.budgetExceededAction;
  const acts = exceeded !== undefined && workspace.spec.costControls !== undefined;
  const why = exceeded?.message ?? 'a budget is exceeded';
  const pause =
    acts && budgetActions(action).pause
      ? {
          reason: 'BudgetExceeded',
          message: `Workspace ${workspace.metadata.name} pauses its agents (budgetExceededAction ${action}): ${why}`,
        }
      : undefined;
  const block =
    acts && budgetActions(action).block
      ? {
          reason: 'BudgetExceeded',
          message: `Budget exceeded: workspace ${workspace.metadata.name} blocks new runs (budgetExceededAction block). ${why}`,
        }
      : undefined;
  return {
    name: workspace.metadata.name,
    ...(limit === undefined ? {} : { maxReplicasPerAgent: limit }),
    ...(pause === undefined ? {} : { pause }),
    ...(block === undefined ? {} : { block }),
  };
}

export interface EffectiveReplicas {
  /** What the StatefulSet runs. spec.replicas itself is never rewritten, so resuming restores it. */
  replicas: number;
  /** ReplicasLimited, Paused and RunsBlocked, each True or False, every time. */
  conditions: [ConditionUpdate, ConditionUpdate, ConditionUpdate];
}

/** spec.replicas (default 1), capped by the workspace's per-agent limit, and 0 while paused. */
export function effectiveReplicas(
  agent: AgentRuntime,
  workspace: AgentWorkspace,
): EffectiveReplicas {
  const asked = agent.spec.replicas ?? 1;
  const limit = workspace.maxReplicasPerAgent;
  const generation = agent.metadata.generation;
  const stamp = generation === undefined ? {} : { observedGeneration: generation };
  const limited: ConditionUpdate =
    limit !== undefined && asked > limit
      ? {
          type: CONDITION_REPLICAS_LIMITED,
          status: 'True',
          reason: 'OverWorkspaceLimit',
          message: `Asks ${asked} replicas; workspace ${workspace.name} allows at most ${limit} per agent, so ${limit} run.`,
          ...stamp,
        }
      : {
          type: CONDITION_REPLICAS_LIMITED,
          status: 'False',
          reason: 'WithinWorkspaceLimit',
          message:
            limit === undefined
              ? `Workspace ${workspace.name} sets no replica limit.`
              : `Asks ${asked} replicas, within the limit of ${limit}.`,
          ...stamp,
        };
  const paused: ConditionUpdate =
    workspace.pause === undefined
      ? {
          type: CONDITION_PAUSED,
          status: 'False',
          reason: 'Running',
          message: `Workspace ${workspace.name} does not pause its agents.`,
          ...stamp,
        }
      : { type: CONDITION_PAUSED, status: 'True', ...workspace.pause, ...stamp };
  const blocked: ConditionUpdate =
    workspace.block === undefined
      ? {
          type: CONDITION_RUNS_BLOCKED,
          status: 'False',
          reason: 'WithinBudget',
          message: `Workspace ${workspace.name} does not block runs.`,
          ...stamp,
        }
      : { type: CONDITION_RUNS_BLOCKED, status: 'True', ...workspace.block, ...stamp };
  const capped = limit === undefined ? asked : Math.min(asked, limit);
  return {
    replicas: workspace.pause === undefined ? capped : 0,
    conditions: [limited, paused, blocked],
  };
}
