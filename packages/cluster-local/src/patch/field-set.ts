import { isRecord, jsonEqual } from '../objects/object-meta.js';
import type { ListStrategies } from './patch-meta.js';

/** A set of fields in Kubernetes' FieldsV1 form: `f:<field>`, `k:<key>`, `v:<value>`, `.` for the node itself. */
export type FieldTree = { [key: string]: FieldTree };

/** Fields the server sets, never owned by a manager. */
const SERVER_FIELDS: Record<string, string[]> = {
  '': ['apiVersion', 'kind'],
  metadata: [
    'name',
    'namespace',
    'uid',
    'resourceVersion',
    'generation',
    'creationTimestamp',
    'deletionTimestamp',
    'deletionGracePeriodSeconds',
    'managedFields',
    'selfLink',
  ],
};

/** The fields a value sets, as FieldsV1. `skip` leaves out top-level fields (status on the main resource). */
export function fieldsOf(
  value: unknown,
  strategies: ListStrategies,
  skip: readonly string[] = [],
): FieldTree {
  const tree = mapFields(value, [], strategies);
  for (const field of skip) delete tree[`f:${field}`];
  return tree;
}

function mapFields(value: unknown, path: string[], strategies: ListStrategies): FieldTree {
  const tree: FieldTree = {};
  if (!isRecord(value)) return tree;
  const serverFields = SERVER_FIELDS[path.join('.')] ?? [];
  for (const [key, child] of Object.entries(value)) {
    if (child === undefined || (path.length <= 1 && serverFields.includes(key))) continue;
    const fields = childFields(child, [...path, key], strategies);
    // Metadata holding only server-set fields (a name) sets nothing; an empty map is a value.
    if (isRecord(child) && Object.keys(child).length > 0 && Object.keys(fields).length === 0) {
      continue;
    }
    tree[`f:${key}`] = fields;
  }
  return tree;
}

function childFields(value: unknown, path: string[], strategies: ListStrategies): FieldTree {
  if (isRecord(value)) return mapFields(value, path, strategies);
  if (!Array.isArray(value)) return {};
  const strategy = strategies(path);
  const tree: FieldTree = {};
  if (strategy?.mergeKey) {
    for (const item of value) {
      if (!isRecord(item)) continue;
      tree[`k:${JSON.stringify({ [strategy.mergeKey]: item[strategy.mergeKey] })}`] = {
        '.': {},
        ...mapFields(item, path, strategies),
      };
    }
  } else if (strategy?.set) {
    for (const item of value) tree[`v:${JSON.stringify(item)}`] = {};
  }
  return tree;
}

/** Every node of the tree as a path of FieldsV1 keys ('.' markers left out). */
export function nodePaths(
  tree: FieldTree,
  prefix: string[] = [],
  out: string[][] = [],
): string[][] {
  for (const [key, child] of Object.entries(tree)) {
    if (key === '.') continue;
    const path = [...prefix, key];
    out.push(path);
    nodePaths(child, path, out);
  }
  return out;
}

/** Removes from the tree every node of `other`'s that is a leaf there. */
export function subtract(tree: FieldTree, other: FieldTree): FieldTree {
  const out: FieldTree = {};
  for (const [key, child] of Object.entries(tree)) {
    const theirs = other[key];
    if (theirs === undefined) {
      out[key] = child;
      continue;
    }
    if (Object.keys(theirs).length === 0 || Object.keys(child).length === 0) continue;
    const rest = subtract(child, theirs);
    if (Object.keys(rest).filter((k) => k !== '.').length > 0) out[key] = rest;
  }
  return out;
}

export function hasPath(tree: FieldTree, path: readonly string[]): boolean {
  let node: FieldTree | undefined = tree;
  for (const key of path) {
    node = node?.[key];
    if (node === undefined) return false;
  }
  return true;
}

