import type { KubeObject } from '../contracts.js';

/** What a store change was, in the words of a Kubernetes watch event. */
export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change: the object as it is after the change (for DELETED, as it was, at the deletion's version). */
export interface Change {
  type: ChangeType;
  resourceVersion: number;
  /** The group-qualified plural, as Kubernetes writes a GroupResource: `pods`, `workspaces.paddock.dev`. */
  resource: string;
  namespace: string;
  name: string;
  object: KubeObject;
}

/** What a persistence keeps and hands back at start. */
export interface Snapshot {
  objects: Array<{ resource: string; object: KubeObject }>;
  /** The most recent changes, oldest first. */
  changes: Change[];
  resourceVersion: number;
  /** Changes up to this version are gone from the log: a watch cannot resume from before it. */
  compactedThrough: number;
}

/** Where the store writes through to: SQLite with --data, nothing otherwise. */
export interface Persistence {
  load(): Snapshot;
  /** Commits one change atomically (object, counter and log together) before it is acknowledged. */
  commit(change: Change, json: string): void;
  /** Forgets logged changes up to a version. */
  compact(through: number): void;
  close(): void;
}

/** Keeps nothing: the store's memory is all there is. */
export function memoryPersistence(): Persistence {
  return {
    load: () => ({ objects: [], changes: [], resourceVersion: 0, compactedThrough: 0 }),
    commit: () => undefined,
    compact: () => undefined,
    close: () => undefined,
  };
}
