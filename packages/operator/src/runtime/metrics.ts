import type { ProcessOutcome } from '@paddock/kube';
import { collectProcessMetrics } from '@paddock/common/process-metrics';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Names of the operator's metrics, for dashboards and tests. */
export const METRIC_NAMES = {
  reconciles: 'paddock_operator_reconcile_total',
  duration: 'paddock_operator_reconcile_duration_seconds',
  errors: 'paddock_operator_reconcile_errors_total',
  queueDepth: 'paddock_operator_workqueue_depth',
  leader: 'paddock_operator_leader',
} as const;

/** Reconciles range from a cached no-op to a slow backend probe. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/** The operator's Prometheus metrics, in a registry of their own (not prom-client's global one). */
export class OperatorMetrics {
  readonly registry = new Registry();
  private readonly queues = new Map<string, { readonly depth: number }>();
  private readonly reconciles: Counter<'controller' | 'result'>;
  private readonly duration: Histogram<'controller'>;
  private readonly errors: Counter<'controller'>;
  private readonly leader: Gauge;

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.reconciles = new Counter({
      name: METRIC_NAMES.reconciles,
      help: 'Reconciles by controller and result (success, error, requeue).',
      labelNames: ['controller', 'result'],
      registers,
    });
    this.duration = new Histogram({
      name: METRIC_NAMES.duration,
      help: 'Time to reconcile one object, by controller.',
      labelNames: ['controller'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.errors = new Counter({
      name: METRIC_NAMES.errors,
      help: 'Reconciles that failed and will be retried, by controller.',
      labelNames: ['controller'],
      registers,
    });
    const queues = this.queues;
    new Gauge({
      name: METRIC_NAMES.queueDepth,
      help: 'Keys waiting in the work queue, by controller.',
      labelNames: ['controller'],
      registers,
      // Read at scrape time, so the queues need not report each change.
      collect() {
        for (const [controller, queue] of queues) this.set({ controller }, queue.depth);
      },
    });
    this.leader = new Gauge({
      name: METRIC_NAMES.leader,
      help: '1 while this replica holds the leader lease, else 0.',
      registers,
    });
    this.leader.set(0);
    if (options.processMetrics ?? true) {
      collectProcessMetrics(this.registry, 'paddock_operator_');
    }
  }

  /** Reports a controller's queue depth at every scrape. */
  trackQueue(controller: string, queue: { readonly depth: number }): void {
    this.queues.set(controller, queue);
  }

  observeReconcile(controller: string, result: ProcessOutcome, seconds: number): void {
    this.reconciles.inc({ controller, result });
    this.duration.observe({ controller }, seconds);
    if (result === 'error') this.errors.inc({ controller });
  }

  setLeader(leading: boolean): void {
    this.leader.set(leading ? 1 : 0);
  }

  /** The Prometheus text exposition and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/** As much of an HTTP reply as serving metrics needs (fastify's reply has it). */
export interface MetricsReply {
  type(contentType: string): unknown;
}

/** The handler of GET /metrics: answers the exposition text. */
export function serveMetrics(
  metrics: OperatorMetrics,
): (request: unknown, reply: MetricsReply) => Promise<string> {
  return async (_request, reply) => {
    const { contentType, body } = await metrics.exposition();
    reply.type(contentType);
    return body;
  };
}