/** Removes the field a FieldsV1 path names from an object, in place. */
export function removePath(object: unknown, path: readonly string[]): void {
  let parent: unknown = object;
  for (let i = 0; i < path.length; i++) {
    const key = path[i]!;
    const last = i === path.length - 1;
    if (key.startsWith('f:') && isRecord(parent)) {
      const field = key.slice(2);
      if (last) delete parent[field];
      else parent = parent[field];
    } else if ((key.startsWith('k:') || key.startsWith('v:')) && Array.isArray(parent)) {
      const wanted = JSON.parse(key.slice(2)) as unknown;
      const list = parent as unknown[];
      const at = list.findIndex((item) =>
        key.startsWith('v:')
          ? jsonEqual(item, wanted)
          : isRecord(wanted) &&
            isRecord(item) &&
            Object.entries(wanted).every(([k, v]) => jsonEqual(item[k], v)),
      );
      if (at < 0) return;
      if (last) list.splice(at, 1);
      else parent = list[at];
    } else {
      return;
    }
  }
}

/** The marker of a FieldsV1 node that is itself a member of the set, not only a prefix. */
const SELF = '.';

/** The paths a field set holds as members: its leaves, and the nodes marked with `.`. */
export function membersOf(
  tree: FieldTree,
  prefix: string[] = [],
  out: string[][] = [],
): string[][] {
  for (const [key, child] of Object.entries(tree)) {
    if (key === SELF) continue;
    const path = [...prefix, key];
    const keys = Object.keys(child);
    if (keys.length === 0 || keys.includes(SELF)) out.push(path);
    membersOf(child, path, out);
  }
  return out;
}

/** The field set holding exactly these member paths. */
export function fromMembers(paths: Iterable<readonly string[]>): FieldTree {
  const tree: FieldTree = {};
  const members: FieldTree[] = [];
  for (const path of paths) {
    let node = tree;
    for (const key of path) node = node[key] ??= {};
    members.push(node);
  }
  // A member with members below it carries the `.` marker; a leaf member is its empty node.
  for (const node of members) if (Object.keys(node).some((k) => k !== SELF)) node[SELF] = {};
  return tree;
}

const joinPath = (path: readonly string[]) => path.join('\n');

function memberKeys(tree: FieldTree): Map<string, string[]> {
  return new Map(membersOf(tree).map((path) => [joinPath(path), path]));
}

export function union(a: FieldTree, b: FieldTree): FieldTree {
  return fromMembers(new Map([...memberKeys(a), ...memberKeys(b)]).values());
}

/** The members of `a` that `b` does not hold. */
export function difference(a: FieldTree, b: FieldTree): FieldTree {
  const other = memberKeys(b);
  return fromMembers([...memberKeys(a)].filter(([k]) => !other.has(k)).map(([, p]) => p));
}

export function intersection(a: FieldTree, b: FieldTree): FieldTree {
  const other = memberKeys(b);
  return fromMembers([...memberKeys(a)].filter(([k]) => other.has(k)).map(([, p]) => p));
}

export function isEmptySet(tree: FieldTree): boolean {
  return membersOf(tree).length === 0;
}

