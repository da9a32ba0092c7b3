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

/** What a forced pass over unchanged objects writes, with the idle writes taken off. */
export interface NoOpWrites {
  /** Writes of the passes themselves (goal: 0). */
  writes: number;
  reconciled: number;
  /** Every write counted during the passes, touches and background included. */
  counted: number;
  touches: number;
  background: number;
  /** Writes over the idle window before (Lease renewals and the like), and its length. */
  idleWrites: number;
  idleMs: number;
}

/**
 * Measures the writes a controller makes when nothing changed. The idle rate of writes (Lease
 * renewals, say) is measured first over `idleMs`; then `touch` gives each object a change its
 * controller must look at but need not act on (an annotation), returning how many it touched; the
 * cluster's resourceVersion counts the writes until the controller settles.
 */
export async function noOpWrites(
  metrics: ControllerMetrics,
  resourceVersion: () => Promise<number>,
  touch: () => Promise<number>,
  options: { pollMs: number; idleMs: number },
): Promise<NoOpWrites> {
  await metrics.settle(options.pollMs);
  const idleStart = performance.now();
  const idleRv = await resourceVersion();
  await sleep(options.idleMs);
  const idleWrites = (await resourceVersion()) - idleRv;
  const idlePerMs = idleWrites / (performance.now() - idleStart);

  const touchStart = performance.now();
  const rv0 = await resourceVersion();
  const rec0 = await metrics.reconciles();
  const touches = await touch();
  await metrics.settle(options.pollMs);
  const counted = (await resourceVersion()) - rv0;
  const reconciled = (await metrics.reconciles()) - rec0;
  const background = Math.round(idlePerMs * (performance.now() - touchStart));
  return {
    writes: counted - touches - background,
    reconciled,
    counted,
    touches,
    background,
    idleWrites,
    idleMs: options.idleMs,
  };
}
