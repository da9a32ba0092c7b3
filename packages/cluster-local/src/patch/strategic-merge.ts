import { errors } from '../api/api-error.js';
import { isRecord, jsonEqual } from '../objects/object-meta.js';
import type { ListStrategies, ListStrategy } from './patch-meta.js';

const SET_ORDER = '$setElementOrder/';
const DELETE_FROM = '$deleteFromPrimitiveList/';
const RETAIN_KEYS = '$retainKeys';
const PATCH = '$patch';

/**
 * Kubernetes' strategic merge patch: a JSON merge patch whose lists merge by key where the kind's
 * Go types say so (containers by name, ports by containerPort...), with the directives kubectl
 * sends: `$patch: replace|delete|merge`, `$setElementOrder/<list>`, `$deleteFromPrimitiveList/<list>`
 * and `$retainKeys`.
 */
export function strategicMerge(
  original: unknown,
  patch: unknown,
  strategies: ListStrategies,
): unknown {
  if (!isRecord(patch)) throw errors.badRequest('strategic merge patch must be a JSON object');
  return mergeMap(isRecord(original) ? original : {}, patch, [], strategies) ?? {};
}

function mergeMap(
  original: Record<string, unknown>,
  patch: Record<string, unknown>,
  path: string[],
  strategies: ListStrategies,
): Record<string, unknown> | undefined {
  const directive = patch[PATCH];
  if (directive === 'delete') return undefined;
  if (directive === 'replace') return withoutDirectives(patch);
  if (directive !== undefined && directive !== 'merge') {
    throw errors.badRequest(`Unknown patch directive: ${JSON.stringify(directive)}`);
  }
  const out: Record<string, unknown> = { ...original };
  const retain = patch[RETAIN_KEYS];
  if (Array.isArray(retain)) {
    for (const key of Object.keys(out))
      if (!retain.includes(key) && !(key in patch)) delete out[key];
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key === PATCH || key === RETAIN_KEYS || key.startsWith(SET_ORDER)) continue;
    if (key.startsWith(DELETE_FROM)) {
      const field = key.slice(DELETE_FROM.length);
      const current = out[field];
      if (Array.isArray(current) && Array.isArray(value)) {
        out[field] = current.filter((item) => !value.some((v) => jsonEqual(v, item)));
      }
      continue;
    }
    const childPath = [...path, key];
    if (value === null) {
      delete out[key];
    } else if (isRecord(value)) {
      const merged = mergeMap(isRecord(out[key]) ? out[key] : {}, value, childPath, strategies);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else if (Array.isArray(value)) {
      const strategy = strategies(childPath);
      const current = Array.isArray(out[key]) ? (out[key] as unknown[]) : [];
      out[key] = strategy
        ? mergeList(current, value as unknown[], strategy, childPath, strategies)
        : withoutDirectivesList(value as unknown[]);
    } else {
      out[key] = value;
    }
  }
  // Orders apply last, once every element is merged in.
  for (const [key, order] of Object.entries(patch)) {
    if (!key.startsWith(SET_ORDER) || !Array.isArray(order)) continue;
    const field = key.slice(SET_ORDER.length);
    const list = out[field];
    const strategy = strategies([...path, field]);
    if (Array.isArray(list) && strategy) out[field] = reorder(list, order, strategy);
  }
  return out;
}

function mergeList(
  original: unknown[],
  patch: unknown[],
  strategy: ListStrategy,
  path: string[],
  strategies: ListStrategies,
): unknown[] {
  if (patch.some((item) => isRecord(item) && item[PATCH] === 'replace')) {
    return withoutDirectivesList(
      patch.filter((item) => !(isRecord(item) && item[PATCH] === 'replace')),
    );
  }
  if (strategy.set || !strategy.mergeKey) {
    const out = [...original];
    for (const item of patch) if (!out.some((o) => jsonEqual(o, item))) out.push(item);
    return out;
  }
  const key = strategy.mergeKey;
  const out = [...original];
  for (const item of patch) {
    if (!isRecord(item)) {
      out.push(item);
      continue;
    }
    const at = out.findIndex((o) => isRecord(o) && jsonEqual(o[key], item[key]));
    if (item[PATCH] === 'delete') {
      if (at >= 0) out.splice(at, 1);
      continue;
    }
    if (at < 0) {
      out.push(withoutDirectives(item));
    } else {
      const merged = mergeMap(out[at] as Record<string, unknown>, item, path, strategies);
      if (merged === undefined) out.splice(at, 1);
      else out[at] = merged;
    }
  }
  return out;
}

/** Elements named in `order` first, in that order, then the rest as they were. */
function reorder(list: unknown[], order: unknown[], strategy: ListStrategy): unknown[] {
  const identity = (item: unknown) =>
    strategy.mergeKey && isRecord(item) ? item[strategy.mergeKey] : item;
  const rank = (item: unknown) => {
    const at = order.findIndex((o) => jsonEqual(identity(o), identity(item)));
    return at < 0 ? order.length : at;
  };
  return list
    .map((item, index) => ({ item, index, rank: rank(item) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map((entry) => entry.item);
}

function withoutDirectives(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (
      key === PATCH ||
      key === RETAIN_KEYS ||
      key.startsWith(SET_ORDER) ||
      key.startsWith(DELETE_FROM)
    ) {
      continue;
    }
    if (child === null) continue;
    out[key] = isRecord(child)
      ? withoutDirectives(child)
      : Array.isArray(child)
        ? withoutDirectivesList(child as unknown[])
        : child;
  }
  return out;
}

function withoutDirectivesList(list: unknown[]): unknown[] {
  return list.map((item) => (isRecord(item) ? withoutDirectives(item) : item));
}
