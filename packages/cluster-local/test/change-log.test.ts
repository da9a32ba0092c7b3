import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChangeLog } from '../src/storage/change-log.js';
import type { Change } from '../src/storage/persistence.js';
import { memoryPersistence } from '../src/storage/persistence.js';
import { Store } from '../src/storage/store.js';

const change = (resourceVersion: number): Change => ({
  type: 'ADDED',
  resourceVersion,
  resource: 'configmaps',
  namespace: 'default',
  name: `c${resourceVersion}`,
  object: {},
});

describe('the change log', () => {
  it('replays the changes after a version, and none from before what it keeps', () => {
    const log = new ChangeLog(3, 0);
    for (let v = 1; v <= 5; v++) log.push(change(v));
    assert.equal(log.compactedThrough, 2);
    assert.deepEqual(
      log.since(2)?.map((c) => c.resourceVersion),
      [3, 4, 5],
    );
    assert.deepEqual(log.since(5), []);
    assert.equal(log.since(1), undefined);
  });
});

describe('the store', () => {
  it('numbers every change from one counter and lists in key order', () => {
    const store = new Store({ persistence: memoryPersistence() });
    store.put('configmaps', { metadata: { namespace: 'b', name: 'x' } });
    store.put('configmaps', { metadata: { namespace: 'a', name: 'y' } });
    const removed = store.remove('configmaps', 'b', 'x');
    assert.equal(removed?.metadata?.['resourceVersion'], '3');
    store.put('configmaps', { metadata: { namespace: 'a', name: 'b' } });
    assert.equal(store.resourceVersion, 4);
    assert.deepEqual(
      store.list('configmaps').map((o) => o.metadata?.['name']),
      ['b', 'y'],
    );
    assert.deepEqual(
      store.changesSince(1)?.map((c) => c.type),
      ['ADDED', 'DELETED', 'ADDED'],
    );
  });
});
