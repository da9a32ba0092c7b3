/** When a component that was meant to keep running exits, how long to wait before starting it again. */
export const RESTART_WINDOW_MS = 60_000;
export const MAX_CRASHES_IN_WINDOW = 5;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * Exponential back-off over the crashes of the last minute; after five of them the component is
 * considered broken and the supervisor gives up (and stops the platform) instead of looping.
 */
export function nextRestart(crashTimes: readonly number[], now: number): number | 'give-up' {
  const recent = crashTimes.filter((t) => now - t < RESTART_WINDOW_MS).length;
  if (recent >= MAX_CRASHES_IN_WINDOW) return 'give-up';
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, recent - 1));
}
