import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import type { StoredChange } from '../storage/store.js';
import { evaluatorFor } from './evaluators.js';
import { addLists, subtractListsAtLeastZero, type ResourceList } from './resource-list.js';
import { quotaCovers } from './scopes.js';

interface Sum {
  quota: KubeObject;
  /** The quota's spec the sum was made for: its scopes decide what it covers. */
  spec: string;
  used: ResourceList;
}

/**
 * What a quota's covered objects of one resource use, summed once and then kept up to date from
 * the store's changes: without it every create under a quota would add up the whole namespace
 * again. The store tells of each change synchronously, as it commits, so the next admission never
 * reads a stale sum. Pods are always summed anew: their usage also changes with time (a
 * deletion's grace running out).
 */
export class UsageCache {
  /** `namespace/resource` → quota (uid) → its sum. */
  private readonly sums = new Map<string, Map<string, Sum>>();

  constructor(
    private readonly compute: (quota: KubeObject, storage: string) => ResourceList,
    private readonly now: () => number,
  ) {}

  used(quota: KubeObject, storage: string): ResourceList {
    if (storage === 'pods') return this.compute(quota, storage);
    const meta = metaOf(quota);
    const place = `${meta.namespace ?? ''}/${storage}`;
    const key = meta.uid ?? meta.name ?? '';
    // Its status changes with every write it counts; only its spec changes what it covers.
    const spec = JSON.stringify(quota['spec'] ?? null);
    let byQuota = this.sums.get(place);
    if (byQuota === undefined) {
      byQuota = new Map();
      this.sums.set(place, byQuota);
    }
    let sum = byQuota.get(key);
    if (sum === undefined || sum.spec !== spec) {
      sum = { quota, spec, used: this.compute(quota, storage) };
      byQuota.set(key, sum);
    }
    return sum.used;
  }

  /** A committed change: the sums of its resource and namespace follow it. */
  changed(change: StoredChange): void {
    // A quota gone takes its sums with it.
    if (change.resource === 'resourcequotas' && change.type === 'DELETED') {
      const uid = metaOf(change.object).uid ?? change.name;
      for (const [place, byQuota] of this.sums) {
        if (place.startsWith(`${change.namespace}/`)) byQuota.delete(uid);
      }
    }
    const place = `${change.namespace}/${change.resource}`;
    const byQuota = this.sums.get(place);
    if (byQuota === undefined) return;
    // Without the object as it was, a sum cannot be moved: it is made again when next asked.
    if (change.type !== 'ADDED' && change.previous === undefined) {
      this.sums.delete(place);
      return;
    }
    const evaluator = evaluatorFor(change.resource);
    const now = this.now();
    for (const sum of byQuota.values()) {
      const before = change.type === 'ADDED' ? undefined : change.previous;
      const after = change.type === 'DELETED' ? undefined : change.object;
      if (before && quotaCovers(sum.quota, change.resource, before)) {
        sum.used = subtractListsAtLeastZero(sum.used, evaluator.usage(before, now));
      }
      if (after && quotaCovers(sum.quota, change.resource, after)) {
        sum.used = addLists(sum.used, evaluator.usage(after, now));
      }
    }
  }
}
