import { closeSync, type Dir, type Dirent } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { join } from 'node:path';
import { openCheckedFolder, viaDescriptor } from './containment.js';

/**
 * Folders no human-facing view of the workspace shows, at any depth: version-control internals and
 * installed dependencies, which dwarf the code and are regenerated from it. The tree, the download
 * and the change events all leave them out.
 */
export const SKIPPED_NAMES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** True when a workspace-relative path ('/'-separated) is inside or is a skipped folder. */
export function isSkippedPath(relativePath: string): boolean {
  return relativePath.split('/').some((segment) => SKIPPED_NAMES.has(segment));
}

export type EntryType = 'file' | 'dir' | 'symlink' | 'other';

export interface WalkEntry {
  /** Absolute path, as found (symlinks are entries of their own, never followed). */
  absolute: string;
  /**
   * A path to the same entry through the descriptor of the folder that was listed (see
   * viaDescriptor): it reaches this very entry even if a folder above it is swapped for a symlink
   * meanwhile. Valid only until the walk is asked for its next entry; open or lstat through it.
   */
  via: string;
  /** Relative to the folder the walk started from, '/'-separated. */
  relative: string;
  type: EntryType;
  /** 1 for the start folder's own entries. */
  depth: number;
}

export interface WalkOptions {
  /** Deepest level listed (1: the start folder's entries only); unlimited when absent. */
  maxDepth?: number;
  /**
   * breadth-first lists shallow levels first (what a truncated tree should keep); depth-first holds
   * only the pending folders along one branch (what a long download wants).
   */
  order: 'breadth-first' | 'depth-first';
  /** Stops the walk between entries (a client that went away). */
  signal?: AbortSignal;
  /** A folder below the start that could not be read (removed meanwhile, no permission): skipped. */
  onUnreadable?: (absolute: string, err: unknown) => void;
}

/** Breadth-first: folders already taken are dropped from the queue's front in batches of this many. */
const QUEUE_COMPACT_AFTER = 1024;

interface PendingFolder {
  absolute: string;
  relative: string;
  depth: number;
}

/** The type of a directory entry or of lstat's answer (both describe the entry, not a target). */
export function entryType(
  entry: Pick<Dirent, 'isSymbolicLink' | 'isDirectory' | 'isFile'>,
): EntryType {
  if (entry.isSymbolicLink()) return 'symlink';
  if (entry.isDirectory()) return 'dir';
  if (entry.isFile()) return 'file';
  return 'other';
}

/**
 * Every entry below `start`, skipping SKIPPED_NAMES and never following symlinks. A folder is read
 * as a stream (opendir) and closed before its subfolders are entered, so one folder is open at a
 * time and a huge folder is never held in memory whole; only the names of pending subfolders are
 * kept. Each folder is opened without following a symlink in its last segment and its descriptor
 * is checked to be the folder's own path (openCheckedFolder) before it is listed, through that
 * descriptor: a folder swapped for a symlink after it was listed as a folder, or reached through a
 * parent swapped meanwhile, is refused (onUnreadable), never listed. Errors reading `start` itself
 * are thrown; below it they go to onUnreadable.
 */
export async function* walk(start: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const pending: PendingFolder[] = [{ absolute: start, relative: '', depth: 0 }];
  let head = 0; // breadth-first takes from the front without shifting the array
  while (head < pending.length) {
    const folder = options.order === 'breadth-first' ? pending[head++]! : pending.pop()!;
    if (options.signal?.aborted) return;
    let fd: number;
    let dir: Dir;
    try {
      fd = openCheckedFolder(folder.absolute);
    } catch (err) {
      if (folder.depth === 0) throw err;
      options.onUnreadable?.(folder.absolute, err);
      continue;
    }
    try {
      dir = await opendir(viaDescriptor(fd));
    } catch (err) {
      closeSync(fd);
      if (folder.depth === 0) throw err;
      options.onUnreadable?.(folder.absolute, err);
      continue;
    }
    const subfolders: PendingFolder[] = [];
    try {
      for await (const dirent of dir) {
        if (options.signal?.aborted) return;
        if (SKIPPED_NAMES.has(dirent.name)) continue;
        const entry: WalkEntry = {
          absolute: join(folder.absolute, dirent.name),
          via: viaDescriptor(fd, dirent.name),
          relative: folder.relative === '' ? dirent.name : `${folder.relative}/${dirent.name}`,
          type: entryType(dirent),
          depth: folder.depth + 1,
        };
        yield entry;
        if (
          entry.type === 'dir' &&
          (options.maxDepth === undefined || entry.depth < options.maxDepth)
        ) {
          subfolders.push({
            absolute: entry.absolute,
            relative: entry.relative,
            depth: entry.depth,
          });
        }
      }
    } catch (err) {
      // The folder vanished or became unreadable while being listed: what was listed stands.
      if (folder.depth === 0) throw err;
      options.onUnreadable?.(folder.absolute, err);
    } finally {
      // for await closes `dir` when the loop ends, returns or throws.
      closeSync(fd);
    }
    // Depth-first pops from the end: reverse so subfolders are entered in the order listed.
    if (options.order === 'depth-first') subfolders.reverse();
    for (const subfolder of subfolders) pending.push(subfolder);
    if (head >= QUEUE_COMPACT_AFTER) {
      pending.splice(0, head);
      head = 0;
    }
  }
}
