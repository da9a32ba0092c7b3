import type { KubeObject } from '../contracts.js';
import { evaluatorFor, storageOf } from './evaluators.js';
import { ZERO } from './quantity.js';
import { addLists, maskList, type ResourceList } from './resource-list.js';
import { quotaCovers } from './scopes.js';

/** The objects of one stored resource in one namespace. */
export type NamespaceObjects = (storage: string, namespace: string) => KubeObject[];

/** What the objects of a resource in a namespace that a quota covers consume together. Pure. */
export function usageUnder(
  quota: KubeObject,
  storage: string,
  objects: KubeObject[],
  now: number,
): ResourceList {
  const evaluator = evaluatorFor(storage);
  let used: ResourceList = new Map();
  for (const object of objects) {
    if (quotaCovers(quota, storage, object)) used = addLists(used, evaluator.usage(object, now));
  }
  return used;
}

/**
 * A quota's status.used: for every hard name some resource consumes, what the namespace uses now
 * (zero when nothing does), as kube-controller-manager's quota controller computes it. Names no
 * resource consumes get no entry.
 */
export function quotaUsed(
  quota: KubeObject,
  hardNames: string[],
  namespace: string,
  objectsOf: NamespaceObjects,
  now: number,
): ResourceList {
  const byStorage = new Map<string, string[]>();
  for (const name of hardNames) {
    const storage = storageOf(name);
    if (storage !== undefined) byStorage.set(storage, [...(byStorage.get(storage) ?? []), name]);
  }
  const used: ResourceList = new Map();
  for (const [storage, names] of byStorage) {
    const usage = maskList(usageUnder(quota, storage, objectsOf(storage, namespace), now), names);
    for (const name of names) used.set(name, usage.get(name) ?? ZERO);
  }
  return used;
}
