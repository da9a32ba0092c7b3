/**
 * When a container's process exits, how long to wait before starting it again: the kubelet's
 * crash-loop back-off for restartPolicy Always. The first restart is immediate; each further crash
 * doubles the wait up to the maximum, and a run that lasted long enough starts the count again.
 * Pure.
 */

export interface BackOffPolicy {
  initialMs: number;
  maxMs: number;
  /** A run at least this long was healthy: the next crash counts as the first. */
  resetAfterMs: number;
}

/** The kubelet's own figures. */
export const KUBELET_BACK_OFF: BackOffPolicy = {
  initialMs: 10_000,
  maxMs: 300_000,
  resetAfterMs: 600_000,
};

/** Consecutive crashes once a process that ran for `ranForMs` has exited. */
export function crashesAfterExit(
  previous: number,
  ranForMs: number,
  policy: BackOffPolicy,
): number {
  return ranForMs >= policy.resetAfterMs ? 1 : previous + 1;
}

/** The wait before the next start after `crashes` consecutive crashes; 0 restarts at once. */
export function restartDelay(crashes: number, policy: BackOffPolicy): number {
  if (crashes <= 1) return 0;
  return Math.min(policy.maxMs, policy.initialMs * 2 ** (crashes - 2));
}
