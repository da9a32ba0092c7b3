import type { KubeObject, ResourceClient } from '@paddock/kube';

/**
 * Whether two JSON values differ, ignoring key order and keys whose value is undefined (JSON drops
 * them, so the API server never sees them). Array order counts.
 */
export function statusChanged(old: unknown, next: unknown): boolean {
  return !sameJson(old, next);
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keysA = definedKeys(a);
  const keysB = definedKeys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}

/**
 * Writes the status subresource only when it changed from the object's, so a steady-state pass
 * costs no write. Returns whether it wrote; a ConflictError (the object moved on) is the caller's to
 * retry.
 */
export async function writeStatusIfChanged<T extends KubeObject & { status?: unknown }>(
  client: ResourceClient<T>,
  object: T,
  nextStatus: T['status'],
): Promise<boolean> {
  if (!statusChanged(object.status, nextStatus)) return false;
  await client.replaceStatus({ ...object, status: nextStatus });
  return true;
}
