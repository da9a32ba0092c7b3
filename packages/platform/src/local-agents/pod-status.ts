import { constants } from 'node:os';
import type { ContainerState, PodCondition, PodPhase, PodStatus } from './pod.js';
import { AGENT_CONTAINER } from './replicas.js';

/** A replica's pod status from what its process is doing, as a kubelet reports it. Pure. */

/** Waiting reasons, as the kubelet names them. */
export const CONTAINER_CREATING = 'ContainerCreating';
export const CRASH_LOOP_BACK_OFF = 'CrashLoopBackOff';
export const ERR_IMAGE_NEVER_PULL = 'ErrImageNeverPull';

/** What this machine knows of a replica's one container. */
export interface ReplicaState {
  /** When this machine first took the pod (status.startTime). */
  startTime: string;
  container: ContainerState;
  /** The previous run's termination, once there was one. */
  lastState: ContainerState;
  restartCount: number;
  /** Set once the process first served: the pod keeps its address from then on. */
  ip?: string;
}

/**
 * Running while the process serves; Succeeded or Failed, by its exit code, from its exit until it
 * runs again (a crashed replica shows at once, back-off included); Pending before it first serves
 * and while it cannot run.
 */
export function phaseOf(state: ReplicaState): PodPhase {
  const { running, terminated, waiting } = state.container;
  if (running) return 'Running';
  const exited =
    terminated ??
    (waiting?.reason === CRASH_LOOP_BACK_OFF ? state.lastState.terminated : undefined);
  if (exited) return exited.exitCode === 0 ? 'Succeeded' : 'Failed';
  return 'Pending';
}

/**
 * The pod's status. A condition keeps its lastTransitionTime from `previous` while its status does
 * not change, so that an unchanged replica writes nothing new.
 */
export function podStatus(
  image: string,
  state: ReplicaState,
  previous: PodStatus | undefined,
  now: string,
): PodStatus {
  const ready = state.container.running !== undefined;
  const condition = (type: string, holds: boolean): PodCondition => {
    const old = previous?.conditions?.find((c) => c.type === type);
    const status = holds ? 'True' : 'False';
    return {
      type,
      status,
      lastTransitionTime:
        old?.status === status && old.lastTransitionTime !== undefined
          ? old.lastTransitionTime
          : now,
      ...(holds
        ? {}
        : {
            reason: 'ContainersNotReady',
            message: `containers with unready status: [${AGENT_CONTAINER}]`,
          }),
    };
  };
  return {
    phase: phaseOf(state),
    conditions: [
      condition('PodScheduled', true),
      condition('Initialized', true),
      condition('ContainersReady', ready),
      condition('Ready', ready),
    ],
    ...(state.ip === undefined
      ? {}
      : { hostIP: state.ip, podIP: state.ip, podIPs: [{ ip: state.ip }] }),
    startTime: state.startTime,
    containerStatuses: [
      {
        name: AGENT_CONTAINER,
        image,
        ready,
        started: ready,
        restartCount: state.restartCount,
        state: state.container,
        lastState: state.lastState,
      },
    ],
  };
}

/**
 * How a process's exit reads in a container status: killed by a signal is 128 + its number, as
 * a container runtime reports it.
 */
export function terminatedState(
  exit: { code: number | null; signal: NodeJS.Signals | null },
  startedAt: string,
  finishedAt: string,
): ContainerState {
  const signal = exit.signal === null ? undefined : constants.signals[exit.signal];
  const exitCode = exit.code ?? (signal === undefined ? 1 : 128 + signal);
  return {
    terminated: {
      exitCode,
      ...(signal === undefined ? {} : { signal }),
      reason: exitCode === 0 ? 'Completed' : 'Error',
      startedAt,
      finishedAt,
    },
  };
}
