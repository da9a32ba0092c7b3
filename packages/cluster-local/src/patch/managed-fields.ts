import { isRecord, timestamp, type ManagedFieldsEntry } from '../objects/object-meta.js';
import {
  difference,
  isEmptySet,
  membersOf,
  union,
  type FieldChanges,
  type FieldTree,
} from './field-set.js';

/** kube-apiserver's limit on a field manager's name. */
export const FIELD_MANAGER_MAX_LENGTH = 128;

/** Update entries beyond this many are folded, oldest first, into one (the server's cap). */
export const MAX_UPDATE_MANAGERS = 10;

/** The manager the oldest Update entries are folded into. */
export const ANCIENT_CHANGES_MANAGER = 'ancient-changes';

/** The manager of the fields an object held when it was first applied without managedFields. */
export const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';

/**
 * The manager a write is recorded under: the `fieldManager` parameter, or else the client's
 * User-Agent up to its first `/` (`kubectl/v1.30.0 (linux/amd64) ...` is `kubectl`), printable
 * characters only, cut at the length limit, as kube-apiserver derives it.
 */
export function managerOf(fieldManager: string | undefined, userAgent: string): string {
  if (fieldManager) return fieldManager;
  let name = '';
  for (const char of userAgent.split('/')[0]!) {
    if (!/^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u.test(char)) continue;
    if (Buffer.byteLength(name + char) > FIELD_MANAGER_MAX_LENGTH) break;
    name += char;
  }
  return name;
}

/** Who wrote: the parts of an entry that tell one manager's entry from another's. */
export interface ManagerKey {
  manager: string;
  operation: 'Apply' | 'Update';
  /** Update entries are kept per API version; an applier keeps one entry across versions. */
  apiVersion: string;
  subresource?: string;
}

export function sameManager(entry: ManagedFieldsEntry, key: ManagerKey): boolean {
  return (
    entry.manager === key.manager &&
    entry.operation === key.operation &&
    (entry.subresource ?? '') === (key.subresource ?? '') &&
    (key.operation === 'Apply' || entry.apiVersion === key.apiVersion)
  );
}

export function fieldsOfEntry(entry: ManagedFieldsEntry): FieldTree {
  return (entry.fieldsV1 as FieldTree | undefined) ?? {};
}

export function entryOf(key: ManagerKey, fields: FieldTree, time: string): ManagedFieldsEntry {
  return {
    manager: key.manager,
    operation: key.operation,
    apiVersion: key.apiVersion,
    time,
    fieldsType: 'FieldsV1',
    fieldsV1: fields,
    ...(key.subresource ? { subresource: key.subresource } : {}),
  };
}

/**
 * The entries a client sent, as the server decodes them: times at second precision (a client may
 * send `...:05.000Z` for `...:05Z`), anything that is not an entry left out.
 */
export function decodeEntries(value: unknown): ManagedFieldsEntry[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((sent) => {
    const entry = { ...sent } as ManagedFieldsEntry;
    const time = typeof sent['time'] === 'string' ? Date.parse(sent['time']) : NaN;
    if (Number.isFinite(time)) entry.time = timestamp(time);
    return entry;
  });
}

/** `managedFields: [{}]`: the client clears them (an empty list leaves them as they are). */
export function clearsEntries(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.length === 1 &&
    isRecord(value[0]) &&
    Object.keys(value[0]).length === 0
  );
}

export interface UpdateRecord {
  /** The entries of the object before the write (empty for a create). */
  entries: ManagedFieldsEntry[];
  /** Whether the object existed before: an existing object that tracks nothing stays untracked. */
  existed: boolean;
  changes: FieldChanges;
  key: ManagerKey;
  now: string;
}

/**
 * The managedFields after a create, update or patch: the writer takes every field it added or
 * changed (from whoever held it) and the fields it removed leave every manager. A write that
 * changes no field leaves the entries as they were, times included, so it stays a no-op.
 */
export function recordUpdate(record: UpdateRecord): ManagedFieldsEntry[] {
  const { entries, changes, key } = record;
  if (entries.length === 0 && record.existed) return [];
  if (isEmptySet(changes.changed) && isEmptySet(changes.removed)) return entries;
  const taken = union(changes.changed, changes.removed);
  const mine = entries.find((e) => sameManager(e, key));
  const others = entries
    .filter((e) => e !== mine)
    .map((e) => ({ ...e, fieldsV1: difference(fieldsOfEntry(e), taken) }));
  const fields = difference(
    union(mine ? fieldsOfEntry(mine) : {}, changes.changed),
    changes.removed,
  );
  const next: ManagedFieldsEntry[] = [...others];
  if (!isEmptySet(fields)) next.push(entryOf(key, fields, record.now));
  return tidy(next);
}

/** Drops empty entries, folds the oldest Update entries past the cap, sorts as the server does. */
export function tidy(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const kept = entries.filter((e) => membersOf(fieldsOfEntry(e)).length > 0);
  return sortEntries(capUpdates(kept));
}

function capUpdates(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const updates = entries.filter((e) => e.operation === 'Update');
  if (updates.length <= MAX_UPDATE_MANAGERS) return entries;
  const oldest = [...updates]
    .sort((a, b) => (a.time ?? '').localeCompare(b.time ?? ''))
    .slice(0, updates.length - MAX_UPDATE_MANAGERS + 1);
  const folded = oldest.reduce<FieldTree>((set, e) => union(set, fieldsOfEntry(e)), {});
  const newest = oldest[oldest.length - 1]!;
  const bucket = entryOf(
    { manager: ANCIENT_CHANGES_MANAGER, operation: 'Update', apiVersion: newest.apiVersion ?? '' },
    folded,
    newest.time ?? '',
  );
  return [...entries.filter((e) => !oldest.includes(e)), bucket];
}

/** Apply entries first, then by time, manager, API version and subresource. */
export function sortEntries(entries: ManagedFieldsEntry[]): ManagedFieldsEntry[] {
  const text = (value: string | undefined) => value ?? '';
  return [...entries].sort(
    (a, b) =>
      text(a.operation).localeCompare(text(b.operation)) ||
      text(a.time).localeCompare(text(b.time)) ||
      compareText(text(a.manager), text(b.manager)) ||
      compareText(text(a.apiVersion), text(b.apiVersion)) ||
      compareText(text(a.subresource), text(b.subresource)),
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
