import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CoreV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { eventually } from '@paddock/testing';
import { failure, startTestCluster, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;
let core: CoreV1Api;

before(async () => {
  cluster = await startTestCluster();
  core = cluster.admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'life' } } });
});

after(() => cluster.close());

const owned = (name: string, owner?: V1ConfigMap): V1ConfigMap => ({
  metadata: {
    name,
    ...(owner
      ? {
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: owner.metadata!.name!,
              uid: owner.metadata!.uid!,
            },
          ],
        }
      : {}),
  },
});

/** Resolves once the object is gone. */
const gone = (name: string, namespace = 'life') =>
  eventually(`configmap ${name} to be deleted`, async () => {
    try {
      await core.readNamespacedConfigMap({ name, namespace });
      return undefined;
    } catch {
      return true;
    }
  });

describe('deletion', () => {
  it('holds an object while finalizers remain, and removes it with the last one', async () => {
    await core.createNamespacedConfigMap({
      namespace: 'life',
      body: { metadata: { name: 'held', finalizers: ['example.com/a', 'example.com/b'] } },
    });
    await core.deleteNamespacedConfigMap({ name: 'held', namespace: 'life' });
    const deleting = await core.readNamespacedConfigMap({ name: 'held', namespace: 'life' });
    assert.ok(deleting.metadata?.deletionTimestamp instanceof Date);
    assert.equal(deleting.metadata?.deletionGracePeriodSeconds, 0);

    const added = await failure(
      core.patchNamespacedConfigMap(
        {
          name: 'held',
          namespace: 'life',
          body: { metadata: { finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      ),
    );
    assert.equal(added.code, 422);

    await core.patchNamespacedConfigMap(
      { name: 'held', namespace: 'life', body: { metadata: { finalizers: ['example.com/b'] } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.ok(await core.readNamespacedConfigMap({ name: 'held', namespace: 'life' }));
    await core.patchNamespacedConfigMap(
      { name: 'held', namespace: 'life', body: { metadata: { finalizers: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const missing = await failure(
      core.readNamespacedConfigMap({ name: 'held', namespace: 'life' }),
    );
    assert.equal(missing.code, 404);
  });

  it('deletes the dependents of a deleted owner, transitively', async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: 'life', body: owned('owner') });
    const child = await core.createNamespacedConfigMap({
      namespace: 'life',
      body: owned('child', owner),
    });
    await core.createNamespacedConfigMap({ namespace: 'life', body: owned('grandchild', child) });
    await core.createNamespacedConfigMap({ namespace: 'life', body: owned('unrelated') });
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: 'life' });
    await gone('child');
    await gone('grandchild');
    assert.ok(await core.readNamespacedConfigMap({ name: 'unrelated', namespace: 'life' }));
  });

  it('keeps a dependent that another live owner still holds', async () => {
    const first = await core.createNamespacedConfigMap({ namespace: 'life', body: owned('first') });
    const second = await core.createNamespacedConfigMap({
      namespace: 'life',
      body: owned('second'),
    });
    const shared = owned('shared', first);
    shared.metadata!.ownerReferences!.push(owned('x', second).metadata!.ownerReferences![0]!);
    await core.createNamespacedConfigMap({ namespace: 'life', body: shared });
    await core.deleteNamespacedConfigMap({ name: 'first', namespace: 'life' });
    await eventually('the dangling reference to be dropped', async () => {
      const object = await core.readNamespacedConfigMap({ name: 'shared', namespace: 'life' });
      return object.metadata?.ownerReferences?.length === 1 ? object : undefined;
    });
  });

  it('orphans dependents on an Orphan deletion', async () => {
    const owner = await core.createNamespacedConfigMap({
      namespace: 'life',
      body: owned('parent'),
    });
    await core.createNamespacedConfigMap({ namespace: 'life', body: owned('orphan', owner) });
    await core.deleteNamespacedConfigMap({
      name: 'parent',
      namespace: 'life',
      propagationPolicy: 'Orphan',
    });
    await gone('parent');
    const orphan = await core.readNamespacedConfigMap({ name: 'orphan', namespace: 'life' });
    assert.equal(orphan.metadata?.ownerReferences, undefined);
  });

  it('deletes dependents first on a Foreground deletion', async () => {
    const owner = await core.createNamespacedConfigMap({ namespace: 'life', body: owned('front') });
    await core.createNamespacedConfigMap({
      namespace: 'life',
      body: {
        ...owned('behind', owner),
        metadata: { ...owned('behind', owner).metadata, finalizers: ['example.com/hold'] },
      },
    });
    await core.deleteNamespacedConfigMap({
      name: 'front',
      namespace: 'life',
      propagationPolicy: 'Foreground',
    });
    await cluster.settled();
    const waiting = await core.readNamespacedConfigMap({ name: 'front', namespace: 'life' });
    assert.deepEqual(waiting.metadata?.finalizers, ['foregroundDeletion']);
    await core.patchNamespacedConfigMap(
      { name: 'behind', namespace: 'life', body: { metadata: { finalizers: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await gone('behind');
    await gone('front');
  });

  it('deletes everything in a deleted namespace, then the namespace', async () => {
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: owned('a') });
    await core.createNamespacedConfigMap({
      namespace: 'doomed',
      body: { metadata: { name: 'slow', finalizers: ['example.com/hold'] } },
    });
    await core.createNamespacedSecret({ namespace: 'doomed', body: { metadata: { name: 's' } } });
    await core.deleteNamespace({ name: 'doomed' });
    const terminating = await core.readNamespace({ name: 'doomed' });
    assert.equal(terminating.status?.phase, 'Terminating');
    const refused = await failure(
      core.createNamespacedConfigMap({ namespace: 'doomed', body: owned('late') }),
    );
    assert.equal(refused.code, 403);
    assert.equal(
      refused.message,
      'configmaps "late" is forbidden: unable to create new content in namespace doomed because it is being terminated',
    );
    await gone('a', 'doomed');
    await cluster.settled();
    assert.equal((await core.readNamespace({ name: 'doomed' })).status?.phase, 'Terminating');
    await core.patchNamespacedConfigMap(
      { name: 'slow', namespace: 'doomed', body: { metadata: { finalizers: null } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await eventually('the namespace to go', async () => {
      try {
        await core.readNamespace({ name: 'doomed' });
        return undefined;
      } catch {
        return true;
      }
    });
    const secrets = await core.listNamespacedSecret({ namespace: 'doomed' });
    assert.equal(secrets.items.length, 0);
  });

  it('gives every new namespace a default ServiceAccount', async () => {
    await core.createNamespace({ body: { metadata: { name: 'accounts' } } });
    await eventually('the default ServiceAccount', async () => {
      const list = await core.listNamespacedServiceAccount({ namespace: 'accounts' });
      return list.items.some((sa) => sa.metadata?.name === 'default') ? true : undefined;
    });
  });
});
