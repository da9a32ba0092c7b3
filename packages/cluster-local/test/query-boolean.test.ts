import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { eventually } from '@paddock/testing';
import { queryBoolean } from '../src/query/query-boolean.js';
import { requestInfo } from '../src/server/request-info.js';
import { request, startTestCluster, type TestCluster } from './support/cluster.js';

describe('boolean query parameters', () => {
  it('reads them as kube-apiserver converts them: only 0 and false are false', () => {
    const table: Array<[string, boolean | undefined]> = [
      ['', undefined],
      ['watch=true', true],
      ['watch=True', true],
      ['watch=TRUE', true],
      ['watch=t', true],
      ['watch=1', true],
      ['watch=yes', true],
      ['watch=', true],
      ['watch', true],
      ['watch=false', false],
      ['watch=False', false],
      ['watch=FALSE', false],
      ['watch=fAlSe', false],
      ['watch=0', false],
      // Only the first value counts, as in Go's url.Values conversion.
      ['watch=0&watch=1', false],
      ['watch=True&watch=false', true],
      ['other=true', undefined],
    ];
    for (const [query, expected] of table) {
      assert.equal(queryBoolean(new URLSearchParams(query), 'watch'), expected, query);
    }
  });

  it('decides between list and watch with that reading', () => {
    const verb = (query: string) => {
      const info = requestInfo(
        'GET',
        '/api/v1/namespaces/ns/configmaps',
        new URLSearchParams(query),
      );
      return info.verb;
    };
    assert.deepEqual(['watch=True', 'watch=1', 'watch=t', 'watch=False', 'watch=0', ''].map(verb), [
      'watch',
      'watch',
      'watch',
      'list',
      'list',
      'list',
    ]);
  });
});

describe('boolean query parameters over HTTP', () => {
  let cluster: TestCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await startTestCluster({ bookmarkIntervalMs: 20 });
    core = cluster.admin.makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'flags' } } });
    // The root CA publisher's kube-root-ca.crt is there before any test watches.
    await cluster.settled();
  });
  after(() => cluster.close());

  /** Opens a raw watch and collects its events line by line until `done` says it has enough. */
  async function rawWatch(path: string, done: (events: WatchLine[]) => boolean) {
    const controller = new AbortController();
    const response = await fetch(`${cluster.url}${path}`, {
      headers: { authorization: `Bearer ${cluster.adminToken}` },
      signal: controller.signal,
    });
    const events: WatchLine[] = [];
    const finished = (async () => {
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let buffered = '';
      while (!done(events)) {
        const chunk = await reader.read();
        if (chunk.done) break;
        buffered += decoder.decode(chunk.value as Uint8Array, { stream: true });
        let newline: number;
        while ((newline = buffered.indexOf('\n')) >= 0) {
          events.push(JSON.parse(buffered.slice(0, newline)) as WatchLine);
          buffered = buffered.slice(newline + 1);
        }
      }
      // Aborting, not cancelling the reader: a cancel waits for the server to end the stream.
      controller.abort();
      return events;
    })();
    return { response, finished };
  }

  interface WatchLine {
    type: string;
    object: { metadata?: { name?: string }; kind?: string };
  }

  it('streams a watch asked for with watch=True, as the Python client asks', async () => {
    const list = await core.listNamespacedConfigMap({ namespace: 'flags' });
    const rv = list.metadata!.resourceVersion!;
    const watch = await rawWatch(
      `/api/v1/namespaces/flags/configmaps?watch=True&resourceVersion=${rv}&allowWatchBookmarks=True`,
      (events) =>
        events.some((e) => e.object.metadata?.name === 'second') &&
        events.some((e) => e.type === 'BOOKMARK'),
    );
    assert.equal(watch.response.status, 200);
    await core.createNamespacedConfigMap({
      namespace: 'flags',
      body: { metadata: { name: 'first' } },
    });
    await core.deleteNamespacedConfigMap({ namespace: 'flags', name: 'first' });
    await core.createNamespacedConfigMap({
      namespace: 'flags',
      body: { metadata: { name: 'second' } },
    });
    const events = await watch.finished;
    assert.deepEqual(
      events
        .filter((e) => e.type !== 'BOOKMARK')
        .map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED first', 'DELETED first', 'ADDED second'],
    );
    // allowWatchBookmarks=True is read the same way.
    assert.ok(events.some((e) => e.type === 'BOOKMARK' && e.object.kind === 'ConfigMap'));
  });

  it('watches one object by name with watch=T', async () => {
    await core.createNamespacedConfigMap({
      namespace: 'flags',
      body: { metadata: { name: 'one' } },
    });
    const watch = await rawWatch('/api/v1/namespaces/flags/configmaps/one?watch=T', (events) =>
      events.some((e) => e.type === 'MODIFIED'),
    );
    await core.patchNamespacedConfigMap(
      { namespace: 'flags', name: 'one', body: { data: { a: 'b' } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const events = await watch.finished;
    assert.deepEqual(
      events.map((e) => `${e.type} ${e.object.metadata?.name}`),
      ['ADDED one', 'MODIFIED one'],
    );
  });

  it('answers a list for watch=False and watch=0', async () => {
    for (const value of ['False', '0', 'false', 'FALSE']) {
      const answer = await request(
        cluster,
        'GET',
        `/api/v1/namespaces/flags/configmaps?watch=${value}`,
      );
      assert.equal(answer.status, 200, value);
      assert.equal((answer.body as { kind: string }).kind, 'ConfigMapList', value);
    }
  });

  it('reads orphanDependents=True on a delete', async () => {
    await core.createNamespacedConfigMap({
      namespace: 'flags',
      body: { metadata: { name: 'owner' } },
    });
    const owner = await core.readNamespacedConfigMap({ namespace: 'flags', name: 'owner' });
    await core.createNamespacedConfigMap({
      namespace: 'flags',
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata!.uid! },
          ],
        },
      },
    });
    const answer = await request(
      cluster,
      'DELETE',
      '/api/v1/namespaces/flags/configmaps/owner?orphanDependents=True',
    );
    // Accepted: the object waits on the orphan finalizer, as a real server answers.
    assert.equal(answer.status, 202);
    assert.deepEqual((answer.body as { metadata: { finalizers?: string[] } }).metadata.finalizers, [
      'orphan',
    ]);
    await eventually('the dependent to be orphaned', async () => {
      const dependent = await core.readNamespacedConfigMap({
        namespace: 'flags',
        name: 'dependent',
      });
      return dependent.metadata?.ownerReferences === undefined ? dependent : undefined;
    });
  });
});
