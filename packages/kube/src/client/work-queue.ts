/**
 * What processing a key asks for besides plain success: to be looked at again after a delay,
 * either because the work is not finished (requeue, e.g. waiting for a namespace to go) or to
 * refresh finished work (resync, e.g. rediscovering tools every few minutes).
 */
export interface ProcessResult {
  /** Not finished: look again after this delay (the outcome is `requeue`). */
  requeueAfterMs?: number;
  /** Finished: look again after this delay all the same (the outcome stays `success`). */
  resyncAfterMs?: number;
}

export type ProcessOutcome = 'success' | 'error' | 'requeue';

/** The outcome a handler's result stands for: a periodic resync is a success, not a requeue. */
export function outcomeOf(result: ProcessResult | void): 'success' | 'requeue' {
  return result?.requeueAfterMs === undefined ? 'success' : 'requeue';
}

/** The delay before the key is looked at again, if any: the earlier of requeue and resync. */
export function nextLookMs(result: ProcessResult | void): number | undefined {
  const delays = [result?.requeueAfterMs, result?.resyncAfterMs].filter(
    (ms): ms is number => ms !== undefined,
  );
  return delays.length === 0 ? undefined : Math.min(...delays);
}

/** The time and timers the queue uses: the process's by default, a test's own otherwise. */
export interface QueueClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Delays alone do not keep the process alive: whoever owns the queue shuts it down. */
const PROCESS_CLOCK: QueueClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface WorkQueueOptions {
  /** Keys processed at once (Infinity: every key at once, each still one at a time). */
  workers?: number;
  /** First retry delay after a failure, doubling per consecutive failure of the key. */
  baseRetryMs?: number;
  maxRetryMs?: number;
  /** After each key is processed: for metrics and logs. */
  onProcessed?: (key: string, outcome: ProcessOutcome, seconds: number, error?: unknown) => void;
  clock?: QueueClock;
}

export const DEFAULT_BASE_RETRY_MS = 100;
export const DEFAULT_MAX_RETRY_MS = 5 * 60_000;

/** The wait before the retry that follows `failures` consecutive failures (1 for the first). */
export function retryDelayMs(failures: number, baseMs: number, maxMs: number): number {
  // Capped before exponentiating so that a long failing key cannot overflow to Infinity.
  const exponent = Math.min(Math.max(failures - 1, 0), 52);
  return Math.min(baseMs * 2 ** exponent, maxMs);
}

/** The longest delay a Node.js timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export type KeyHandler = (key: string) => ProcessResult | void | Promise<ProcessResult | void>;

/**
 * A keyed work queue in the manner of client-go's: a key is queued at most once however often it
 * is added; a key added while being processed is processed once more afterwards, never by two
 * workers at once; failures retry per key with exponential backoff, reset by a success.
 * Processing starts on a later turn of the event loop than the add, as client-go's workers run
 * apart from whoever adds: an add made while a write is being answered never runs work inside it.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  /** Keys waiting to be processed (queued, or re-added while in process). */
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: unknown }>();
  private readonly failures = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly idleWaiters: (() => void)[] = [];
  private readonly workers: number;
  private readonly baseRetryMs: number;
  private readonly maxRetryMs: number;
  private readonly clock: QueueClock;
  private started = false;
  private stopping = false;
  private pumpScheduled = false;

  constructor(
    private readonly handle: KeyHandler,
    private readonly options: WorkQueueOptions = {},
  ) {
    this.workers = Math.max(1, options.workers ?? 1);
    this.baseRetryMs = options.baseRetryMs ?? DEFAULT_BASE_RETRY_MS;
    this.maxRetryMs = options.maxRetryMs ?? DEFAULT_MAX_RETRY_MS;
    this.clock = options.clock ?? PROCESS_CLOCK;
  }

  /** Keys waiting to be processed, for the queue depth metric. */
  get depth(): number {
    return this.queue.length;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Nothing waits to be processed and nothing is in process (keys waiting for a delay aside). */
  get isIdle(): boolean {
    return this.stopping || (this.dirty.size === 0 && this.processing.size === 0);
  }

  /** Resolves once the queue is idle (see isIdle); at once when it is. */
  idle(): Promise<void> {
    if (this.isIdle) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Resolves once every queue is idle at the same moment: work in one may add keys to another,
   * so a queue that went idle is looked at again after the others did.
   */
  static async allIdle(queues: readonly WorkQueue[]): Promise<void> {
    while (!queues.every((queue) => queue.isIdle)) {
      await Promise.all(queues.map((queue) => queue.idle()));
    }
  }

  /** Begins processing; keys added before are kept until then (e.g. until leadership). */
  start(): void {
    this.started = true;
    this.schedulePump();
  }

  add(key: string): void {
    if (this.stopping || this.dirty.has(key)) return;
    this.dirty.add(key);
    // A key in process is queued again when its worker finishes.
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.schedulePump();
  }

  /** Adds the key after a delay; of several pending delays for a key, the earliest wins. */
  addAfter(key: string, requestedMs: number): void {
    if (this.stopping) return;
    if (requestedMs <= 0) return this.add(key);
    // Timers take at most 2^31-1 ms (about 24 days); a later time is reached by requeueing then.
    const ms = Math.min(requestedMs, MAX_TIMER_MS);
    const at = this.clock.now() + ms;
    const pending = this.delayed.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      this.clock.clearTimeout(pending.timer);
    }
    const timer = this.clock.setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, timer });
  }

  /** Adds the key after its backoff, counting one more failure. */
  addRateLimited(key: string): void {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    this.addAfter(key, retryDelayMs(failures, this.baseRetryMs, this.maxRetryMs));
  }

  /** Forgets the key's failures, so its next retry starts from the base delay. */
  forget(key: string): void {
    this.failures.delete(key);
  }

  /** Consecutive failures of the key. */
  retries(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  /** Stops taking work, drops what waits, and resolves once the keys in process are done. */
  async shutdown(): Promise<void> {
    this.stopping = true;
    for (const { timer } of this.delayed.values()) this.clock.clearTimeout(timer);
    this.delayed.clear();
    this.queue.length = 0;
    this.dirty.clear();
    this.settle();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private schedulePump(): void {
    if (this.pumpScheduled || !this.started || this.stopping) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.stopping && this.processing.size < this.workers) {
      const key = this.queue.shift();
      if (key === undefined) break;
      this.dirty.delete(key);
      this.processing.add(key);
      const run = this.run(key).finally(() => {
        this.inFlight.delete(run);
        this.processing.delete(key);
        if (this.dirty.has(key) && !this.stopping) this.queue.push(key);
        this.schedulePump();
        this.settle();
      });
      this.inFlight.add(run);
    }
  }

  private settle(): void {
    if (!this.isIdle) return;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }

  private async run(key: string): Promise<void> {
    const began = performance.now();
    let outcome: ProcessOutcome;
    let error: unknown;
    try {
      const result = await this.handle(key);
      this.forget(key);
      const after = nextLookMs(result);
      if (after !== undefined) this.addAfter(key, after);
      outcome = outcomeOf(result);
    } catch (err) {
      error = err;
      outcome = 'error';
      this.addRateLimited(key);
    }
    try {
      this.options.onProcessed?.(key, outcome, (performance.now() - began) / 1000, error);
    } catch {
      // An observer's failure must not stop the queue.
    }
  }
}
