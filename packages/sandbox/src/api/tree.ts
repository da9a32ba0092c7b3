import { lstatSync, type Stats } from 'node:fs';
import { entryType, walk, type EntryType, type WalkEntry } from '../workspace/walk.js';

/** Entries one tree answer lists at most; a client asks for a sub-path or a depth for the rest. */
export const TREE_MAX_ENTRIES = 10_000;
/** Deepest `depth` a caller may ask for; without one the walk goes as deep as the entry cap allows. */
export const TREE_MAX_DEPTH = 32;

export interface TreeEntry {
  /** Relative to the workspace root, '/'-separated. */
  path: string;
  type: EntryType;
  /** Bytes; 0 for folders. A symlink's size is the length of its target. */
  size: number;
  /** ISO 8601, UTC. */
  mtime: string;
}

export interface TreeListing {
  entries: TreeEntry[];
  truncated: boolean;
}

/**
 * The entries below the folder `absolute` (a real path inside the workspace), paths prefixed with
 * `prefix` (the folder relative to the workspace root, '.' for the root). The walk is breadth-first,
 * so when more than `maxEntries` exist the shallow levels are the ones kept; the answer is then
 * sorted by path. Entries that vanish while being described are left out.
 */
export async function listTree(
  absolute: string,
  prefix: string,
  options: { maxDepth?: number; maxEntries: number },
): Promise<TreeListing> {
  const entries: TreeEntry[] = [];
  let truncated = false;
  for await (const entry of walk(absolute, {
    order: 'breadth-first',
    maxDepth: options.maxDepth,
  })) {
    if (entries.length === options.maxEntries) {
      truncated = true;
      break;
    }
    // Described while its folder is open, through that folder: never the stats of what a folder
    // swapped for a symlink meanwhile leads to. An entry that vanished since is left out.
    const stats = lstatOrUndefined(entry.via);
    if (stats) entries.push(describe(entry, stats, prefix));
  }
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { entries, truncated };
}

/** Type and size from the same lstat, so they agree even if the entry was replaced meanwhile. */
function describe(entry: WalkEntry, stats: Stats, prefix: string): TreeEntry {
  const type = entryType(stats);
  return {
    path: prefix === '.' ? entry.relative : `${prefix}/${entry.relative}`,
    type,
    size: type === 'dir' ? 0 : stats.size,
    mtime: stats.mtime.toISOString(),
  };
}

/**
 * Synchronous on purpose, like the containment check: one fast system call on the local disk, and
 * the entry's folder is open only until the walk moves on.
 */
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
