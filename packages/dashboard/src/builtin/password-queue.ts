import { RetryLater } from './source-limits.js';

/**
 * argon2 computations run at once: each takes about 80 ms of one core and 19 MiB. More at once
 * only makes each slower on a small machine.
 */
export const ARGON2_CONCURRENCY = 2;
/**
 * Computations that may wait for a free slot. With ARGON2_CONCURRENCY = 2 a request waits at most
 * about 4 × 80 ms; beyond it the request is answered 429 `rate_limited` at once.
 */
export const ARGON2_QUEUE_DEPTH = 8;
/** Retry-After of a request shed because the queue was full. */
export const ARGON2_RETRY_AFTER_SECONDS = 1;

/**
 * A bounded queue in front of the password hashing: at most `concurrency` computations run, at
 * most `depth` wait, and any more are refused at once (RetryLater) instead of queueing for
 * seconds behind a flood.
 */
export class PasswordQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly concurrency = ARGON2_CONCURRENCY,
    private readonly depth = ARGON2_QUEUE_DEPTH,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.depth) {
        throw new RetryLater(
          ARGON2_RETRY_AFTER_SECONDS,
          `the sign-in service is busy: try again in ${ARGON2_RETRY_AFTER_SECONDS} s`,
        );
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next waiter, else frees up.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
