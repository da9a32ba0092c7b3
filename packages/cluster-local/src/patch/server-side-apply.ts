import type { KubeObject } from '../contracts.js';
import {
  copy,
  isRecord,
  jsonEqual,
  metaOf,
  type ManagedFieldsEntry,
} from '../objects/object-meta.js';
import { fieldsOf, hasPath, nodePaths, removePath, subtract, type FieldTree } from './field-set.js';
import type { ListStrategies } from './patch-meta.js';

export interface ApplyRequest {
  /** The object as it is, or undefined to create it. */
  live: KubeObject | undefined;
  /** The applied configuration: the manager's whole desired state. */
  applied: KubeObject;
  manager: string;
  apiVersion: string;
  now: string;
  strategies: ListStrategies;
  /** Top-level fields this endpoint does not own (status on the main resource of a kind with /status). */
  skip: readonly string[];
}

/**
 * Server-side apply, simplified: the applied configuration is merged into the live object (maps by
 * key, keyed lists by their merge key, other lists replaced), fields the manager applied before and
 * leaves out now are removed unless another manager owns them, and the manager's field set is
 * recorded in managedFields. Ownership moves to the applier without conflicts, as with --force-conflicts.
 */
export function serverSideApply(request: ApplyRequest): KubeObject {
  const { live, applied, manager, strategies } = request;
  const owned = fieldsOf(applied, strategies, request.skip);
  const entries = live ? (metaOf(copy(live)).managedFields ?? []) : [];
  const previous = entries.find(
    (e) => e.manager === manager && e.operation === 'Apply' && !e.subresource,
  );
  const others = entries.filter((e) => e !== previous);

  const result: KubeObject = copy(live ?? {});
  if (previous?.fieldsV1) {
    const dropped = topmost(
      nodePaths(previous.fieldsV1 as FieldTree).filter((path) => !hasPath(owned, path)),
    );
    for (const path of dropped) {
      if (!others.some((e) => e.fieldsV1 && hasPath(e.fieldsV1 as FieldTree, path))) {
        removePath(result, path);
      }
    }
  }
  const merged = mergeApplied(
    result,
    withoutSkipped(applied, request.skip),
    [],
    strategies,
  ) as KubeObject;

  const entry: ManagedFieldsEntry = {
    manager,
    operation: 'Apply',
    apiVersion: request.apiVersion,
    time: request.now,
    fieldsType: 'FieldsV1',
    fieldsV1: owned,
  };
  // An unchanged field set keeps its time, so that applying the same configuration changes nothing.
  if (
    previous &&
    jsonEqual(previous.fieldsV1, owned) &&
    previous.apiVersion === request.apiVersion
  ) {
    entry.time = previous.time ?? request.now;
  }
  const transfer = (e: ManagedFieldsEntry): ManagedFieldsEntry =>
    e.fieldsV1 ? { ...e, fieldsV1: subtract(e.fieldsV1 as FieldTree, owned) } : e;
  const keep = (e: ManagedFieldsEntry) => !e.fieldsV1 || Object.keys(e.fieldsV1).length > 0;
  const managedFields = previous
    ? entries.map((e) => (e === previous ? entry : transfer(e))).filter(keep)
    : [...entries.map(transfer).filter(keep), entry];
  metaOf(merged).managedFields = managedFields;
  return merged;
}

function withoutSkipped(applied: KubeObject, skip: readonly string[]): KubeObject {
  const out = { ...applied };
  for (const field of skip) delete out[field];
  return out;
}

/** The paths that are not under another path of the list. */
function topmost(paths: string[][]): string[][] {
  const keys = new Set(paths.map((p) => p.join('\n')));
  return paths.filter(
    (path) => !path.some((_, i) => i > 0 && keys.has(path.slice(0, i).join('\n'))),
  );
}

function mergeApplied(
  live: unknown,
  applied: unknown,
  path: string[],
  strategies: ListStrategies,
): unknown {
  if (isRecord(applied)) {
    const out: Record<string, unknown> = isRecord(live) ? { ...live } : {};
    for (const [key, value] of Object.entries(applied)) {
      if (value === null) continue;
      out[key] = mergeApplied(out[key], value, [...path, key], strategies);
    }
    return out;
  }
  if (Array.isArray(applied)) {
    const strategy = strategies(path);
    const current = Array.isArray(live) ? (live as unknown[]) : [];
    if (strategy?.set) {
      const out = [...current];
      for (const item of applied) if (!out.some((o) => jsonEqual(o, item))) out.push(item);
      return out;
    }
    if (strategy?.mergeKey) {
      const key = strategy.mergeKey;
      const out = [...current];
      for (const item of applied as unknown[]) {
        const at = isRecord(item)
          ? out.findIndex((o) => isRecord(o) && jsonEqual(o[key], item[key]))
          : -1;
        if (at < 0) out.push(item);
        else out[at] = mergeApplied(out[at], item, path, strategies);
      }
      return out;
    }
  }
  return applied;
}
