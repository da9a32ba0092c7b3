import type { Logger } from '@paddock/common';

/**
 * Work the controllers do after the request that caused it has been answered, as Kubernetes'
 * controllers do: keyed, so a key queued twice before it runs runs once, and run in order.
 */
export class WorkQueue {
  private readonly pending = new Map<string, () => void>();
  private scheduled = false;
  private stopped = false;
  private readonly idleWaiters: Array<() => void> = [];

  constructor(private readonly logger: Logger) {}

  add(key: string, work: () => void): void {
    if (this.stopped) return;
    this.pending.set(key, work);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.drain());
    }
  }

  /** Resolves once nothing is queued. */
  idle(): Promise<void> {
    if (!this.scheduled) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  stop(): void {
    this.stopped = true;
    this.pending.clear();
  }

  private drain(): void {
    // Work may queue more work; it runs in this same turn, up to a bound, then yields to requests.
    for (let rounds = 0; rounds < 1000 && this.pending.size > 0; rounds++) {
      const [key, work] = this.pending.entries().next().value!;
      this.pending.delete(key);
      try {
        work();
      } catch (err) {
        this.logger.error({ err, key }, 'controller work failed');
      }
    }
    if (this.pending.size > 0 && !this.stopped) {
      setImmediate(() => this.drain());
      return;
    }
    this.scheduled = false;
    for (const resolve of this.idleWaiters.splice(0)) resolve();
  }
}
