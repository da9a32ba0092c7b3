import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { eventually, tempDir } from '@paddock/testing';
import type { KubeObject } from '../src/contracts.js';
import { decodeContinue } from '../src/query/continue-token.js';
import { memoryPersistence } from '../src/storage/persistence.js';
import { openDatabase, sqlitePersistence } from '../src/storage/sqlite-persistence.js';
import { Store } from '../src/storage/store.js';
import { kubeConfig, request, startTestCluster, type TestCluster } from './support/cluster.js';

const object = (name: string, value: string): KubeObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns' },
  data: { value },
});

const described = (objects: KubeObject[] | undefined) =>
  objects?.map(
    (o) => `${String(o.metadata?.name)}=${String((o['data'] as { value: string }).value)}`,
  );

describe('a list as it was at a version', () => {
  it('undoes the changes since: later objects left out, changed and deleted ones as they were', () => {
    const store = new Store({ persistence: memoryPersistence() });
    for (const name of ['b', 'd', 'f']) store.put('configmaps', object(name, 'old'));
    store.put('configmaps', {
      ...object('x', 'other'),
      metadata: { name: 'x', namespace: 'other' },
    });
    const version = store.resourceVersion;
    store.put('configmaps', object('d', 'new'));
    store.put('configmaps', object('d', 'newer'));
    store.remove('configmaps', 'ns', 'f');
    store.put('configmaps', object('a', 'late'));
    store.put('configmaps', object('e', 'late'));
    store.remove('configmaps', 'ns', 'e');
    store.put('configmaps', object('f', 'again'));
    assert.deepEqual(described(store.listAt('configmaps', 'ns', version)), [
      'b=old',
      'd=old',
      'f=old',
    ]);
    assert.deepEqual(described(store.list('configmaps', 'ns')), [
      'a=late',
      'b=old',
      'd=newer',
      'f=again',
    ]);
    assert.deepEqual(described(store.listAt('configmaps', undefined, version)), [
      'b=old',
      'd=old',
      'f=old',
      'x=other',
    ]);
    assert.deepEqual(
      store.listAt('configmaps', 'ns', version)?.map((o) => o.metadata?.resourceVersion),
      ['1', '2', '3'],
    );
  });

  it('cannot tell once the change log no longer reaches back', () => {
    const store = new Store({ persistence: memoryPersistence(), logSize: 2 });
    store.put('configmaps', object('a', '1'));
    const version = store.resourceVersion;
    store.put('configmaps', object('a', '2'));
    assert.deepEqual(described(store.listAt('configmaps', 'ns', version)), ['a=1']);
    store.put('configmaps', object('a', '3'));
    store.put('configmaps', object('a', '4'));
    assert.equal(store.listAt('configmaps', 'ns', version), undefined);
  });

  it('tells from the logged changes after a restart, and not from before what they hold', async () => {
    const folder = await tempDir('paddock-paging-');
    try {
      const file = join(folder.path, 'cluster.db');
      const first = new Store({ persistence: sqlitePersistence(openDatabase(file)) });
      first.put('configmaps', object('a', 'old'));
      first.put('configmaps', object('b', 'old'));
      first.put('configmaps', object('c', 'old'));
      const version = first.resourceVersion;
      first.put('configmaps', object('a', 'new'));
      first.remove('configmaps', 'ns', 'b');
      first.close();
      const store = new Store({ persistence: sqlitePersistence(openDatabase(file)) });
      try {
        assert.deepEqual(described(store.listAt('configmaps', 'ns', version)), [
          'a=old',
          'b=old',
          'c=old',
        ]);
        // Logged from the start on, so an earlier version still reads: only `a` existed at 1.
        assert.deepEqual(described(store.listAt('configmaps', 'ns', 1)), ['a=old']);
      } finally {
        store.close();
      }
    } finally {
      await folder.remove();
    }
  });
});

