import { randomBytes } from 'node:crypto';
import {
  CORE_KINDS,
  NotFoundError,
  type Kube,
  type KubeEvent,
  type ResourceClient,
} from '@paddock/kube';

/** The component the local agents' events name as their source. */
export const EVENT_SOURCE = 'paddock-local-agents';

/** Identical events within this window count on one Event, as the kubelet's recorder does. */
const AGGREGATION_WINDOW_MS = 10 * 60_000;
/** Events remembered for aggregation; the oldest are forgotten first. */
const MAX_REMEMBERED = 1024;

/** The object an event is about. */
export type ObjectReference = Required<
  Pick<KubeEvent['involvedObject'], 'apiVersion' | 'kind' | 'name' | 'namespace' | 'uid'>
>;

interface Remembered {
  name: string;
  count: number;
  lastSeen: number;
}

/** A Kubernetes metav1.Time: RFC 3339 to the second. */
export function kubeTime(when: Date): string {
  return when.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * Records core v1 Events as a kubelet and a ReplicaSet controller would. The same event again
 * within the window counts on the first one. Best effort: a failure is reported, never thrown,
 * since an event must not stop a replica.
 */
export class EventRecorder {
  private readonly events: ResourceClient<KubeEvent>;
  private readonly remembered = new Map<string, Remembered>();
  /** Per event key, the recording in progress: the same event is counted one at a time. */
  private readonly pending = new Map<string, Promise<void>>();

  constructor(
    kube: Kube,
    private readonly onError: (err: unknown) => void = () => {},
    private readonly now: () => Date = () => new Date(),
  ) {
    this.events = kube.resource<KubeEvent>(CORE_KINDS.event);
  }

  normal(object: ObjectReference, reason: string, message: string): Promise<void> {
    return this.record(object, 'Normal', reason, message);
  }

  warning(object: ObjectReference, reason: string, message: string): Promise<void> {
    return this.record(object, 'Warning', reason, message);
  }

  private record(
    object: ObjectReference,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    const key = JSON.stringify([object, type, reason, message]);
    const recording = (this.pending.get(key) ?? Promise.resolve())
      .then(() => this.write(key, object, type, reason, message))
      .catch(this.onError)
      .finally(() => {
        if (this.pending.get(key) === recording) this.pending.delete(key);
      });
    this.pending.set(key, recording);
    return recording;
  }

  private async write(
    key: string,
    object: ObjectReference,
    type: 'Normal' | 'Warning',
    reason: string,
    message: string,
  ): Promise<void> {
    const now = this.now();
    const timestamp = kubeTime(now);
    const seen = this.remembered.get(key);
    if (seen !== undefined && now.getTime() - seen.lastSeen < AGGREGATION_WINDOW_MS) {
      try {
        await this.events.patch(
          seen.name,
          { count: seen.count + 1, lastTimestamp: timestamp },
          { namespace: object.namespace },
        );
        this.remember(key, { name: seen.name, count: seen.count + 1, lastSeen: now.getTime() });
        return;
      } catch (err) {
        // The Event expired or was deleted: record a new one.
        if (!(err instanceof NotFoundError)) throw err;
      }
    }
    const created = await this.events.create({
      metadata: {
        name: `${object.name}.${randomBytes(8).toString('hex')}`,
        namespace: object.namespace,
      },
      involvedObject: object,
      type,
      reason,
      message,
      source: { component: EVENT_SOURCE },
      firstTimestamp: timestamp,
      lastTimestamp: timestamp,
      count: 1,
    });
    this.remember(key, { name: created.metadata?.name ?? '', count: 1, lastSeen: now.getTime() });
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
