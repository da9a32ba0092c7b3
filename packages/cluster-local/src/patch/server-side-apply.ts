import type { KubeObject } from '../contracts.js';
import {
  copy,
  isRecord,
  jsonEqual,
  metaOf,
  type ManagedFieldsEntry,
} from '../objects/object-meta.js';
import { ApiError } from '../api/api-error.js';
import {
  compareFields,
  difference,
  fieldsOf,
  hasPath,
  intersection,
  isEmptySet,
  membersOf,
  nodePaths,
  pathText,
  removePath,
  union,
  type FieldTree,
} from './field-set.js';
import {
  BEFORE_FIRST_APPLY_MANAGER,
  entryOf,
  fieldsOfEntry,
  sameManager,
  tidy,
  type ManagerKey,
} from './managed-fields.js';
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
  /** `force=true`: take the fields other managers hold rather than answer a conflict. */
  force?: boolean;
  /** The subresource applied to (`status`), recorded in the entry. */
  subresource?: string;
}

/** The one applier whose conflicts on fields of the client-side apply annotation are forced. */
const KUBECTL_MANAGER = 'kubectl';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * Server-side apply: the applied configuration is merged into the live object (maps by key, keyed
 * lists by their merge key, other lists replaced), fields the manager applied before and leaves
 * out now are removed unless another manager owns them, and the manager's field set is recorded
 * in managedFields. A field another manager holds that the apply would change is a conflict (409)
 * unless forced; then the applier takes it. Fields set to the value they have are shared.
 */
export function serverSideApply(request: ApplyRequest): KubeObject {
  const { live, applied, manager, strategies, skip } = request;
  const key: ManagerKey = {
    manager,
    operation: 'Apply',
    apiVersion: request.apiVersion,
    ...(request.subresource ? { subresource: request.subresource } : {}),
  };
  const owned = fieldsOf(applied, strategies, skip);
  let entries = live ? (metaOf(copy(live)).managedFields ?? []) : [];
  if (live && entries.length === 0) {
    // What an object held before its first apply belongs to a manager of its own.
    const before = compareFields({}, live, strategies, skip).changed;
    const key = {
      manager: BEFORE_FIRST_APPLY_MANAGER,
      operation: 'Update' as const,
      apiVersion: request.apiVersion,
    };
    if (!isEmptySet(before)) entries = [entryOf(key, before, request.now)];
  }
  const previous = entries.find((e) => sameManager(e, key));
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
  const merged = mergeApplied(result, withoutSkipped(applied, skip), [], strategies) as KubeObject;

  const changes = compareFields(live ?? {}, merged, strategies, skip);
  const conflicts = others
    .map((e) => ({ entry: e, fields: intersection(fieldsOfEntry(e), changes.changed) }))
    .filter((c) => !isEmptySet(c.fields));
  const unforced = request.force ? [] : conflicts.filter((c) => !allowedByLastApplied(c, request));
  if (unforced.length > 0) throw conflictError(unforced);

  const entry = entryOf(key, owned, request.now);
  // An unchanged field set keeps its time, so that applying the same configuration changes nothing.
  if (
    previous &&
    jsonEqual(previous.fieldsV1, owned) &&
    previous.apiVersion === request.apiVersion
  ) {
    entry.time = previous.time ?? request.now;
  }
  const taken = union(changes.changed, changes.removed);
  const rest = others.map((e) => ({ ...e, fieldsV1: difference(fieldsOfEntry(e), taken) }));
  metaOf(merged).managedFields = tidy([...rest, entry]);
  syncLastApplied(merged, request);
  return merged;
}

/**
 * kubectl's server-side apply keeps an existing client-side apply annotation in step with what it
 * applied, so that a later client-side apply computes its patch from the right configuration.
 */
function syncLastApplied(merged: KubeObject, request: ApplyRequest): void {
  const annotations = metaOf(merged).annotations;
  if (request.manager !== KUBECTL_MANAGER || typeof annotations?.[LAST_APPLIED] !== 'string')
    return;
  const applied = copy(request.applied);
  const appliedMeta = metaOf(applied);
  if (appliedMeta.annotations) delete appliedMeta.annotations[LAST_APPLIED];
  // Encoded as the server's JSON encoder writes it, newline included.
  annotations[LAST_APPLIED] = `${JSON.stringify(sortedKeys(applied))}\n`;
}

/** The value with its maps' keys in order, as Go encodes them. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys(value[key])]),
  );
}

/**
 * kubectl moving from client-side to server-side apply: its conflicts on fields its
 * last-applied-configuration annotation lists are taken without --force-conflicts.
 */
function allowedByLastApplied(conflict: { fields: FieldTree }, request: ApplyRequest): boolean {
  if (request.manager !== KUBECTL_MANAGER || !request.live) return false;
  const text = metaOf(request.live).annotations?.[LAST_APPLIED];
  if (typeof text !== 'string') return false;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(text);
  } catch {
    return false;
  }
  const allowed = fieldsOf(lastApplied, request.strategies, request.skip);
  return isEmptySet(difference(conflict.fields, allowed));
}

/** The 409 kube-apiserver answers, one cause per field, managers named as it prints them. */
function conflictError(
  conflicts: Array<{ entry: ManagedFieldsEntry; fields: FieldTree }>,
): ApiError {
  const found = conflicts.flatMap(({ entry, fields }) =>
    membersOf(fields).map((path) => ({ manager: managerText(entry), field: pathText(path) })),
  );
  let message: string;
  if (found.length === 1) {
    message = `Apply failed with 1 conflict: conflict with ${found[0]!.manager}: ${found[0]!.field}`;
  } else {
    const managers = [...new Set(found.map((c) => c.manager))].sort();
    const lines = managers.flatMap((manager) => [
      `conflicts with ${manager}:`,
      ...found.filter((c) => c.manager === manager).map((c) => `- ${c.field}`),
    ]);
    message = `Apply failed with ${found.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason: 'Conflict',
    details: {
      causes: found.map((c) => ({
        reason: 'FieldManagerConflict',
        message: `conflict with ${c.manager}`,
        field: c.field,
      })),
    },
    code: 409,
  });
}

/** `"kubectl"`, `"kubectl" with subresource "status"`, `"kubectl-edit" using v1`. */
function managerText(entry: ManagedFieldsEntry): string {
  const name = JSON.stringify(entry.manager ?? '');
  if (entry.operation === 'Update') return `${name} using ${entry.apiVersion ?? ''}`;
  if (entry.subresource) return `${name} with subresource ${JSON.stringify(entry.subresource)}`;
  return name;
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
