import type { FieldError } from '../contracts.js';
import { duplicate, required } from './field-errors.js';
import { childPath, indexPath } from './field-path.js';
import { isJsonObject, ownField, type Schema } from './schema.js';

/**
 * The invariants of `x-kubernetes-list-type`: a set holds no value twice, a map no two items with the
 * same `x-kubernetes-list-map-keys` (each item must carry them). Atomic lists have none.
 */
export function listTypeErrors(list: unknown[], schema: Schema, path: string): FieldError[] {
  const listType = schema['x-kubernetes-list-type'];
  if (listType === 'set') return duplicates(list, path, (item) => item);
  if (listType !== 'map') return [];
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const errors: FieldError[] = [];
  list.forEach((item, index) => {
    if (!isJsonObject(item)) return;
    for (const key of keys) {
      if (!Object.hasOwn(item, key)) errors.push(required(childPath(indexPath(path, index), key)));
    }
  });
  if (errors.length > 0) return errors;
  return duplicates(list, path, (item) => mapKey(item, keys));
}

/** An item's keys, as the object Kubernetes quotes in its duplicate error. */
export function mapKey(
  item: unknown,
  keys: readonly string[],
): Record<string, unknown> | undefined {
  if (!isJsonObject(item)) return undefined;
  return Object.fromEntries(keys.map((key) => [key, ownField(item, key) ?? null]));
}

function duplicates(
  list: unknown[],
  path: string,
  identity: (item: unknown) => unknown,
): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  list.forEach((item, index) => {
    const id = identity(item);
    if (id === undefined) return;
    const text = canonicalJson(id);
    if (seen.has(text)) errors.push(duplicate(indexPath(path, index), id));
    else seen.add(text);
  });
  return errors;
}

/** JSON with object keys sorted, so equal values have equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
