import type { AgentRuntime, AgentRuntimeStatus, Condition } from '@paddock/kube';
import { setCondition, type ConditionUpdate } from '../runtime/conditions.js';
import { agentNameProblem, agentSelector } from './agent-labels.js';
import { SANDBOX_CONTAINER } from './desired-statefulset.js';
import type { EffectiveReplicas } from './effective-replicas.js';
import type { ObservedPod, ObservedStatefulSet } from './workload-objects.js';

export const CONDITION_AVAILABLE = 'Available';
export const CONDITION_PROGRESSING = 'Progressing';

/**
 * Waiting reasons of the sandbox container that make the agent Failed: it crashes in a loop, its
 * image cannot be pulled, or its configuration (a Secret, a ConfigMap) cannot be read. They last
 * until someone changes something, unlike ContainerCreating.
 */
export const FAILED_WAITING_REASONS: readonly string[] = [
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'InvalidImageName',
  'CreateContainerConfigError',
];

export type AgentPhase = NonNullable<AgentRuntimeStatus['phase']>;

/** What the AgentRuntime controller writes to status; costUsage stays the agent's own. */
export type ComputedAgentStatus = Required<
  Pick<
    AgentRuntimeStatus,
    'phase' | 'replicas' | 'readyReplicas' | 'selector' | 'observedGeneration' | 'conditions'
  >
>;

export interface AgentStatusInputs {
  agent: AgentRuntime;
  /** Undefined until the StatefulSet exists. */
  statefulSet: ObservedStatefulSet | undefined;
  /** The pods the StatefulSet selects. */
  pods: readonly ObservedPod[];
  effective: EffectiveReplicas;
  now: Date;
}

/** The first pod (by name) whose sandbox container waits for a reason that fails the agent. */
export function failingPod(
  pods: readonly ObservedPod[],
): { pod: string; reason: string; message: string } | undefined {
  const sorted = [...pods].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1));
  for (const pod of sorted) {
    const container = pod.status?.containerStatuses?.find((c) => c.name === SANDBOX_CONTAINER);
    const waiting = container?.state?.waiting;
    if (waiting?.reason !== undefined && FAILED_WAITING_REASONS.includes(waiting.reason)) {
      const detail =
        waiting.message === undefined || waiting.message === '' ? '' : `: ${waiting.message}`;
      const restarts = container?.restartCount ?? 0;
      const after = restarts > 0 ? ` after ${restarts} restart${restarts === 1 ? '' : 's'}` : '';
      return {
        pod: pod.metadata.name,
        reason: waiting.reason,
        message: `Pod ${pod.metadata.name} is in ${waiting.reason}${after}${detail}`,
      };
    }
  }
  return undefined;
}

/** Whether the StatefulSet has caught up with its spec: observed, updated, at the wanted count. */
function rolloutState(
  statefulSet: ObservedStatefulSet | undefined,
  wanted: number,
): { done: boolean; reason: string; message: string } {
  if (statefulSet === undefined) {
    return { done: false, reason: 'Creating', message: 'The StatefulSet does not exist yet.' };
  }
  const status = statefulSet.status ?? {};
  const generation = statefulSet.metadata.generation;
  if (generation !== undefined && (status.observedGeneration ?? 0) < generation) {
    return {
      done: false,
      reason: 'RollingOut',
      message: 'The StatefulSet controller has not seen the latest change yet.',
    };
  }
  const replicas = status.replicas ?? 0;
  const updated = status.updatedReplicas ?? 0;
  const revisionsDiffer =
    status.updateRevision !== undefined && status.currentRevision !== status.updateRevision;
  if (replicas !== wanted || updated < wanted || revisionsDiffer) {
    return {
      done: false,
      reason: 'RollingOut',
      message: `${updated} of ${wanted} replicas updated, ${replicas} exist.`,
    };
  }
  return { done: true, reason: 'Complete', message: `All ${wanted} replicas are up to date.` };
}

/**
 * The agent's status from its StatefulSet and pods. Phase: Failed when the name cannot make a
 * StatefulSet or a pod is in one of FAILED_WAITING_REASONS; Pending while paused or until every
 * wanted replica is ready; Running then (also with spec.replicas 0: nothing is wanted).
 * Conditions keep their transition times while their status stays.
 */
export function agentStatus(inputs: AgentStatusInputs): ComputedAgentStatus {
  const { agent, statefulSet, pods, effective, now } = inputs;
  const generation = agent.metadata.generation ?? 0;
  const wanted = effective.replicas;
  const replicas = statefulSet?.status?.replicas ?? 0;
  const readyReplicas = statefulSet?.status?.readyReplicas ?? 0;
  const paused = effective.conditions[1].status === 'True';
  const invalidName = agentNameProblem(agent.metadata.name);
  const failing = invalidName === undefined ? failingPod(pods) : undefined;
  const rollout = rolloutState(statefulSet, wanted);

  let phase: AgentPhase;
  let available: Omit<ConditionUpdate, 'type'>;
  if (invalidName !== undefined) {
    phase = 'Failed';
    available = { status: 'False', reason: 'InvalidName', message: invalidName };
  } else if (failing !== undefined) {
    phase = 'Failed';
    available = { status: 'False', reason: failing.reason, message: failing.message };
  } else if (readyReplicas >= wanted && statefulSet !== undefined) {
    phase = paused ? 'Pending' : 'Running';
    available = {
      status: 'True',
      reason: 'ReplicasReady',
      message: `${readyReplicas} of ${wanted} replicas ready.`,
    };
  } else {
    phase = 'Pending';
    available = {
      status: 'False',
      reason: 'ReplicasNotReady',
      message: `${readyReplicas} of ${wanted} replicas ready.`,
    };
  }
  const stamp = { observedGeneration: generation };
  const updates: ConditionUpdate[] = [
    { type: CONDITION_AVAILABLE, ...available, ...stamp },
    {
      type: CONDITION_PROGRESSING,
      status: rollout.done || invalidName !== undefined ? 'False' : 'True',
      reason: invalidName === undefined ? rollout.reason : 'InvalidName',
      message: invalidName ?? rollout.message,
      ...stamp,
    },
    ...effective.conditions,
  ];
  let conditions: Condition[] = agent.status?.conditions ?? [];
  for (const update of updates) conditions = setCondition(conditions, update, now);
  return {
    phase,
    replicas,
    readyReplicas,
    selector: agentSelector(agent),
    observedGeneration: generation,
    conditions,
  };
}
