import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '@paddock/testing';
import { CORE_KINDS, KINDS, type KubeObject, type Workspace } from '@paddock/kube';
import { statusChanged, writeStatusIfChanged } from '../../src/runtime/status.js';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';

describe('status changes', () => {
  const cases: { name: string; old: unknown; next: unknown; changed: boolean }[] = [
    {
      name: 'identical objects',
      old: { a: 1, b: [1, 2] },
      next: { a: 1, b: [1, 2] },
      changed: false,
    },
    {
      name: 'the same keys in another order',
      old: { phase: 'Ready', namespace: { name: 'n', created: true } },
      next: { namespace: { created: true, name: 'n' }, phase: 'Ready' },
      changed: false,
    },
    {
      name: 'an undefined key against a missing one',
      old: { a: 1 },
      next: { a: 1, b: undefined },
      changed: false,
    },
    { name: 'no status against an empty one', old: undefined, next: {}, changed: true },
    { name: 'a changed value', old: { phase: 'Pending' }, next: { phase: 'Ready' }, changed: true },
    { name: 'a key added', old: { a: 1 }, next: { a: 1, b: 2 }, changed: true },
    { name: 'a key removed', old: { a: 1, b: 2 }, next: { a: 1 }, changed: true },
    { name: 'arrays in another order', old: { l: [1, 2] }, next: { l: [2, 1] }, changed: true },
    { name: 'an array against an object', old: { l: [] }, next: { l: {} }, changed: true },
    { name: 'null against a missing key', old: { a: null }, next: {}, changed: true },
    { name: 'a number against its string', old: { n: 1 }, next: { n: '1' }, changed: true },
    {
      name: 'a change deep inside a list of objects',
      old: { conditions: [{ type: 'Ready', status: 'True' }] },
      next: { conditions: [{ type: 'Ready', status: 'False' }] },
      changed: true,
    },
  ];
  for (const { name, old, next, changed } of cases) {
    it(`${changed ? 'sees' : 'ignores'} ${name}`, () => {
      assert.equal(statusChanged(old, next), changed);
      assert.equal(statusChanged(next, old), changed, 'symmetric');
    });
  }
});

describe('writing status', () => {
  const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;
  let cluster: EmbeddedCluster;

  before(async () => {
    cluster = await startEmbeddedCluster();
    await cluster.kube
      .resource<KubeObject>(CORE_KINDS.customResourceDefinition)
      .create(workspaceKind.crd);
    await eventually('the Workspace kind served', async () => {
      try {
        await cluster.kube.resource(workspaceKind).list({ limit: 1 });
        return true;
      } catch {
        return undefined;
      }
    });
  });
  after(async () => {
    await cluster.stop();
  });

  it('writes the status subresource only when the status changed', async () => {
    const workspaces = cluster.kube.resource<Workspace>(workspaceKind);
    await workspaces.create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'alpha' },
      spec: {
        displayName: 'Alpha',
        namespace: { name: 'alpha' },
        anonymousAccess: { enabled: false },
      },
    });
    const status = { phase: 'Pending' as const, observedGeneration: 1 };

    const first = await workspaces.get('alpha');
    assert.equal(await writeStatusIfChanged(workspaces, first, status), true);
    const written = await workspaces.get('alpha');
    assert.deepEqual(written.status, status);

    const reordered = { observedGeneration: 1, phase: 'Pending' as const };
    assert.equal(await writeStatusIfChanged(workspaces, written, reordered), false);
    const unchanged = await workspaces.get('alpha');
    assert.equal(unchanged.metadata?.resourceVersion, written.metadata?.resourceVersion);
  });
});
