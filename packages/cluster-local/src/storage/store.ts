import type { KubeObject } from '../contracts.js';
import { ChangeLog } from './change-log.js';
import type { Change, Persistence } from './persistence.js';

/** A committed change, with the object as it was before for MODIFIED and DELETED (when known). */
export interface StoredChange extends Change {
  previous?: KubeObject;
}

export type ChangeListener = (change: StoredChange) => void;

export interface StoreOptions {
  persistence: Persistence;
  /** How many recent changes a watch can resume from. */
  logSize?: number;
}

/** How often the persisted log is trimmed to the in-memory one, in dropped changes. */
const COMPACT_EVERY = 1000;

function metadataOf(object: KubeObject): Record<string, unknown> {
  object.metadata ??= {};
  return object.metadata;
}

/**
 * Every object of the cluster, in memory for fast reads, written through to the persistence before
 * a change is acknowledged. Objects handed out are shared: callers copy before changing them.
 * Each change takes the next value of one global resourceVersion counter.
 */
export class Store {
  private readonly resources = new Map<string, Map<string, KubeObject>>();
  /** Sorted keys per resource, rebuilt on the next list after an insertion or removal. */
  private readonly sortedKeys = new Map<string, string[]>();
  private readonly log: ChangeLog;
  private readonly listeners = new Set<ChangeListener>();
  private version: number;
  private lastCompaction: number;

  constructor(private readonly options: StoreOptions) {
    const snapshot = options.persistence.load();
    const capacity = options.logSize ?? 10_000;
    const kept = snapshot.changes.slice(-capacity);
    const dropped = snapshot.changes.length - kept.length;
    const compacted =
      dropped > 0
        ? snapshot.changes[dropped - 1]!.resourceVersion
        : // Without a logged change the log covers nothing before the current version.
          kept.length > 0
          ? Math.max(snapshot.compactedThrough, kept[0]!.resourceVersion - 1)
          : snapshot.resourceVersion;
    this.log = new ChangeLog(capacity, compacted);
    for (const change of kept) this.log.push(change);
    this.lastCompaction = compacted;
    this.version = snapshot.resourceVersion;
    for (const { resource, object } of snapshot.objects) {
      const meta = metadataOf(object);
      this.objectsOf(resource).set(keyOf(meta.namespace, meta.name), object);
    }
  }

  /** The version of the latest change. */
  get resourceVersion(): number {
    return this.version;
  }

  get compactedThrough(): number {
    return this.log.compactedThrough;
  }

  get(resource: string, namespace: string, name: string): KubeObject | undefined {
    return this.resources.get(resource)?.get(keyOf(namespace, name));
  }

  /** The objects of a resource, in one namespace or all, ordered by namespace then name. */
  list(resource: string, namespace?: string): KubeObject[] {
    return this.entries(resource, namespace).map(([, object]) => object);
  }

