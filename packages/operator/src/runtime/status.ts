import { sameJson, type KubeObject, type ResourceClient } from '@paddock/kube';

/**
 * Whether two JSON values differ, ignoring key order and keys whose value is undefined (JSON drops
 * them, so the API server never sees them). Array order counts.
 */
export function statusChanged(old: unknown, next: unknown): boolean {
  return !sameJson(old, next);
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
