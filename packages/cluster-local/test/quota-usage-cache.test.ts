import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../src/contracts.js';
import { usageUnder } from '../src/quota/namespace-usage.js';
import { listText } from '../src/quota/resource-list.js';
import { UsageCache } from '../src/quota/usage-cache.js';
import type { StoredChange } from '../src/storage/store.js';

/** The cache's sums against a recount after each change: they must always agree. */

const quota = (hard: Record<string, string>): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ResourceQuota',
  metadata: { name: 'q', namespace: 'ns', uid: 'q-uid' },
  spec: { hard },
});
const configMap = (name: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
});

describe('the quota usage cache', () => {
  it('follows creates, changes and deletes, and a new spec, as a recount would', () => {
    const objects = new Map<string, KubeObject>();
    let computed = 0;
    const cache = new UsageCache(
      (q, storage) => {
        computed++;
        return usageUnder(q, storage, [...objects.values()], 0);
      },
      () => 0,
    );
    const commit = (change: Omit<StoredChange, 'resourceVersion' | 'resource' | 'namespace'>) => {
      if (change.type === 'DELETED') objects.delete(change.name);
      else objects.set(change.name, change.object);
      cache.changed({ ...change, resourceVersion: 0, resource: 'configmaps', namespace: 'ns' });
    };
    const limits = quota({ configmaps: '10', 'count/configmaps': '10' });
    const recount = (q: KubeObject) =>
      listText(usageUnder(q, 'configmaps', [...objects.values()], 0));
    const cached = (q: KubeObject) => listText(cache.used(q, 'configmaps'));

    assert.equal(cached(limits), recount(limits));
    commit({ type: 'ADDED', name: 'a', object: configMap('a') });
    commit({ type: 'ADDED', name: 'b', object: configMap('b') });
    assert.equal(cached(limits), 'configmaps=2,count/configmaps=2');
    commit({ type: 'MODIFIED', name: 'a', object: configMap('a'), previous: configMap('a') });
    commit({ type: 'DELETED', name: 'b', object: configMap('b'), previous: configMap('b') });
    assert.equal(cached(limits), recount(limits));
    assert.equal(computed, 1, 'summed once, then moved by the changes');
    // A change without the object as it was: summed again when next asked.
    commit({ type: 'DELETED', name: 'a', object: configMap('a') });
    assert.equal(cached(limits), recount(limits));
    assert.equal(computed, 2);
    // Another spec (its scopes may cover other objects): summed again.
    const wider = quota({ configmaps: '20' });
    assert.equal(cached(wider), recount(wider));
    assert.equal(computed, 3);
  });
});
