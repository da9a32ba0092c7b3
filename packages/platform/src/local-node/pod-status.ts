import { constants } from 'node:os';
import { HOST_IP } from './pod-addresses.js';
import type { ContainerState, PodCondition, PodPhase, PodStatus } from './pod.js';

/** A pod's status from what its one container's process is doing, as a kubelet reports it. Pure. */

/** Waiting reasons, as the kubelet names them. */
export const CONTAINER_CREATING = 'ContainerCreating';
export const CRASH_LOOP_BACK_OFF = 'CrashLoopBackOff';
export const ERR_IMAGE_NEVER_PULL = 'ErrImageNeverPull';
export const CREATE_CONTAINER_CONFIG_ERROR = 'CreateContainerConfigError';

export type RestartPolicy = 'Always' | 'OnFailure' | 'Never';

/** What this machine knows of a pod's one container. */
export interface ContainerRunState {
  /** When this machine first took the pod (status.startTime). */
  startTime: string;
  container: ContainerState;
  /** The previous run's termination, once there was one. */
  lastState: ContainerState;
  restartCount: number;
  /** What the readiness probe says (without one: running is ready). */
  ready: boolean;
  /** The pod's own address, once it has one. */
  ip?: string;
}

/** Whether a container that exited with the code starts again. Pure. */
export function restarts(policy: RestartPolicy, exitCode: number): boolean {
  return policy === 'Always' || (policy === 'OnFailure' && exitCode !== 0);
}

/**
 * The kubelet's phase for a pod of one container: Pending until the container first runs; then
 * Running while it runs or is being restarted (its back-off included); Succeeded or Failed, by its
 * exit code, once it exited for good under its restart policy.
 */
export function phaseOf(state: ContainerRunState, policy: RestartPolicy): PodPhase {
  const { running, terminated } = state.container;
  if (running) return 'Running';
  const exited = terminated ?? state.lastState.terminated;
  if (terminated && !restarts(policy, terminated.exitCode)) {
    return terminated.exitCode === 0 ? 'Succeeded' : 'Failed';
  }
  return exited ? 'Running' : 'Pending';
}

/**
 * The pod's status. A condition keeps its lastTransitionTime from `previous` while its status does
 * not change, so that an unchanged pod writes nothing new.
 */
export function podStatus(
  container: { name: string; image: string },
  policy: RestartPolicy,
  state: ContainerRunState,
  previous: PodStatus | undefined,
  now: string,
): PodStatus {
  const running = state.container.running !== undefined;
  const ready = running && state.ready;
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
            message: `containers with unready status: [${container.name}]`,
          }),
    };
  };
  return {
    phase: phaseOf(state, policy),
    conditions: [
      condition('PodScheduled', true),
      condition('Initialized', true),
      condition('ContainersReady', ready),
      condition('Ready', ready),
    ],
    hostIP: HOST_IP,
    hostIPs: [{ ip: HOST_IP }],
    ...(state.ip === undefined ? {} : { podIP: state.ip, podIPs: [{ ip: state.ip }] }),
    startTime: state.startTime,
    containerStatuses: [
      {
        name: container.name,
        image: container.image,
        ready,
        started: running,
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
