import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CoreV1Api,
  makeInformer,
  Watch,
  type KubernetesObject,
  type V1ConfigMap,
} from '@kubernetes/client-node';
import { eventually } from '@paddock/testing';
import { startTestCluster, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;
let core: CoreV1Api;

before(async () => {
  cluster = await startTestCluster({ bookmarkIntervalMs: 100, changeLogSize: 50 });
  core = cluster.admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'watched' } } });
});

after(() => cluster.close());

interface Seen {
  type: string;
  object: KubernetesObject & { code?: number; reason?: string };
}

/** Watches a path with client-node's Watch, collecting events until stopped. */
async function watch(path: string, query: Record<string, string | number | boolean>) {
  const events: Seen[] = [];
  let ended: unknown = false;
  const controller = await new Watch(cluster.admin).watch(
    path,
    query,
    (type, object) => events.push({ type, object: object as Seen['object'] }),
    (err) => {
      ended = err ?? true;
    },
  );
  return { events, ended: () => ended, stop: () => controller.abort() };
}

const names = (events: Seen[]) => events.map((e) => `${e.type} ${e.object.metadata?.name ?? ''}`);

describe('watch', () => {
  it('streams changes as they happen, filtered by label', async () => {
    const stream = await watch('/api/v1/namespaces/watched/configmaps', {
      labelSelector: 'app=live',
    });
    try {
      await core.createNamespacedConfigMap({
        namespace: 'watched',
        body: { metadata: { name: 'live', labels: { app: 'live' } } },
      });
      await core.createNamespacedConfigMap({
        namespace: 'watched',
        body: { metadata: { name: 'other', labels: { app: 'other' } } },
      });
      await core.replaceNamespacedConfigMap({
        name: 'live',
        namespace: 'watched',
        body: { metadata: { name: 'live', labels: { app: 'live' } }, data: { a: 'b' } },
      });
      // Leaving the selector reads as a deletion.
      await core.replaceNamespacedConfigMap({
        name: 'live',
        namespace: 'watched',
        body: { metadata: { name: 'live', labels: { app: 'gone' } } },
      });
      await eventually('three events', () => (stream.events.length >= 3 ? true : undefined));
      assert.deepEqual(names(stream.events), ['ADDED live', 'MODIFIED live', 'DELETED live']);
    } finally {
      stream.stop();
    }
  });

  it('resumes from a resourceVersion with the changes after it', async () => {
    const first = await core.createNamespacedConfigMap({
      namespace: 'watched',
      body: { metadata: { name: 'resume-1' } },
    });
    await core.createNamespacedConfigMap({
      namespace: 'watched',
      body: { metadata: { name: 'resume-2' } },
    });
    await core.deleteNamespacedConfigMap({ name: 'resume-1', namespace: 'watched' });
    const stream = await watch('/api/v1/namespaces/watched/configmaps', {
      resourceVersion: first.metadata!.resourceVersion!,
    });
    try {
      await eventually('the replayed changes', () =>
        stream.events.length >= 2 ? true : undefined,
      );
      assert.deepEqual(names(stream.events), ['ADDED resume-2', 'DELETED resume-1']);
      const deleted = stream.events[1]!.object;
      assert.ok(
        Number(deleted.metadata?.resourceVersion) > Number(first.metadata?.resourceVersion),
      );
    } finally {
      stream.stop();
    }
  });

  it('answers a resourceVersion older than the change log with 410 Expired', async () => {
    const old = await core.createNamespacedConfigMap({
      namespace: 'watched',
      body: { metadata: { name: 'old' } },
    });
    for (let i = 0; i < 60; i++) {
      await core.createNamespacedConfigMap({
        namespace: 'watched',
        body: { metadata: { name: `churn-${i}` } },
      });
    }
    const stream = await watch('/api/v1/namespaces/watched/configmaps', {
      resourceVersion: old.metadata!.resourceVersion!,
    });
    await eventually('the watch to end', () => (stream.ended() ? true : undefined));
    assert.equal(stream.events.length, 1);
    assert.equal(stream.events[0]!.type, 'ERROR');
    assert.equal(stream.events[0]!.object.code, 410);
    assert.equal(stream.events[0]!.object.reason, 'Expired');
  });

  it('sends bookmarks carrying the current resourceVersion when asked', async () => {
    const stream = await watch('/api/v1/namespaces/watched/configmaps', {
      allowWatchBookmarks: true,
      resourceVersion: String(
        (await core.listNamespacedConfigMap({ namespace: 'watched' })).metadata!.resourceVersion,
      ),
    });
    try {
      await eventually('a bookmark', () =>
        stream.events.some((e) => e.type === 'BOOKMARK') ? true : undefined,
      );
      const bookmark = stream.events.find((e) => e.type === 'BOOKMARK')!;
      assert.equal(bookmark.object.kind, 'ConfigMap');
      assert.match(bookmark.object.metadata?.resourceVersion ?? '', /^\d+$/);
    } finally {
      stream.stop();
    }
  });

  it('ends a watch after timeoutSeconds', async () => {
    const stream = await watch('/api/v1/namespaces/watched/configmaps', {
      timeoutSeconds: 1,
      resourceVersion: '0',
    });
    await eventually('the watch to end', () => (stream.ended() ? true : undefined), 5000);
  });

  it('keeps a client-node informer in step through list and watch', async () => {
    const informer = makeInformer<V1ConfigMap>(
      cluster.admin,
      '/api/v1/namespaces/watched/configmaps',
      () => core.listNamespacedConfigMap({ namespace: 'watched' }),
    );
    await informer.start();
    try {
      await core.createNamespacedConfigMap({
        namespace: 'watched',
        body: { metadata: { name: 'informed' } },
      });
      await eventually('the informer to see the new object', () =>
        informer.get('informed', 'watched') ? true : undefined,
      );
      await core.deleteNamespacedConfigMap({ name: 'informed', namespace: 'watched' });
      await eventually('the informer to see the deletion', () =>
        informer.get('informed', 'watched') ? undefined : true,
      );
    } finally {
      await informer.stop();
    }
  });
});
