import type { AgentRuntimeStatus, Condition } from '@paddock/kube';
import {
  CONDITION_AVAILABLE,
  CONDITION_PAUSED,
  CONDITION_RUNS_BLOCKED,
  CONDITION_REPLICAS_LIMITED,
} from '../../agentruntime/index.js';
import type { EventType } from '../../runtime/events.js';

export interface AgentEvent {
  type: EventType;
  reason: string;
  message: string;
}

const find = (conditions: readonly Condition[] | undefined, type: string) =>
  conditions?.find((c) => c.type === type);

/**
 * The Events a status change is worth, once per transition: `Paused` and `Resumed` when the pause
 * flips, `ReplicasLimited` when the workspace's cap starts to apply, `Failed` when the agent fails.
 */
export function statusEvents(
  before: AgentRuntimeStatus | undefined,
  after: Pick<AgentRuntimeStatus, 'phase' | 'conditions'>,
): AgentEvent[] {
  const events: AgentEvent[] = [];
  const wasPaused = find(before?.conditions, CONDITION_PAUSED)?.status === 'True';
  const paused = find(after.conditions, CONDITION_PAUSED);
  if (paused?.status === 'True' && !wasPaused) {
    events.push({ type: 'Normal', reason: 'Paused', message: paused.message ?? 'Paused.' });
  } else if (paused?.status === 'False' && wasPaused) {
    events.push({
      type: 'Normal',
      reason: 'Resumed',
      message: paused.message ?? 'Resumed.',
    });
  }
  const wasBlocked = find(before?.conditions, CONDITION_RUNS_BLOCKED)?.status === 'True';
  const blocked = find(after.conditions, CONDITION_RUNS_BLOCKED);
  if (blocked?.status === 'True' && !wasBlocked) {
    events.push({
      type: 'Warning',
      reason: 'RunsBlocked',
      message: blocked.message ?? 'Runs blocked.',
    });
  } else if (blocked?.status === 'False' && wasBlocked) {
    events.push({
      type: 'Normal',
      reason: 'RunsUnblocked',
      message: blocked.message ?? 'Runs unblocked.',
    });
  }
  const wasLimited = find(before?.conditions, CONDITION_REPLICAS_LIMITED)?.status === 'True';
  const limited = find(after.conditions, CONDITION_REPLICAS_LIMITED);
  if (limited?.status === 'True' && !wasLimited) {
    events.push({
      type: 'Warning',
      reason: 'ReplicasLimited',
      message: limited.message ?? 'Replicas limited by the workspace.',
    });
  }
  if (after.phase === 'Failed' && before?.phase !== 'Failed') {
    const available = find(after.conditions, CONDITION_AVAILABLE);
    events.push({
      type: 'Warning',
      reason: 'Failed',
      message: available?.message ?? 'The agent failed.',
    });
  }
  return events;
}
