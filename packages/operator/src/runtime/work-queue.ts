/** What processing a key asks for besides success: to be looked at again after a delay. */
export interface ProcessResult {
  requeueAfterMs?: number;
}

export type ProcessOutcome = 'success' | 'error' | 'requeue';

export interface WorkQueueOptions {
  /** Keys processed at once. */
  workers?: number;
  /** First retry delay after a failure, doubling per consecutive failure of the key. */
  baseRetryMs?: number;
  maxRetryMs?: number;
  /** After each key is processed: for metrics and logs. */
  onProcessed?: (key: string, outcome: ProcessOutcome, seconds: number, error?: unknown) => void;
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

/**
 * A keyed work queue in the manner of client-go's: a key is queued at most once however often it
 * is added; a key added while being processed is processed once more afterwards, never by two
 * workers at once; failures retry per key with exponential backoff, reset by a success.
 */
export class WorkQueue {
  private readonly queue: string[] = [];
  /** Keys waiting to be processed (queued, or re-added while in process). */
  private readonly dirty = new Set<string>();
  private readonly processing = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly workers: number;
  private readonly baseRetryMs: number;
  private readonly maxRetryMs: number;
  private started = false;
  private stopping = false;

  constructor(
    private readonly handle: (key: string) => ProcessResult | void | Promise<ProcessResult | void>,
    private readonly options: WorkQueueOptions = {},
  ) {
    this.workers = Math.max(1, options.workers ?? 1);
    this.baseRetryMs = options.baseRetryMs ?? DEFAULT_BASE_RETRY_MS;
    this.maxRetryMs = options.maxRetryMs ?? DEFAULT_MAX_RETRY_MS;
  }

  /** Keys waiting to be processed, for the queue depth metric. */
  get depth(): number {
    return this.queue.length;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** Begins processing; keys added before are kept until then (e.g. until leadership). */
  start(): void {
    this.started = true;
    this.pump();
  }

  add(key: string): void {
    if (this.stopping || this.dirty.has(key)) return;
    this.dirty.add(key);
    // A key in process is queued again when its worker finishes.
    if (this.processing.has(key)) return;
    this.queue.push(key);
    this.pump();
  }

  /** Adds the key after a delay; of several pending delays for a key, the earliest wins. */
  addAfter(key: string, requestedMs: number): void {
    if (this.stopping) return;
    if (requestedMs <= 0) return this.add(key);
    // Timers take at most 2^31-1 ms (about 24 days); a later time is reached by requeueing then.
    const ms = Math.min(requestedMs, MAX_TIMER_MS);
    const at = Date.now() + ms;
    const pending = this.delayed.get(key);
    if (pending !== undefined) {
      if (pending.at <= at) return;
      clearTimeout(pending.timer);
    }
    const timer = setTimeout(() => {
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
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.queue.length = 0;
    this.dirty.clear();
    while (this.inFlight.size > 0) await Promise.all(this.inFlight);
  }

  private pump(): void {
    while (!this.stopping && this.started && this.processing.size < this.workers) {
      const key = this.queue.shift();
      if (key === undefined) return;
      this.dirty.delete(key);
      this.processing.add(key);
      const run = this.run(key).finally(() => {
        this.inFlight.delete(run);
        this.processing.delete(key);
        if (this.dirty.has(key) && !this.stopping) this.queue.push(key);
        this.pump();
      });
      this.inFlight.add(run);
    }
  }

  private async run(key: string): Promise<void> {
    const began = performance.now();
    let outcome: ProcessOutcome;
    let error: unknown;
    try {
      const result = await this.handle(key);
      this.forget(key);
      const after = result?.requeueAfterMs;
      if (after !== undefined) {
        this.addAfter(key, after);
        outcome = 'requeue';
      } else {
        outcome = 'success';
      }
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
