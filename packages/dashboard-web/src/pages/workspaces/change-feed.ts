/**
 * The Changes tab's list: the sandbox's `change` events (GET /api/events), newest first, each once
 * however often a reconnection replays it. Pure: no imports.
 */

export type ChangeType = 'create' | 'change' | 'delete' | 'rename';

export interface FileChange {
  /** The event's id: increasing by one per event within a run of the sandbox. */
  id: string;
  type: ChangeType;
  kind: 'file' | 'dir';
  path: string;
  /** A rename's old path. */
  from?: string;
  /** When the sandbox saw it (ISO 8601). */
  time: string;
}

/** Most changes kept in the list: older ones give way. */
export const MAX_CHANGES = 500;

const TYPES = new Set<string>(['create', 'change', 'delete', 'rename']);

/** A `change` event's id and data as a FileChange, or undefined when it is not one. */
export function parseChange(id: string, data: string): FileChange | undefined {
  if (!/^\d+$/.test(id)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.type !== 'string' || !TYPES.has(v.type)) return undefined;
  if (v.kind !== 'file' && v.kind !== 'dir') return undefined;
  if (typeof v.path !== 'string' || v.path === '') return undefined;
  const change: FileChange = {
    id,
    type: v.type as ChangeType,
    kind: v.kind,
    path: v.path,
    time: typeof v.time === 'string' ? v.time : '',
  };
  if (typeof v.from === 'string') change.from = v.from;
  return change;
}

/** Compares event ids as the integers they are (they pass 2^53 one day; BigInt keeps them exact). */
function compareIds(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x === y ? 0 : x > y ? 1 : -1;
}

/**
 * The list with one more change: in its place by id (newest first), left out when the list has
 * it already (a replay after reconnecting), the oldest dropped beyond `max`.
 */
export function addChange(
  list: readonly FileChange[],
  change: FileChange,
  max = MAX_CHANGES,
): FileChange[] {
  let at = 0;
  while (at < list.length && compareIds(list[at]!.id, change.id) > 0) at++;
  if (at < list.length && list[at]!.id === change.id) return [...list];
  // Older than everything kept, with the list full: it would be dropped at once.
  if (at >= max) return [...list];
  const next = [...list.slice(0, at), change, ...list.slice(at)];
  return next.length > max ? next.slice(0, max) : next;
}

/** What happened, as a short phrase: `Created`, `Modified`, `Deleted`, `Renamed`. */
export function changeVerb(type: ChangeType): string {
  switch (type) {
    case 'create':
      return 'Created';
    case 'change':
      return 'Modified';
    case 'delete':
      return 'Deleted';
    case 'rename':
      return 'Renamed';
  }
}

/** Whether the change leaves something to open in Files: a file that still exists. */
export function canOpen(change: FileChange): boolean {
  return change.kind === 'file' && change.type !== 'delete';
}
