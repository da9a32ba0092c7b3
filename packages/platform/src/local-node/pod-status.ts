import { constants } from 'node:os';
import { HOST_IP } from './pod-addresses.js';
import type { ContainerState, PodCondition, PodPhase, PodStatus } from './pod.js';

/** A pod's status from what its containers' processes are doing, as a kubelet reports it. Pure. */

/** Waiting reasons, as the kubelet names them. */
export const CONTAINER_CREATING = 'ContainerCreating';
export const CRASH_LOOP_BACK_OFF = 'CrashLoopBackOff';
export const ERR_IMAGE_NEVER_PULL = 'ErrImageNeverPull';
export const CREATE_CONTAINER_CONFIG_ERROR = 'CreateContainerConfigError';
export const CREATE_CONTAINER_ERROR = 'CreateContainerError';

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

/** What this machine knows of one container of a pod. */
export interface ContainerRunState {
  container: ContainerState;
  /** The previous run's termination, once there was one. */
  lastState: ContainerState;
  restartCount: number;
  /** What the readiness probe says (without one: running is ready). */
  ready: boolean;
}

/** What this machine knows of the pod itself. */
export interface PodRunState {
  /** When this machine first took the pod (status.startTime). */
  startTime: string;
  /** The pod's own address, once it has one. */
  ip?: string;
}

/** Whether a container that exited with the code starts again. Pure. */
export function restarts(policy: RestartPolicy, exitCode: number): boolean {
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

/**
 * The kubelet's phase (getPhase): Pending while any container waits to run for the first time;
 * Running while one runs; once none runs, Running still under Always (they restart), Succeeded
 * when every one exited 0, Failed under Never, else Running (OnFailure restarts the failed).
 */
export function phaseOf(states: readonly ContainerRunState[], policy: RestartPolicy): PodPhase {
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  let waiting = 0;
  for (const state of states) {
    const { running: isRunning, terminated } = state.container;
    if (isRunning) running++;
    else if (terminated) {
      stopped++;
      if (terminated.exitCode === 0) succeeded++;
    } else if (state.lastState.terminated) stopped++;
    else waiting++;
  }
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped === 0) return 'Pending';
  if (policy === 'Always') return 'Running';
  if (stopped === succeeded) return 'Succeeded';
  return policy === 'Never' ? 'Failed' : 'Running';
}

/**
 * The pod's status, its containers' in the spec's order. A condition keeps its
 * lastTransitionTime from `previous` while its status does not change, so that an unchanged pod
 * writes nothing new.
 */
export function podStatus(
  containers: readonly { name: string; image: string }[],
  policy: RestartPolicy,
  pod: PodRunState,
  states: readonly ContainerRunState[],
  previous: PodStatus | undefined,
  now: string,
): PodStatus {
  const readyOf = (state: ContainerRunState | undefined) =>
    state?.container.running !== undefined && state.ready;
  const unready = containers.filter((_, i) => !readyOf(states[i])).map((c) => c.name);
  const ready = unready.length === 0;
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
            message: `containers with unready status: [${unready.join(' ')}]`,
          }),
    };
  };
  return {
    phase: phaseOf(states, policy),
    conditions: [
      condition('PodScheduled', true),
      condition('Initialized', true),
      condition('ContainersReady', ready),
      condition('Ready', ready),
    ],
    hostIP: HOST_IP,
    hostIPs: [{ ip: HOST_IP }],
    ...(pod.ip === undefined ? {} : { podIP: pod.ip, podIPs: [{ ip: pod.ip }] }),
    startTime: pod.startTime,
    containerStatuses: containers.map((container, i) => {
      const state = states[i] ?? {
        container: { waiting: { reason: CONTAINER_CREATING } },
        lastState: {},
        restartCount: 0,
        ready: false,
      };
      return {
        name: container.name,
        image: container.image,
        ready: readyOf(state),
        started: state.container.running !== undefined,
        restartCount: state.restartCount,
        state: state.container,
        lastState: state.lastState,
      };
    }),
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
