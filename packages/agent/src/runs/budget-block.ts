// The budget's verdict on runs, as the operator writes it on the AgentRuntime: while its Workspace
// is over budget under `block`, the RunsBlocked condition is True and says why. Pure.
import type { AgentRuntime } from '@paddock/kube';

/** The AgentRuntime condition the Workspace's budget sets (the operator's CONDITION_RUNS_BLOCKED). */
export const RUNS_BLOCKED = 'RunsBlocked';

/** Why runs are refused now, or undefined when they are not. */
export function blockedReason(agent: Pick<AgentRuntime, 'status'> | undefined): string | undefined {
  const condition = agent?.status?.conditions?.find((c) => c.type === RUNS_BLOCKED);
  if (condition?.status !== 'True') return undefined;
  const message = condition.message?.trim();
  return message === undefined || message === '' ? 'Budget exceeded.' : message;
}
