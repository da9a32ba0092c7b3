import type { Logger } from 'pino';

/**
 * What a stop step is told of the process's one grace budget: every step shares it, so a step
 * that waits (for requests in flight, for a process to exit) waits only until `forceAt`, then
 * forces what is left (SIGKILL, cut sockets) and returns.
 */
export interface StopBudget {
  /** The `Date.now()` time at which waiting ends and forcing begins, the same for every step. */
  readonly forceAt: number;
  /** Milliseconds left until `forceAt`, never negative. */
  remainingMs(): number;
}

export interface ShutdownStep {
  name: string;
  run: (budget: StopBudget) => Promise<void> | void;
}

export interface ShutdownOptions {
  logger: Logger;
  /** How long all steps together may take before the process exits anyway. */
  graceMs?: number;
  /** Replaced in tests; ends the process by default. */
  exit?: (code: number) => void;
  /** Called once when the shutdown begins, before the first step, with the shared budget. */
  onBegin?: (budget: StopBudget) => void;
}

export const DEFAULT_GRACE_MS = 10_000;
/**
 * The end of the grace kept for forcing: steps wait until `grace - reserve`, so that what they
 * force (SIGKILL and its reaping, closing sockets) still ends within the grace. At most a quarter
 * of the grace, so that a short grace still leaves most of it for waiting.
 */
export const FORCE_RESERVE_MS = 1_000;

/** When waiting ends for a shutdown that began at `startedAt` with `graceMs` to spend in all. */
export function forceMoment(startedAt: number, graceMs: number): number {
  return startedAt + graceMs - Math.min(FORCE_RESERVE_MS, Math.floor(graceMs / 4));
}

/**
 * Graceful shutdown: on SIGINT or SIGTERM, run the registered steps in reverse order of
 * registration (last started, first stopped) within one shared grace period, then exit 0, or 1 if
 * a step failed or time ran out. Every step gets the same StopBudget: it waits at most until the
 * budget's forcing moment, then forces, so that the steps together never take more than the
 * grace. A second signal exits at once.
 */
export class Shutdown {
  private readonly steps: ShutdownStep[] = [];
  private running: Promise<number> | undefined;
  private readonly graceMs: number;
  private readonly exit: (code: number) => void;

  constructor(private readonly options: ShutdownOptions) {
    this.graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
    this.exit = options.exit ?? ((code) => process.exit(code));
  }

  add(name: string, run: ShutdownStep['run']): this {
    this.steps.push({ name, run });
    return this;
  }

  /** Installs the signal handlers. */
  listen(signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM']): this {
    for (const signal of signals) {
      process.on(signal, () => {
        if (this.running) {
          this.options.logger.warn({ signal }, 'second signal, exiting now');
          this.exit(1);
          return;
        }
        void this.run(signal);
      });
    }
    return this;
  }

  get started(): boolean {
    return this.running !== undefined;
  }

  /**
   * Runs the steps once; later calls return the same outcome. Resolves to the exit code: 1 when
   * a step failed, or when the shutdown is itself the answer to a failure (`failed`).
   */
  run(reason: string, options: { failed?: boolean } = {}): Promise<number> {
    this.running ??= this.runSteps(reason).then((stepsCode) => {
      const code = options.failed === true ? 1 : stepsCode;
      this.exit(code);
      return code;
    });
    return this.running;
  }

  private async runSteps(reason: string): Promise<number> {
    const { logger } = this.options;
    logger.info({ reason, graceMs: this.graceMs }, 'shutting down');
    const startedAt = Date.now();
    const deadline = startedAt + this.graceMs;
    const forceAt = forceMoment(startedAt, this.graceMs);
    const budget: StopBudget = {
      forceAt,
      remainingMs: () => Math.max(0, forceAt - Date.now()),
    };
    this.options.onBegin?.(budget);
    let code = 0;
    for (const step of [...this.steps].reverse()) {
      const remaining = deadline - Date.now();
      const outcome = await settleWithin(() => step.run(budget), remaining);
      if (outcome === 'timeout') {
        logger.error({ step: step.name }, 'shutdown step did not finish in the grace period');
        return 1;
      }
      if (outcome instanceof Error) {
        logger.error({ step: step.name, err: outcome }, 'shutdown step failed');
        code = 1;
      }
    }
    logger.info('stopped');
    return code;
  }
}

async function settleWithin(
  fn: () => Promise<void> | void,
  ms: number,
): Promise<'done' | 'timeout' | Error> {
  if (ms <= 0) return 'timeout';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    const work = Promise.resolve()
      .then(fn)
      .then(
        () => 'done' as const,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
