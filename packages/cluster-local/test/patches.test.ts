import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePatch } from '../src/patch/merge-patch.js';
import { ATOMIC_LISTS, builtinListStrategies } from '../src/patch/patch-meta.js';
import { serverSideApply } from '../src/patch/server-side-apply.js';
import { strategicMerge } from '../src/patch/strategic-merge.js';

const pods = builtinListStrategies('Pod');

const pod = {
  metadata: { name: 'p', finalizers: ['a'] },
  spec: {
    containers: [
      { name: 'main', image: 'one', ports: [{ containerPort: 80 }] },
      { name: 'side', image: 'two' },
    ],
    volumes: [{ name: 'data', emptyDir: {} }],
  },
};

describe('JSON merge patch', () => {
  it('merges maps, deletes nulls and replaces lists', () => {
    assert.deepEqual(
      mergePatch({ a: { b: 1, c: 2 }, l: [1, 2] }, { a: { b: null, d: 3 }, l: [3] }),
      {
        a: { c: 2, d: 3 },
        l: [3],
      },
    );
  });
});

describe('strategic merge patch', () => {
  it('merges keyed lists by their merge key and keeps the rest', () => {
    const patched = strategicMerge(
      pod,
      {
        spec: {
          containers: [
            { name: 'side', image: 'three' },
            { name: 'new', image: 'four' },
          ],
        },
      },
      pods,
    ) as typeof pod;
    assert.deepEqual(
      patched.spec.containers.map((c) => `${c.name}:${c.image}`),
      ['main:one', 'side:three', 'new:four'],
    );
  });

  it('follows $patch, $setElementOrder and $deleteFromPrimitiveList', () => {
    const patched = strategicMerge(
      pod,
      {
        metadata: { finalizers: ['b'] },
        spec: {
          containers: [{ name: 'main', $patch: 'delete' }],
          '$setElementOrder/volumes': [{ name: 'cache' }, { name: 'data' }],
          volumes: [{ name: 'cache', emptyDir: {} }],
        },
      },
      pods,
    ) as typeof pod & { metadata: { finalizers: string[] } };
    assert.deepEqual(patched.metadata.finalizers, ['a', 'b']);
    assert.deepEqual(
      patched.spec.containers.map((c) => c.name),
      ['side'],
    );
    assert.deepEqual(
      patched.spec.volumes.map((v) => v.name),
      ['cache', 'data'],
    );
    const removed = strategicMerge(
      patched,
      { metadata: { '$deleteFromPrimitiveList/finalizers': ['a'] } },
      pods,
    ) as { metadata: { finalizers: string[] } };
    assert.deepEqual(removed.metadata.finalizers, ['b']);
    const replaced = strategicMerge(pod, { spec: { $patch: 'replace', containers: [] } }, pods);
    assert.deepEqual((replaced as typeof pod).spec, { containers: [] });
  });

  it('replaces lists without a merge key whole', () => {
    const binding = { subjects: [{ kind: 'User', name: 'a' }] };
    const patched = strategicMerge(
      binding,
      { subjects: [{ kind: 'User', name: 'b' }] },
      builtinListStrategies('RoleBinding'),
    );
    assert.deepEqual(patched, { subjects: [{ kind: 'User', name: 'b' }] });
  });
});

describe('server-side apply', () => {
  const apply = (live: Record<string, unknown> | undefined, applied: Record<string, unknown>) =>
    serverSideApply({
      live,
      applied: structuredClone(applied),
      manager: 'tester',
      apiVersion: 'v1',
      now: '2030-01-01T00:00:00Z',
      strategies: ATOMIC_LISTS,
      skip: [],
    });

  it('records the fields it applies, and applying again changes nothing', () => {
    const config = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', labels: { a: '1' } },
      data: { x: '1' },
    };
    const first = apply(undefined, config);
    const entry = (first.metadata as { managedFields: Array<Record<string, unknown>> })
      .managedFields[0]!;
    assert.equal(entry['manager'], 'tester');
    assert.equal(entry['operation'], 'Apply');
    assert.deepEqual(entry['fieldsV1'], {
      'f:data': { 'f:x': {} },
      'f:metadata': { 'f:labels': { 'f:a': {} } },
    });
    const later = serverSideApply({
      live: first,
      applied: structuredClone(config),
      manager: 'tester',
      apiVersion: 'v1',
      now: '2031-01-01T00:00:00Z',
      strategies: ATOMIC_LISTS,
      skip: [],
    });
    assert.deepEqual(later, first);
  });

  it('removes fields the manager no longer applies, and keeps other fields', () => {
    const live = apply(undefined, { metadata: { name: 'c' }, data: { x: '1', y: '2' } });
    (live['data'] as Record<string, string>)['z'] = 'set by someone else';
    const next = apply(live, { metadata: { name: 'c' }, data: { x: '1' } });
    assert.deepEqual(next['data'], { x: '1', z: 'set by someone else' });
  });
});
