import { NotFoundError, type KubeObject, type ResourceClient } from '@paddock/kube';
import { covers } from './covers.js';

export type EnsureOutcome = 'created' | 'updated' | 'unchanged';

/** The object, or undefined when it does not exist. */
export async function getIfExists<T extends KubeObject>(
  client: ResourceClient<T>,
  name: string,
  namespace?: string,
): Promise<T | undefined> {
  try {
    return await client.get(name, namespace);
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

/** Deletes the object; one already gone is fine. */
export async function deleteIfExists(
  client: ResourceClient<KubeObject>,
  name: string,
  namespace?: string,
): Promise<boolean> {
  try {
    await client.delete(name, namespace);
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}

/**
 * The existing object with the desired one laid over it: its labels and annotations merged (keys
 * set by others survive), every other top-level field of `desired` replacing the existing one.
 */
export function mergeInto<T extends KubeObject>(existing: T, desired: T): T {
  return {
    ...existing,
    ...desired,
    metadata: {
      ...existing.metadata,
      labels: { ...existing.metadata?.labels, ...desired.metadata?.labels },
      annotations: { ...existing.metadata?.annotations, ...desired.metadata?.annotations },
    },
  };
}

/**
 * Makes the object hold what `desired` says, writing only when it does not already: create when
 * absent, replace when it differs. `existing` may be passed when the caller already read it.
 */
export async function ensureObject<T extends KubeObject>(
  client: ResourceClient<T>,
  desired: T,
  existing?: T | null,
): Promise<EnsureOutcome> {
  const name = desired.metadata?.name ?? '';
  const namespace = desired.metadata?.namespace;
  const current =
    existing === undefined ? await getIfExists(client, name, namespace) : (existing ?? undefined);
  if (current === undefined) {
    // One created meanwhile fails with AlreadyExistsError, and the retry compares against it.
    await client.create(desired);
    return 'created';
  }
  if (covers(current, desired)) return 'unchanged';
  await client.replace(mergeInto(current, desired));
  return 'updated';
}
