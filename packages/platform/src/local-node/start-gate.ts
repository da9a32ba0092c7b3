/**
 * How many containers of this node may be starting at once. Pods here are processes of one
 * machine that the node overcommits (their CPU requests are not held against its cores), and a
 * Node.js container spends its first seconds of CPU loading its modules: fifty pods created
 * together on two cores started a hundred processes at once, none listened within its liveness
 * probe's window, each was killed and started again, and the node never settled. Starting a few
 * at a time, each until it is ready, lets every one start as fast as it would alone.
 */

/** Containers that may be starting at once per core of the machine. */
export const STARTS_PER_CORE = 2;
/**
 * How long one start may hold its place: a container never ready (a readiness probe failing for
 * good) lets the next ones start after this, as its own liveness probe would judge it by then.
 */
export const MAX_START_MS = 30_000;

/** The bound for a machine of `cores` cores: at least one start, STARTS_PER_CORE per core. Pure. */
export function startLimit(cores: number): number {
  return Math.max(1, Math.floor(cores) * STARTS_PER_CORE);
}

/** Ends one start: the next waiting one may go. Calling it again does nothing. */
export type LeaveStart = () => void;

/** A bound on containers starting at once, first come first served. */
export class StartGate {
  private starting = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly limit: number) {}

  /** How many starts wait for their turn. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves when this start may go, with the function that ends it. */
  async enter(): Promise<LeaveStart> {
    if (this.starting < this.limit) this.starting++;
    // A leaving start hands its place over, so the count stays as it is.
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const next = this.waiting.shift();
      if (next === undefined) this.starting--;
      else next();
    };
  }
}
