import { randomBytes } from 'node:crypto';
import type { Kube, KubeEvent } from './cluster.js';
import { NotFoundError } from './errors.js';
import { CORE_KINDS } from './kinds.js';
import type { KubeObject, ResourceClient } from './resource-client.js';

/** A Kubernetes metav1.Time: RFC 3339 to the second, which is what the API server keeps. */
export function kubeTime(when: Date): string {
  return when.toISOString().replace(/\.\d+Z$/, 'Z');
}

export type EventType = 'Normal' | 'Warning';

/** Identical events within this window count on one Event, as client-go's correlator does. */
export const DEFAULT_AGGREGATION_WINDOW_MS = 10 * 60_000;

/** Events remembered for aggregation; the oldest are forgotten first. */
const MAX_REMEMBERED = 4096;

/** Events of cluster-scoped objects live in the default namespace, as Kubernetes puts them. */
const CLUSTER_EVENTS_NAMESPACE = 'default';

export interface EventRecorderOptions {
  kube: Kube;
  /** The `source.component` of the events: who reports them. */
  component: string;
  aggregationWindowMs?: number;
  /** Told of an event that could not be recorded (recording never throws). */
  onError?: (err: unknown, event: { reason: string; kind?: string; name?: string }) => void;
  now?: () => Date;
}

interface Remembered {
  name: string;
  namespace: string;
  count: number;
  lastSeen: number;
}

/**
 * Records core/v1 Events about objects, for the operator and the local platform's agents alike. An event identical to one recorded within the window
 * (same object, type, reason and message) increments that Event's count instead of adding one.
 * Recording is best effort: a failure is logged, never thrown, so that it cannot fail a reconcile.
 */
export class EventRecorder {
  private readonly events: ResourceClient<KubeEvent>;
  private readonly component: string;
  private readonly windowMs: number;
  private readonly onError: NonNullable<EventRecorderOptions['onError']>;
  private readonly now: () => Date;
  private readonly remembered = new Map<string, Remembered>();
  /** Per event key, the recording in progress: the same event is recorded one at a time. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(options: EventRecorderOptions) {
    this.events = options.kube.resource<KubeEvent>(CORE_KINDS.event);
    this.component = options.component;
    this.windowMs = options.aggregationWindowMs ?? DEFAULT_AGGREGATION_WINDOW_MS;
    this.onError = options.onError ?? (() => {});
    this.now = options.now ?? (() => new Date());
  }

  normal(object: KubeObject, reason: string, message: string): Promise<void> {
    return this.record(object, 'Normal', reason, message);
  }

  warning(object: KubeObject, reason: string, message: string): Promise<void> {
    return this.record(object, 'Warning', reason, message);
  }

  /** Resolves once recorded or given up on; never rejects. */
  record(object: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const involved = {
      apiVersion: object.apiVersion,
      kind: object.kind,
      name: object.metadata?.name,
      namespace: object.metadata?.namespace,
      uid: object.metadata?.uid,
    };
    const key = JSON.stringify([involved, type, reason, message]);
    const previous = this.pending.get(key) ?? Promise.resolve();
    const recording = previous
      .then(() => this.write(key, involved, type, reason, message))
      .catch((err: unknown) => {
        this.onError(err, { reason, kind: involved.kind, name: involved.name });
      })
      .finally(() => {
        if (this.pending.get(key) === recording) this.pending.delete(key);
      });
    this.pending.set(key, recording);
    return recording;
  }

  private async write(
    key: string,
    involved: KubeEvent['involvedObject'],
    type: EventType,
    reason: string,
    message: string,
  ): Promise<void> {
    const now = this.now();
    const timestamp = kubeTime(now);
    const seen = this.remembered.get(key);
    if (seen !== undefined && now.getTime() - seen.lastSeen < this.windowMs) {
      try {
        await this.events.patch(
          seen.name,
          { count: seen.count + 1, lastTimestamp: timestamp },
          { namespace: seen.namespace },
        );
        this.remember(key, { ...seen, count: seen.count + 1, lastSeen: now.getTime() });
        return;
      } catch (err) {
        // The Event expired or was deleted: record a new one.
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    const namespace = involved.namespace ?? CLUSTER_EVENTS_NAMESPACE;
    const created = await this.events.create({
      metadata: {
        name: `${involved.name ?? 'object'}.${randomBytes(8).toString('hex')}`,
        namespace,
      },
      involvedObject: involved,
      type,
      reason,
      message,
      source: { component: this.component },
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
    });
    this.remember(key, {
      name: created.metadata?.name ?? '',
      namespace,
      count: 1,
      lastSeen: now.getTime(),
    });
  }

  private remember(key: string, entry: Remembered): void {
    this.remembered.delete(key);
    this.remembered.set(key, entry);
    if (this.remembered.size > MAX_REMEMBERED) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
  }
}
