/**
 * The one grace budget of the sandbox's shutdown, as seen by the code that kills processes. Until
 * the process begins to stop, a kill gives its victims their usual grace between the polite signal
 * and SIGKILL; once it stops, no grace reaches past the moment the shutdown must have forced
 * everything, so that all the stop steps together fit in one budget instead of each taking its own.
 */

let deadline: number | undefined;

/** Records the shutdown's forcing moment (a `Date.now()` time); an earlier one wins. */
export function beginStop(forceAt: number): void {
  deadline = deadline === undefined ? forceAt : Math.min(deadline, forceAt);
}

/**
 * When a kill that starts at `now` with `graceMs` of grace escalates to SIGKILL: after the grace,
 * but never after the shutdown's forcing moment when there is one.
 */
export function escalationTime(now: number, graceMs: number, stopAt: number | undefined): number {
  const afterGrace = now + graceMs;
  return stopAt === undefined ? afterGrace : Math.min(afterGrace, stopAt);
}

/** The shutdown's forcing moment, or undefined while the process is not stopping. */
export function stopDeadline(): number | undefined {
  return deadline;
}
