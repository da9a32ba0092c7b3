import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** VmRSS and VmHWM of a live process in MiB, from /proc. */
export function memoryMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** The operator's figures for one controller, read from its /metrics. */
export class ControllerMetrics {
  constructor(
    private readonly port: number,
    private readonly controller: string,
  ) {}

  /** The sum of a metric's samples for the controller. */
  async metric(name: string): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${this.port}/metrics`)).text();
    let sum = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith(`${name}{`) && line.includes(`controller="${this.controller}"`))
        sum += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
    return sum;
  }

  reconciles(): Promise<number> {
    return this.metric('paddock_operator_reconcile_total');
  }

  /** Waits until the controller's queue is empty and no reconcile ran for two seconds. */
  async settle(pollMs: number): Promise<void> {
    let last = await this.reconciles();
    let quietSince = performance.now();
    while (performance.now() - quietSince < 2_000) {
      await sleep(pollMs);
      const now = await this.reconciles();
      const depth = await this.metric('paddock_operator_workqueue_depth');
      if (now !== last || depth > 0) {
        last = now;
        quietSince = performance.now();
      }
    }
  }
}