describe('paged lists over HTTP', () => {
  let cluster: TestCluster;
  let core: CoreV1Api;
  before(async () => {
    cluster = await startTestCluster();
    core = cluster.admin.makeApiClient(CoreV1Api);
  });
  after(() => cluster.close());

  const TOTAL = 2000;
  const PAGE = 100;
  const WRITES_PER_PAGE = 9;
  const name = (i: number) => `cm-${String(i).padStart(4, '0')}`;

  it('pages 2,000 objects as they were at the first page while another client writes', async () => {
    await core.createNamespace({ body: { metadata: { name: 'paged' } } });
    await cluster.settled();
    const BATCH = 50;
    for (let i = 0; i < TOTAL; i += BATCH) {
      await Promise.all(
        Array.from({ length: BATCH }, (_, j) =>
          core.createNamespacedConfigMap({
            namespace: 'paged',
            body: { metadata: { name: name(i + j) }, data: { version: 'first' } },
          }),
        ),
      );
    }
    const existing = [...Array.from({ length: TOTAL }, (_, i) => name(i)), 'kube-root-ca.crt'];

    // Another client: creates names that sort among the first ones, updates and deletes across the
    // whole range, until the paging is done.
    const writer = kubeConfig(cluster.url, cluster.adminToken).makeApiClient(CoreV1Api);
    let writes = 0;
    let paging = true;
    let firstPageTaken: () => void = () => undefined;
    const firstPage = new Promise<void>((resolve) => (firstPageTaken = resolve));
    const written = (async () => {
      await firstPage;
      for (let round = 0; paging; round++) {
        const target = (round * 37) % TOTAL;
        await writer.createNamespacedConfigMap({
          namespace: 'paged',
          body: { metadata: { name: `${name(target)}-late` }, data: { version: 'late' } },
        });
        await writer.replaceNamespacedConfigMap({
          namespace: 'paged',
          name: name((target + 11) % TOTAL),
          body: { metadata: { name: name((target + 11) % TOTAL) }, data: { version: 'updated' } },
        });
        await writer.deleteNamespacedConfigMap({ namespace: 'paged', name: name(target) });
        writes += 3;
      }
    })();

    const seen = new Map<string, number>();
    let token: string | undefined;
    let listVersion: string | undefined;
    let pages = 0;
    try {
      do {
        const page = await core.listNamespacedConfigMap({
          namespace: 'paged',
          limit: PAGE,
          _continue: token,
        });
        listVersion ??= page.metadata!.resourceVersion!;
        assert.equal(page.metadata!.resourceVersion, listVersion, 'every page is at one version');
        for (const item of page.items) {
          const itemName = item.metadata!.name!;
          seen.set(itemName, (seen.get(itemName) ?? 0) + 1);
          if (itemName !== 'kube-root-ca.crt')
            assert.equal(item.data?.['version'], 'first', itemName);
          assert.ok(Number(item.metadata!.resourceVersion) <= Number(listVersion), itemName);
        }
        token = page.metadata?._continue;
        pages++;
        firstPageTaken();
        // Not a clock: the next page waits for the writer to have changed things since this one.
        const target = pages * WRITES_PER_PAGE;
        await eventually('the other client to write', () => (writes >= target ? true : undefined));
      } while (token);
    } finally {
      paging = false;
      await written;
    }
    assert.equal(pages, Math.ceil(existing.length / PAGE));
    assert.ok(writes >= pages * WRITES_PER_PAGE);
    assert.deepEqual([...seen.keys()].sort(), existing.sort());
    assert.deepEqual(
      [...seen].filter(([, count]) => count !== 1),
      [],
      'every object exactly once',
    );
    const now = await core.listNamespacedConfigMap({ namespace: 'paged' });
    assert.ok(now.items.some((item) => item.metadata!.name!.endsWith('-late')));
  });

  it('answers 410 with a token that goes on inconsistently once the log is outrun', async () => {
    const small = await startTestCluster({ changeLogSize: 3 });
    try {
      const api = small.admin.makeApiClient(CoreV1Api);
      for (let i = 0; i < 4; i++) {
        await api.createNamespacedConfigMap({
          namespace: 'default',
          body: { metadata: { name: `cm-${i}` } },
        });
      }
      await small.settled();
      const first = await api.listNamespacedConfigMap({ namespace: 'default', limit: 2 });
      assert.deepEqual(
        first.items.map((i) => i.metadata!.name),
        ['cm-0', 'cm-1'],
      );
      for (let i = 4; i < 8; i++) {
        await api.createNamespacedConfigMap({
          namespace: 'default',
          body: { metadata: { name: `cm-${i}` } },
        });
      }
      const expired = await request(
        small,
        'GET',
        `/api/v1/namespaces/default/configmaps?limit=2&continue=${first.metadata!._continue!}`,
      );
      assert.equal(expired.status, 410);
      const status = expired.body as {
        reason: string;
        message: string;
        metadata: { continue: string };
      };
      assert.equal(status.reason, 'Expired');
      assert.equal(
        status.message,
        'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
      );
      const inconsistent = decodeContinue(status.metadata.continue);
      assert.deepEqual(inconsistent, { resourceVersion: -1, start: 'default/cm-2' });
      const rest = await api.listNamespacedConfigMap({
        namespace: 'default',
        limit: 100,
        _continue: status.metadata.continue,
      });
      assert.deepEqual(
        rest.items.map((i) => i.metadata!.name),
        ['cm-2', 'cm-3', 'cm-4', 'cm-5', 'cm-6', 'cm-7', 'kube-root-ca.crt'],
      );
      const current = await api.listNamespacedConfigMap({ namespace: 'default' });
      assert.equal(rest.metadata!.resourceVersion, current.metadata!.resourceVersion);
    } finally {
      await small.close();
    }
  });

  it('refuses a continue token that is not one with 400', async () => {
    const token = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cases: Array<[string, string]> = [
      ['not-a-token', 'invalid continue token: continue key is not valid: '],
      [
        token({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }),
        'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
      ],
      [
        token({ v: 'meta.k8s.io/v1', rv: 5, start: '' }),
        'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)',
      ],
      [
        token({ v: 'v2', rv: 5, start: 'a' }),
        'invalid continue token: continue key is not valid: server does not recognize this encoded version v2',
      ],
    ];
    for (const [value, message] of cases) {
      const answer = await request(cluster, 'GET', `/api/v1/configmaps?limit=1&continue=${value}`);
      assert.equal(answer.status, 400, value);
      assert.ok((answer.body as { message: string }).message.startsWith(message), value);
    }
  });
});
