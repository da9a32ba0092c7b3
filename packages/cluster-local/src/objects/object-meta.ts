import type { KubeObject } from '../contracts.js';

/** The parts of metav1.ObjectMeta the server reads and writes. */
export interface ObjectMeta {
  name?: string;
  generateName?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
  [field: string]: unknown;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

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
