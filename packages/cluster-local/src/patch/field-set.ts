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
    tree[`f:${key}`] = childFields(child, [...path, key], strategies);
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
