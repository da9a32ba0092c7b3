import type { Dirent, Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import { isSkippedPath, SKIPPED_NAMES } from './walk.js';

/** Change events kept for clients that reconnect; one older than the ring gets a reset instead. */
export const EVENT_RING_CAPACITY = 10_000;
/**
 * How long a delete or a create waits for its other half to be reported as a rename. chokidar
 * reports a moved file as add-then-unlink with the unlink held back 100 ms (its `atomic` option),
 * and a moved folder as unlinkDir-then-addDir; the window must exceed that delay.
 */
export const RENAME_WINDOW_MS = 250;
/**
 * When a folder appears, chokidar lists it and only then watches it, so an entry created in between
 * (a file written right after `mkdir -p`, as the MCP Write tool does) is never reported
 * (chokidar issue #1471). The folder is listed again this long after it appeared, by when chokidar
 * watches it, and whatever chokidar missed is handed to it.
 */
export const NEW_FOLDER_RECHECKS_MS: readonly number[] = [200, 1000];

export type ChangeType = 'create' | 'change' | 'delete' | 'rename';
export type ChangeKind = 'file' | 'dir';

export interface ChangeEvent {
  /** Increasing; see EventRing for why the first id is not 1. */
  id: number;
  type: ChangeType;
  kind: ChangeKind;
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  /** For a rename, where the entry was before. */
  from?: string;
  /** ISO 8601, when the watcher saw the change. */
  time: string;
}

export type Change = Omit<ChangeEvent, 'id'>;

/**
 * The last `capacity` change events, with increasing ids. Ids start at the process's start time in
 * microseconds, so an id a client kept from an earlier run of the sandbox is always below this
 * run's range and earns a reset rather than a silent gap.
 */
export class EventRing {
  private readonly slots: (ChangeEvent | undefined)[];
  private readonly listeners = new Set<(event: ChangeEvent) => void>();
  private readonly gapListeners = new Set<(lastId: number) => void>();
  /** The newest id evicted (or just below the first id): a client at or after it misses nothing. */
  private floor: number;
  private last: number;

  constructor(
    private readonly capacity: number,
    firstId: number = Date.now() * 1000,
  ) {
    this.slots = new Array<ChangeEvent | undefined>(capacity);
    this.floor = firstId - 1;
    this.last = firstId - 1;
  }

  /** The id of the newest event (below the first id while there is none): a client's resume point. */
  get lastId(): number {
    return this.last;
  }

  push(change: Change): ChangeEvent {
    const event: ChangeEvent = { id: ++this.last, ...change };
    if (this.last - this.floor > this.capacity) this.floor++;
    this.slots[this.last % this.capacity] = event;
    for (const listener of this.listeners) listener(event);
    return event;
  }

  /** Every kept event after `id`, oldest first, or 'reset' when some were lost or `id` is unknown. */
  since(id: number): ChangeEvent[] | 'reset' {
    if (!Number.isSafeInteger(id) || id < this.floor || id > this.last) return 'reset';
    const events: ChangeEvent[] = [];
    for (let n = id + 1; n <= this.last; n++) events.push(this.slots[n % this.capacity]!);
    return events;
  }

  /**
   * Changes went unseen (the watcher was stopped, or dropped a burst): every id kept so far becomes
   * one a client cannot resume from, so it gets a reset and refetches the tree. Subscribers are told.
   */
  gap(): void {
    this.last++;
    this.floor = this.last;
    for (const listener of this.gapListeners) listener(this.last);
  }

  /**
   * Calls `listener` for every event pushed from now on, and `onGap` with the id to resume from
   * whenever changes went unseen; returns the unsubscribe function.
   */
  subscribe(listener: (event: ChangeEvent) => void, onGap?: (lastId: number) => void): () => void {
    this.listeners.add(listener);
    if (onGap) this.gapListeners.add(onGap);
    return () => {
      this.listeners.delete(listener);
      if (onGap) this.gapListeners.delete(onGap);
    };
  }
}

interface Pending {
  change: Change;
  timer: NodeJS.Timeout;
}

/**
 * Turns the watcher's adds, changes and removals into change events, pairing a removal and a
 * creation of the same file-system object (same inode, same birth time) within RENAME_WINDOW_MS into
 * one rename. A creation whose inode another known path still holds waits for that path's removal;
 * a removal waits for a creation. Whatever waits is emitted as it was when the window ends, and
 * before anything else about the same path. The renames of a folder's children, implied by the
 * folder's rename, are not repeated.
 */
export class ChangeClassifier {
  /** path → identity, for every entry seen, so a removal knows what it removed. */
  private readonly identities = new Map<string, string>();
  /** identity → path, to find the old name of an object that appears under a new one. */
  private readonly holders = new Map<string, string>();
  /** Creations waiting for the removal of the old path (keyed by the old path). */
  private readonly pendingCreates = new Map<string, Pending>();
  /** Removals waiting for a creation (keyed by the removed object's identity). */
  private readonly pendingDeletes = new Map<string, Pending>();
  /** Folder renames reported lately, whose children's renames are implied. */
  private recentFolderRenames: { from: string; to: string; until: number }[] = [];

  constructor(
    private readonly emit: (change: Change) => void,
    private readonly windowMs = RENAME_WINDOW_MS,
  ) {}

  /** An entry present before watching began: remembered, not reported. */
  seed(path: string, kind: ChangeKind, stats: Stats | undefined): void {
    if (stats) this.remember(path, identityOf(kind, stats));
  }

  /** Whether `path` was reported (or seen before watching began) and not removed since. */
  knows(path: string): boolean {
    return this.identities.has(path);
  }

  created(path: string, kind: ChangeKind, stats: Stats | undefined): void {
    // chokidar reports a file again when it catches up with one it missed: a change, not a second create.
    if (this.identities.has(path)) return this.changed(path, kind, stats);
    this.flushPath(path);
    const time = new Date().toISOString();
    if (!stats) return this.emit({ type: 'create', kind, path, time });
    const identity = identityOf(kind, stats);
    const removal = this.pendingDeletes.get(identity);
    if (removal && removal.change.path !== path) {
      this.settle(this.pendingDeletes, identity, removal);
      this.remember(path, identity);
      return this.rename(removal.change.path, path, kind, time);
    }
    const holder = this.holders.get(identity);
    this.remember(path, identity);
    if (holder !== undefined && holder !== path && this.identities.get(holder) === identity) {
      this.hold(this.pendingCreates, holder, { type: 'create', kind, path, time });
      return;
    }
    this.emit({ type: 'create', kind, path, time });
  }

  changed(path: string, kind: ChangeKind, stats: Stats | undefined): void {
    this.flushPath(path);
    if (stats) this.remember(path, identityOf(kind, stats));
    this.emit({ type: 'change', kind, path, time: new Date().toISOString() });
  }

  removed(path: string, kind: ChangeKind): void {
    const time = new Date().toISOString();
    const identity = this.identities.get(path);
    this.identities.delete(path);
    if (identity !== undefined && this.holders.get(identity) === path)
      this.holders.delete(identity);
    const creation = this.pendingCreates.get(path);
    if (creation) {
      this.settle(this.pendingCreates, path, creation);
      return this.rename(path, creation.change.path, creation.change.kind, creation.change.time);
    }
    this.flushPath(path);
    if (identity === undefined) return this.emit({ type: 'delete', kind, path, time });
    this.hold(this.pendingDeletes, identity, { type: 'delete', kind, path, time });
  }

  /** Drops whatever waits (the watcher is closing). */
  close(): void {
    for (const pending of [...this.pendingCreates.values(), ...this.pendingDeletes.values()]) {
      clearTimeout(pending.timer);
    }
    this.pendingCreates.clear();
    this.pendingDeletes.clear();
  }

  private remember(path: string, identity: string): void {
    const previous = this.identities.get(path);
    if (previous !== undefined && this.holders.get(previous) === path)
      this.holders.delete(previous);
    this.identities.set(path, identity);
    this.holders.set(identity, path);
  }

  private rename(from: string, path: string, kind: ChangeKind, time: string): void {
    const now = Date.now();
    this.recentFolderRenames = this.recentFolderRenames.filter((r) => r.until > now);
    const implied = this.recentFolderRenames.some(
      (r) => from.startsWith(`${r.from}/`) && path === r.to + from.slice(r.from.length),
    );
    if (kind === 'dir')
      this.recentFolderRenames.push({ from, to: path, until: now + 2 * this.windowMs });
    if (!implied) this.emit({ type: 'rename', kind, path, from, time });
  }

  private hold(map: Map<string, Pending>, key: string, change: Change): void {
    const earlier = map.get(key);
    if (earlier) this.release(map, key, earlier);
    const timer = setTimeout(() => {
      map.delete(key);
      this.emit(change);
    }, this.windowMs);
    map.set(key, { change, timer });
  }

  private settle(map: Map<string, Pending>, key: string, pending: Pending): void {
    clearTimeout(pending.timer);
    map.delete(key);
  }

  private release(map: Map<string, Pending>, key: string, pending: Pending): void {
    this.settle(map, key, pending);
    this.emit(pending.change);
  }

  /** Emits at once whatever waits about `path`, so events about one path keep their order. */
  private flushPath(path: string): void {
    for (const map of [this.pendingCreates, this.pendingDeletes]) {
      for (const [key, pending] of map) {
        if (pending.change.path === path) this.release(map, key, pending);
      }
    }
  }
}

/**
 * What stays the same when an object is renamed and differs when its inode is reused: the inode and
 * its birth time. Where the file system keeps no birth time, a file's size and modification time
 * stand in; a folder's modification time changes with its entries, so its inode alone stands in.
 */
function identityOf(kind: ChangeKind, stats: Stats): string {
  if (stats.birthtimeMs > 0) return `${stats.dev}:${stats.ino}:${stats.birthtimeMs}`;
  return kind === 'dir'
    ? `${stats.dev}:${stats.ino}`
    : `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

/**
 * A watcher over the workspace (chokidar, symlinks not followed, .git and node_modules ignored at
 * any depth), handing each classified change to `emit` once its initial scan is done. It runs in
 * the watcher thread (see SharedWatcher), never on the thread that answers requests.
 */
export class WorkspaceWatcher {
  /** Resolves once the initial scan is done: changes after it are reported. */
  readonly ready: Promise<void>;
  private readonly watcher: FSWatcher;
  private readonly classifier: ChangeClassifier;
  private readonly rechecks = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly root: string,
    emit: (change: Change) => void,
    warn: (err: unknown) => void,
  ) {
    this.classifier = new ChangeClassifier(emit);
    this.watcher = watch(root, {
      ignoreInitial: false,
      alwaysStat: true,
      followSymlinks: false,
      ignorePermissionErrors: true,
      ignored: (path) => isSkippedPath(this.relative(path)),
    });
    let scanning = true;
    this.ready = new Promise((resolve) =>
      this.watcher.once('ready', () => {
        scanning = false;
        resolve();
      }),
    );
    let warned = false;
    this.watcher.on('error', (err) => {
      // Once: a full inotify table would otherwise report once per folder.
      if (!warned) warn(err);
      warned = true;
    });
    this.watcher.on('all', (event, absolute, stats) => {
      const path = this.relative(absolute);
      if (path === '') return; // the root itself
      const kind: ChangeKind = event === 'addDir' || event === 'unlinkDir' ? 'dir' : 'file';
      if (scanning) return this.classifier.seed(path, kind, stats);
      switch (event) {
        case 'add':
          return this.classifier.created(path, kind, stats);
        case 'addDir':
          this.recheckLater(absolute);
          return this.classifier.created(path, kind, stats);
        case 'change':
          return this.classifier.changed(path, kind, stats);
        case 'unlink':
        case 'unlinkDir':
          return this.classifier.removed(path, kind);
      }
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.rechecks) clearTimeout(timer);
    this.classifier.close();
    await this.watcher.close();
  }

  private recheckLater(folder: string): void {
    for (const delay of NEW_FOLDER_RECHECKS_MS) {
      const timer = setTimeout(() => {
        this.rechecks.delete(timer);
        void this.recheck(folder);
      }, delay);
      this.rechecks.add(timer);
    }
  }

  /** Hands chokidar the entries of a new folder it has not reported; it then reports and watches them. */
  private async recheck(folder: string): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return; // gone again, or unreadable: nothing to catch up with
    }
    if (this.closed) return;
    for (const entry of entries) {
      if (SKIPPED_NAMES.has(entry.name)) continue;
      const absolute = join(folder, entry.name);
      if (!this.classifier.knows(this.relative(absolute))) this.watcher.add(absolute);
    }
  }

  private relative(absolute: string): string {
    return relative(this.root, absolute).split(sep).join('/');
  }
}
