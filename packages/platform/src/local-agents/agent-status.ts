import type { AgentRuntime, AgentRuntimeStatus } from '@paddock/kube';
import type { Pod } from './pod.js';
import { CRASH_LOOP_BACK_OFF } from './pod-status.js';
import { ownedBy, wantedReplicas } from './replicas.js';

/** An AgentRuntime's status from its pods, as a ReplicaSet controller counts them. Pure. */

export function isReady(pod: Pod): boolean {
  return (
    pod.status?.phase === 'Running' &&
    pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true
  );
}

export function isCrashLooping(pod: Pod): boolean {
  return (
    pod.status?.containerStatuses?.some((s) => s.state.waiting?.reason === CRASH_LOOP_BACK_OFF) ??
    false
  );
}

/**
 * replicas counts the agent's pods that exist and are not terminating, readyReplicas those that
 * serve. Failed while one of them is in crash-loop back-off, Running once every wanted replica
 * serves (none wanted included), Pending otherwise. Fields other controllers own (conditions, cost
 * usage) are kept.
 */
export function agentStatus(agent: AgentRuntime, pods: readonly Pod[]): AgentRuntimeStatus {
  const live = pods.filter((p) => ownedBy(p, agent) && p.metadata.deletionTimestamp === undefined);
  const ready = live.filter(isReady).length;
  const wanted = wantedReplicas(agent);
  const phase = live.some(isCrashLooping)
    ? 'Failed'
    : live.length === wanted && ready === wanted
      ? 'Running'
      : 'Pending';
  return {
    ...agent.status,
    phase,
    replicas: live.length,
    readyReplicas: ready,
    ...(agent.metadata.generation === undefined
      ? {}
      : { observedGeneration: agent.metadata.generation }),
  };
}
