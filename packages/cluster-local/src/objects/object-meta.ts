import type {
  ManagedFieldsEntry,
  ObjectMeta as KubeObjectMeta,
  OwnerReference,
} from '@paddock/kube';
import type { KubeObject } from '../contracts.js';

/**
 * An object's metadata as the server stores it: Paddock's ObjectMeta, any field of it possibly
 * absent (a name may be generated), and any other field a client sent kept as it came.
 */
export type ObjectMeta = Partial<KubeObjectMeta> & { [field: string]: unknown };

export type { ManagedFieldsEntry, OwnerReference };

/** The object's metadata, created empty when missing. */
export function metaOf(object: KubeObject): ObjectMeta {
  if (!isRecord(object.metadata)) object.metadata = {};
  return object.metadata;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy of plain JSON. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

/** Deep equality of plain JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => jsonEqual(item, other[i]));
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = Object.keys(ra).filter((k) => ra[k] !== undefined);
  if (keys.length !== Object.keys(rb).filter((k) => rb[k] !== undefined).length) return false;
  return keys.every((k) => Object.hasOwn(rb, k) && jsonEqual(ra[k], rb[k]));
}

/** An RFC 3339 timestamp with second precision, as metav1.Time serialises. */
export function timestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
