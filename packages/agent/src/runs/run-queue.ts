// One run at a time per replica: the others wait their turn, in order, and any of them can be
// cancelled, queued or running.

/** Runs waiting behind the one in progress; more are refused until some finish. */
export const MAX_QUEUED_RUNS = 32;

export type RunWork = (signal: AbortSignal) => Promise<void>;

interface Waiting {
  id: string;
  work: RunWork;
}

export class QueueFullError extends Error {
  readonly code = 'queue_full';
  constructor(readonly limit: number) {
    super(`${limit} runs are already waiting; try again when one has finished`);
  }
}

export class RunQueue {
  private readonly waiting: Waiting[] = [];
  private current: { id: string; controller: AbortController; done: Promise<void> } | undefined;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(
    /** Called with what a run's work threw: the work records its own outcome otherwise. */
    private readonly onError: (id: string, error: unknown) => void,
    private readonly maxQueued = MAX_QUEUED_RUNS,
  ) {}

  /** Queues a run; its place in line (0: it starts now). */
  enqueue(id: string, work: RunWork): number {
    if (this.current === undefined) {
      this.start({ id, work });
      return 0;
    }
    if (this.waiting.length >= this.maxQueued) throw new QueueFullError(this.maxQueued);
    this.waiting.push({ id, work });
    return this.waiting.length;
  }

  /**
   * Cancels a run: the running one is aborted with the reason (its work ends it), a waiting one
   * leaves the line (the caller records its end). Undefined when the run is neither.
   */
  cancel(id: string, reason: string): 'running' | 'waiting' | undefined {
    if (this.current?.id === id) {
      this.current.controller.abort(reason);
      return 'running';
    }
    const index = this.waiting.findIndex((run) => run.id === id);
    if (index < 0) return undefined;
    this.waiting.splice(index, 1);
    return 'waiting';
  }

  /** The run in progress. */
  get running(): string | undefined {
    return this.current?.id;
  }

  /** Whether a run asked for now would be refused. */
  get full(): boolean {
    return this.current !== undefined && this.waiting.length >= this.maxQueued;
  }

  /** The runs waiting, in order. */
  get queued(): string[] {
    return this.waiting.map((run) => run.id);
  }

  /** Resolves when no run is in progress or waiting. */
  idle(): Promise<void> {
    if (this.current === undefined) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Aborts the running run and drops the waiting ones; resolves when the running one ended. */
  async stop(reason: unknown): Promise<string[]> {
    const dropped = this.waiting.splice(0).map((run) => run.id);
    const current = this.current;
    current?.controller.abort(reason);
    await current?.done;
    return dropped;
  }

  private start(next: Waiting): void {
    const controller = new AbortController();
    const done = next
      .work(controller.signal)
      .catch((error: unknown) => this.onError(next.id, error))
      .finally(() => {
        this.current = undefined;
        const following = this.waiting.shift();
        if (following) this.start(following);
        else for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    this.current = { id: next.id, controller, done };
  }
}