/** A member path as Kubernetes prints it in conflicts: `.data.key`, `.spec.containers[name="app"].image`. */
export function pathText(path: readonly string[]): string {
  return path
    .map((key) => {
      const value = key.slice(2);
      if (key.startsWith('f:')) return `.${value}`;
      if (key.startsWith('v:')) return `[=${value}]`;
      if (key.startsWith('i:')) return `[${value}]`;
      if (key.startsWith('k:')) {
        const fields = JSON.parse(value) as Record<string, unknown>;
        return `[${Object.entries(fields)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      }
      return key;
    })
    .join('');
}

/** The top-level fields that exist, empty, in every object: never added or removed themselves. */
const STRUCT_FIELDS = ['metadata', 'spec', 'status'];

/** What one write changed, as field sets: fields added or given another value, and fields removed. */
export interface FieldChanges {
  changed: FieldTree;
  removed: FieldTree;
}

/**
 * The fields that differ between two versions of an object, as the server's field manager compares
 * them (server-set metadata and the `skip` top-level fields left out). Maps compare field by field,
 * keyed lists item by item, sets value by value; anything else is one field that changed or not.
 */
export function compareFields(
  before: unknown,
  after: unknown,
  strategies: ListStrategies,
  skip: readonly string[] = [],
): FieldChanges {
  const changed: string[][] = [];
  const removed: string[][] = [];
  const walk = (a: unknown, b: unknown, path: string[], keys: string[]) => {
    if (isRecord(a) && isRecord(b)) {
      const server = SERVER_FIELDS[path.join('.')] ?? [];
      const skipped = (key: string) =>
        (path.length <= 1 && server.includes(key)) || (path.length === 0 && skip.includes(key));
      for (const [key, value] of Object.entries(b)) {
        if (value === undefined || skipped(key)) continue;
        const child = [...keys, `f:${key}`];
        if (a[key] === undefined) added(value, [...path, key], child, changed, path.length === 0);
        else walk(a[key], value, [...path, key], child);
      }
      for (const [key, value] of Object.entries(a)) {
        if (value === undefined || b[key] !== undefined || skipped(key)) continue;
        added(value, [...path, key], [...keys, `f:${key}`], removed, path.length === 0);
      }
      return;
    }
    const strategy = Array.isArray(a) && Array.isArray(b) ? strategies(path) : undefined;
    if (strategy?.mergeKey || strategy?.set) {
      const before = itemsOf(a as unknown[], path, strategies);
      const after = itemsOf(b as unknown[], path, strategies);
      for (const [key, value] of after) {
        if (!before.has(key)) added(value, path, [...keys, key], changed, false);
        else if (strategy.mergeKey) walk(before.get(key), value, path, [...keys, key]);
      }
      for (const [key, value] of before) {
        if (!after.has(key)) added(value, path, [...keys, key], removed, false);
      }
      return;
    }
    if (!jsonEqual(a, b)) changed.push(keys);
  };
  const added = (
    value: unknown,
    path: string[],
    keys: string[],
    out: string[][],
    topLevel: boolean,
  ) => {
    // metadata, spec and status are structs that every object of Kubernetes' types has.
    if (!(topLevel && STRUCT_FIELDS.includes(path[0]!))) out.push(keys);
    descendants(value, path, keys, strategies, out);
  };
  walk(before, after, [], []);
  return { changed: fromMembers(changed), removed: fromMembers(removed) };
}

/** Every field below a value that was added or removed whole: each is a member of the change. */
function descendants(
  value: unknown,
  path: string[],
  keys: string[],
  strategies: ListStrategies,
  out: string[][],
): void {
  if (isRecord(value)) {
    const server = SERVER_FIELDS[path.join('.')] ?? [];
    for (const [key, child] of Object.entries(value)) {
      if (child === undefined || (path.length <= 1 && server.includes(key))) continue;
      const childKeys = [...keys, `f:${key}`];
      out.push(childKeys);
      descendants(child, [...path, key], childKeys, strategies, out);
    }
  } else if (Array.isArray(value)) {
    const strategy = strategies(path);
    if (!strategy?.mergeKey && !strategy?.set) return;
    for (const [key, item] of itemsOf(value, path, strategies)) {
      out.push([...keys, key]);
      descendants(item, path, [...keys, key], strategies, out);
    }
  }
}

function itemsOf(
  list: unknown[],
  path: string[],
  strategies: ListStrategies,
): Map<string, unknown> {
  const strategy = strategies(path);
  const items = new Map<string, unknown>();
  for (const item of list) {
    if (strategy?.mergeKey) {
      if (isRecord(item)) items.set(itemKey(strategy.mergeKey, item), item);
    } else {
      items.set(`v:${JSON.stringify(item)}`, item);
    }
  }
  return items;
}

function itemKey(mergeKey: string, item: Record<string, unknown>): string {
  return `k:${JSON.stringify({ [mergeKey]: item[mergeKey] })}`;
}