  /**
   * The objects of a resource as they were at `version`, ordered as `list` orders them: the current
   * ones with every change since undone, as etcd's history answers a paged list. Undefined when
   * that can no longer be told: the log no longer reaches back to `version`, or it does not say
   * what a changed object was before (changes loaded at start keep no previous object).
   */
  listAt(
    resource: string,
    namespace: string | undefined,
    version: number,
  ): KubeObject[] | undefined {
    const changes = this.changesSince(version);
    if (!changes) return undefined;
    const inScope = (change: Change) =>
      change.resource === resource && (namespace === undefined || change.namespace === namespace);
    // What each object changed since was at `version`; null when it did not exist then.
    const then = new Map<string, KubeObject | null>();
    const untold = new Set<string>();
    for (const change of changes) {
      if (!inScope(change)) continue;
      const key = keyOf(change.namespace, change.name);
      if (then.has(key) || untold.has(key)) continue;
      if (change.type === 'ADDED') then.set(key, null);
      else if (change.previous) then.set(key, change.previous);
      else untold.add(key);
    }
    if (untold.size > 0) {
      // The last logged change at or before `version` tells, when the log still holds one.
      for (const change of this.log.through(version)) {
        const key = keyOf(change.namespace, change.name);
        if (inScope(change) && untold.has(key)) {
          then.set(key, change.type === 'DELETED' ? null : change.object);
        }
      }
      for (const key of untold) if (!then.has(key)) return undefined;
    }
    const current = this.entries(resource, namespace);
    if (then.size === 0) return current.map(([, object]) => object);
    const restored = [...then.entries()]
      .filter((entry): entry is [string, KubeObject] => entry[1] !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    // Both are in key order: merge them, leaving out the current form of what changed.
    const out: KubeObject[] = [];
    let r = 0;
    for (const [key, object] of current) {
      while (r < restored.length && restored[r]![0] < key) out.push(restored[r++]![1]);
      if (!then.has(key)) out.push(object);
    }
    while (r < restored.length) out.push(restored[r++]![1]);
    return out;
  }

  /** The resources that hold at least one object. */
  resourceNames(): string[] {
    return [...this.resources.entries()].filter(([, m]) => m.size > 0).map(([r]) => r);
  }

  /**
   * Creates or replaces an object (the store takes it and sets its resourceVersion) and returns it.
   */
  put(resource: string, object: KubeObject): KubeObject {
    const meta = metadataOf(object);
    const namespace = (meta.namespace as string | undefined) ?? '';
    const name = meta.name as string;
    const key = keyOf(namespace, name);
    const objects = this.objectsOf(resource);
    const previous = objects.get(key);
    const version = this.version + 1;
    meta.resourceVersion = String(version);
    const change: StoredChange = {
      type: previous ? 'MODIFIED' : 'ADDED',
      resourceVersion: version,
      resource,
      namespace,
      name,
      object,
    };
    this.options.persistence.commit(change, JSON.stringify(object));
    this.version = version;
    objects.set(key, object);
    if (!previous) this.sortedKeys.delete(resource);
    else change.previous = previous;
    this.publish(change);
    return object;
  }

  /** Removes an object; the returned copy carries the deletion's resourceVersion. */
  remove(resource: string, namespace: string, name: string): KubeObject | undefined {
    const key = keyOf(namespace, name);
    const objects = this.resources.get(resource);
    const current = objects?.get(key);
    if (!objects || !current) return undefined;
    const version = this.version + 1;
    const object = {
      ...current,
      metadata: { ...current.metadata, resourceVersion: String(version) },
    };
    const change: StoredChange = {
      type: 'DELETED',
      resourceVersion: version,
      resource,
      namespace,
      name,
      object,
    };
    this.options.persistence.commit(change, JSON.stringify(object));
    change.previous = current;
    this.version = version;
    objects.delete(key);
    this.sortedKeys.delete(resource);
    this.publish(change);
    return object;
  }

  /** The changes after a version, or undefined when the log no longer reaches back that far. */
  changesSince(version: number): StoredChange[] | undefined {
    return this.log.since(version);
  }

  /** Calls the listener with every change after it is committed; returns the unsubscribe. */
  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): void {
    this.options.persistence.close();
  }

  /** The `namespace/name` keys and objects of a resource, in key order. */
  private entries(resource: string, namespace: string | undefined): Array<[string, KubeObject]> {
    const objects = this.resources.get(resource);
    if (!objects) return [];
    let keys = this.sortedKeys.get(resource);
    if (!keys) {
      keys = [...objects.keys()].sort();
      this.sortedKeys.set(resource, keys);
    }
    const prefix = namespace === undefined ? '' : `${namespace}/`;
    const out: Array<[string, KubeObject]> = [];
    for (const key of keys) if (key.startsWith(prefix)) out.push([key, objects.get(key)!]);
    return out;
  }

  private objectsOf(resource: string): Map<string, KubeObject> {
    let objects = this.resources.get(resource);
    if (!objects) {
      objects = new Map();
      this.resources.set(resource, objects);
    }
    return objects;
  }

  private publish(change: StoredChange): void {
    const dropped = this.log.push(change);
    if (dropped !== undefined && dropped - this.lastCompaction >= COMPACT_EVERY) {
      this.options.persistence.compact(dropped);
      this.lastCompaction = dropped;
    }
    for (const listener of this.listeners) listener(change);
  }
}

function keyOf(namespace: unknown, name: unknown): string {
  return `${(namespace as string | undefined) ?? ''}/${name as string}`;
}
