/**
 * The time a node's renewals run by (projected tokens): the system's, or a test's that it moves
 * itself, so that an hour-long token's renewal needs no hour.
 */
export interface NodeClock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `fn` once after `ms`; returns the cancel function. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** Node's own timers; they keep no process alive. */
export const SYSTEM_CLOCK: NodeClock = {
  now: () => Date.now(),
  setTimer(ms, fn) {
    const timer = setTimeout(fn, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};
