/** What the Files tab decides about the tree: names, order, paging, what is open. */

/** An entry of GET /api/tree. */
export interface TreeEntry {
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  mtime: string;
}

export interface TreeListing {
  root: string;
  entries: TreeEntry[];
  truncated: boolean;
}

/** Entries of a folder shown at first, and how many more each "Show more" adds. */
export const TREE_PAGE = 200;

/** The last part of a path: `a/b/c.ts` → `c.ts`. */
export const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The folder of a path, `.` for the root's entries. */
export const parentOf = (path: string) =>
  path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '.';

/** The folders above a path, outermost first: `a/b/c.ts` → `a`, `a/b`. */
export function ancestors(path: string): string[] {
  const parts = path.split('/').slice(0, -1);
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Folders first, then files, each by name. */
export function sortedEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  return [...entries].sort((a, b) =>
    (a.type === 'dir') !== (b.type === 'dir')
      ? a.type === 'dir'
        ? -1
        : 1
      : nameOf(a.path).localeCompare(nameOf(b.path)),
  );
}

/** The folders open at first: the root, and those above the file shown. */
export function initiallyExpanded(selected: string | null): Set<string> {
  return new Set(['.', ...(selected === null ? [] : ancestors(selected))]);
}

/** The set with the item added if it was missing, removed if it was there. */
export function toggled<T>(set: ReadonlySet<T>, item: T): Set<T> {
  const next = new Set(set);
  if (next.has(item)) next.delete(item);
  else next.add(item);
  return next;
}

/** The folder's `.gitignore`, if its listing has one. */
export function gitignoreOf(entries: readonly TreeEntry[]): TreeEntry | undefined {
  return entries.find((e) => e.type === 'file' && nameOf(e.path) === '.gitignore');
}

/** The entries of a folder shown so far, and what "Show more" would say (none when all are). */
export function folderPage(
  dir: string,
  entries: readonly TreeEntry[],
  limit: number,
): { visible: TreeEntry[]; rest: number; more: string | null } {
  const visible = entries.slice(0, limit);
  const rest = entries.length - visible.length;
  const where = dir === '.' ? 'this folder' : nameOf(dir);
  return {
    visible,
    rest,
    more: rest > 0 ? `Show ${Math.min(rest, TREE_PAGE)} more of ${rest} in ${where}` : null,
  };
}

/** What the tree says of an entry it cannot open. */
export function otherKindText(type: TreeEntry['type']): string {
  return type === 'symlink' ? 'symbolic link' : 'special file';
}
