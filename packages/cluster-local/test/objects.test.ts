import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CoreV1Api,
  EventsV1Api,
  PatchStrategy,
  setHeaderOptions,
  type V1ConfigMap,
  type V1Pod,
} from '@kubernetes/client-node';
import { failure, request, startTestCluster, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;
let core: CoreV1Api;

before(async () => {
  cluster = await startTestCluster();
  core = cluster.admin.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'alpha' } } });
});

after(() => cluster.close());

const configMap = (name: string, labels: Record<string, string> = {}): V1ConfigMap => ({
  metadata: { name, labels },
  data: { name },
});

/** The client's typed objects as plain JSON, to compare with literals. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const pod = (name: string): V1Pod => ({
  metadata: { name },
  spec: {
    containers: [
      {
        name: 'main',
        image: 'busybox',
        env: [
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
    ],
  },
});

describe('objects through @kubernetes/client-node', () => {
  it('creates an object with the metadata the server sets, and gets it back', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'alpha',
      body: configMap('first'),
    });
    assert.match(created.metadata?.uid ?? '', /^[0-9a-f-]{36}$/);
    assert.match(created.metadata?.resourceVersion ?? '', /^\d+$/);
    assert.ok(created.metadata?.creationTimestamp instanceof Date);
    // ConfigMaps carry no generation, as in kube-apiserver.
    assert.equal(created.metadata?.generation, undefined);
    const read = await core.readNamespacedConfigMap({ name: 'first', namespace: 'alpha' });
    assert.deepEqual(read.data, { name: 'first' });
    assert.equal(read.metadata?.resourceVersion, created.metadata?.resourceVersion);

    const again = await failure(
      core.createNamespacedConfigMap({ namespace: 'alpha', body: configMap('first') }),
    );
    assert.equal(again.code, 409);
    assert.equal(again.reason, 'AlreadyExists');
    assert.equal(again.message, 'configmaps "first" already exists');
  });

  it('names an object from generateName', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'alpha',
      body: { metadata: { generateName: 'gen-' } },
    });
    assert.match(created.metadata?.name ?? '', /^gen-[a-z0-9]{5}$/);
  });

  it('answers NotFound for a missing object or namespace, as Kubernetes words it', async () => {
    const missing = await failure(
      core.readNamespacedConfigMap({ name: 'nope', namespace: 'alpha' }),
    );
    assert.deepEqual(missing, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "nope" not found',
      reason: 'NotFound',
      details: { name: 'nope', kind: 'configmaps' },
      code: 404,
    });
    const noNamespace = await failure(
      core.createNamespacedConfigMap({ namespace: 'nowhere', body: configMap('x') }),
    );
    assert.equal(noNamespace.code, 404);
    assert.equal(noNamespace.message, 'namespaces "nowhere" not found');
  });

  it('lists by label selector and by field selector', async () => {
    await core.createNamespace({ body: { metadata: { name: 'labels' } } });
    const objects = [
      configMap('web-a', { app: 'web', tier: 'a' }),
      configMap('web-b', { app: 'web', tier: 'b' }),
      configMap('db', { app: 'db', tier: 'c', critical: 'yes' }),
    ];
    for (const body of objects) await core.createNamespacedConfigMap({ namespace: 'labels', body });
    // Every namespace also has kube-root-ca.crt (the root CA publisher's), left out here.
    const names = async (labelSelector?: string, fieldSelector?: string) =>
      (
        await core.listNamespacedConfigMap({ namespace: 'labels', labelSelector, fieldSelector })
      ).items
        .map((item) => item.metadata?.name)
        .filter((name) => name !== 'kube-root-ca.crt');
    assert.deepEqual(await names('app=web'), ['web-a', 'web-b']);
    assert.deepEqual(await names('app==web,tier!=a'), ['web-b']);
    assert.deepEqual(await names('tier in (a, c)'), ['db', 'web-a']);
    assert.deepEqual(await names('tier notin (a)'), ['db', 'web-b']);
    assert.deepEqual(await names('critical'), ['db']);
    assert.deepEqual(await names('!critical,app'), ['web-a', 'web-b']);
    assert.deepEqual(await names(undefined, 'metadata.name=db'), ['db']);
    assert.deepEqual(await names('app=web', 'metadata.name!=web-a'), ['web-b']);

    const all = await core.listConfigMapForAllNamespaces({
      fieldSelector: 'metadata.namespace=labels,metadata.name!=kube-root-ca.crt',
    });
    assert.equal(all.items.length, 3);

    const unsupported = await failure(
      core.listNamespacedConfigMap({ namespace: 'labels', fieldSelector: 'data.name=db' }),
    );
    assert.equal(unsupported.code, 400);
    assert.equal(unsupported.message, 'field label not supported: data.name');
  });

  it('selects pods and events by their own fields', async () => {
    await core.createNamespacedPod({ namespace: 'alpha', body: pod('runner') });
    await core.replaceNamespacedPodStatus({
      name: 'runner',
      namespace: 'alpha',
      body: { ...pod('runner'), status: { phase: 'Running' } },
    });
    const running = await core.listNamespacedPod({
      namespace: 'alpha',
      fieldSelector: 'status.phase=Running',
    });
    assert.deepEqual(
      running.items.map((p) => p.metadata?.name),
      ['runner'],
    );
    await core.createNamespacedEvent({
      namespace: 'alpha',
      body: {
        metadata: { name: 'runner.1' },
        involvedObject: { kind: 'Pod', name: 'runner', namespace: 'alpha' },
        reason: 'Started',
        message: 'started',
        type: 'Normal',
      },
    });
    const events = await core.listNamespacedEvent({
      namespace: 'alpha',
      fieldSelector: 'involvedObject.name=runner,involvedObject.kind=Pod',
    });
    assert.deepEqual(
      events.items.map((e) => e.reason),
      ['Started'],
    );
  });

  it('serves the same Events through core/v1 and events.k8s.io/v1', async () => {
    const events = cluster.admin.makeApiClient(EventsV1Api);
    await events.createNamespacedEvent({
      namespace: 'alpha',
      body: {
        metadata: { name: 'modern' },
        eventTime: new Date(),
        regarding: { kind: 'Pod', name: 'runner', namespace: 'alpha' },
        note: 'pulled the image',
        reason: 'Pulled',
        reportingController: 'example.com/kubelet',
        reportingInstance: 'node-1',
        action: 'Pull',
        type: 'Normal',
      },
    });
    const core1 = await core.readNamespacedEvent({ name: 'modern', namespace: 'alpha' });
    assert.equal(core1.message, 'pulled the image');
    assert.equal(core1.involvedObject.name, 'runner');
    assert.equal(core1.reportingComponent, 'example.com/kubelet');
    const back = await events.readNamespacedEvent({ name: 'runner.1', namespace: 'alpha' });
    assert.equal(back.note, 'started');
    assert.equal(back.regarding?.kind, 'Pod');
  });

  it('pages through a list with limit and continue', async () => {
    await core.createNamespace({ body: { metadata: { name: 'pages' } } });
    // The root CA publisher's kube-root-ca.crt is listed too, once it is there.
    await cluster.settled();
    for (let i = 0; i < 5; i++) {
      await core.createNamespacedConfigMap({ namespace: 'pages', body: configMap(`cm-${i}`) });
    }
    const seen: string[] = [];
    let token: string | undefined;
    let pages = 0;
    do {
      const page = await core.listNamespacedConfigMap({
        namespace: 'pages',
        limit: 2,
        _continue: token,
      });
      seen.push(...page.items.map((item) => item.metadata!.name!));
      token = page.metadata?._continue;
      if (token) assert.equal(page.metadata?.remainingItemCount, 6 - seen.length);
      pages++;
    } while (token);
    assert.equal(pages, 3);
    assert.deepEqual(seen, ['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4', 'kube-root-ca.crt']);
  });

  it('refuses a continue token older than the change log with 410', async () => {
    const small = await startTestCluster({ changeLogSize: 3 });
    try {
      const api = small.admin.makeApiClient(CoreV1Api);
      for (let i = 0; i < 3; i++) {
        await api.createNamespacedConfigMap({ namespace: 'default', body: configMap(`cm-${i}`) });
      }
      const first = await api.listNamespacedConfigMap({ namespace: 'default', limit: 1 });
      for (let i = 3; i < 10; i++) {
        await api.createNamespacedConfigMap({ namespace: 'default', body: configMap(`cm-${i}`) });
      }
      const expired = await failure(
        api.listNamespacedConfigMap({
          namespace: 'default',
          limit: 1,
          _continue: first.metadata?._continue,
        }),
      );
      assert.equal(expired.code, 410);
      assert.equal(expired.reason, 'Expired');
    } finally {
      await small.close();
    }
  });

  it('refuses an update with a stale resourceVersion with 409 Conflict', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'alpha',
      body: configMap('contended'),
    });
    await core.replaceNamespacedConfigMap({
      name: 'contended',
      namespace: 'alpha',
      body: { ...created, data: { first: 'writer' } },
    });
    const stale = await failure(
      core.replaceNamespacedConfigMap({
        name: 'contended',
        namespace: 'alpha',
        body: { ...created, data: { second: 'writer' } },
      }),
    );
    assert.deepEqual(stale, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'Operation cannot be fulfilled on configmaps "contended": the object has been modified; please apply your changes to the latest version and try again',
      reason: 'Conflict',
      details: { name: 'contended', kind: 'configmaps' },
      code: 409,
    });
  });

  it('leaves the resourceVersion alone when an update changes nothing', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace: 'alpha',
      body: configMap('steady'),
    });
    const replaced = await core.replaceNamespacedConfigMap({
      name: 'steady',
      namespace: 'alpha',
      body: created,
    });
    assert.equal(replaced.metadata?.resourceVersion, created.metadata?.resourceVersion);
  });

  it('applies JSON merge, JSON and strategic merge patches', async () => {
    await core.createNamespacedPod({ namespace: 'alpha', body: pod('patched') });
    const strategic = await core.patchNamespacedPod(
      {
        name: 'patched',
        namespace: 'alpha',
        body: {
          metadata: { labels: { patched: 'yes' } },
          spec: {
            containers: [
              {
                name: 'main',
                env: [
                  { name: 'B', value: 'two' },
                  { name: 'C', value: '3' },
                ],
              },
              { name: 'sidecar', image: 'nginx' },
            ],
          },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    const containers = strategic.spec!.containers;
    assert.deepEqual(
      containers.map((c) => c.name),
      ['main', 'sidecar'],
    );
    assert.equal(containers[0]!.image, 'busybox');
    assert.deepEqual(plain(containers[0]!.env), [
      { name: 'A', value: '1' },
      { name: 'B', value: 'two' },
      { name: 'C', value: '3' },
    ]);

    const deleted = await core.patchNamespacedPod(
      {
        name: 'patched',
        namespace: 'alpha',
        body: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
    );
    assert.deepEqual(
      deleted.spec!.containers.map((c) => c.name),
      ['main'],
    );

    // A JSON merge patch replaces lists whole.
    const merged = await core.patchNamespacedPod(
      {
        name: 'patched',
        namespace: 'alpha',
        body: {
          metadata: { labels: { patched: null, merged: 'yes' } },
          spec: { containers: [{ name: 'only', image: 'alpine' }] },
        },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    assert.deepEqual(merged.metadata?.labels, { merged: 'yes' });
    assert.deepEqual(plain(merged.spec!.containers), [{ name: 'only', image: 'alpine' }]);

    const json = await core.patchNamespacedPod(
      {
        name: 'patched',
        namespace: 'alpha',
        body: [{ op: 'replace', path: '/spec/containers/0/image', value: 'alpine:3' }],
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    );
    assert.equal(json.spec!.containers[0]!.image, 'alpine:3');
    const failed = await failure(
      core.patchNamespacedPod(
        {
          name: 'patched',
          namespace: 'alpha',
          body: [{ op: 'test', path: '/spec/containers/0/image', value: 'nginx' }],
        },
        setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
      ),
    );
    assert.equal(failed.code, 422);
  });

  it('refuses a patch in an unknown media type with 415', async () => {
    const response = await request(cluster, 'PATCH', '/api/v1/namespaces/alpha/configmaps/first', {
      body: {},
      contentType: 'text/plain',
    });
    assert.equal(response.status, 415);
    assert.equal((response.body as { reason: string }).reason, 'UnsupportedMediaType');
  });

  it('keeps pod logs written for a container and serves them with tailLines', async () => {
    await core.createNamespacedPod({ namespace: 'alpha', body: pod('logger') });
    const posted = await request(cluster, 'POST', '/api/v1/namespaces/alpha/pods/logger/log', {
      body: 'one\ntwo\n',
      contentType: 'text/plain',
    });
    assert.equal(posted.status, 201);
    cluster.appendPodLog('alpha', 'logger', undefined, 'three\n');
    assert.equal(
      await core.readNamespacedPodLog({ name: 'logger', namespace: 'alpha' }),
      'one\ntwo\nthree\n',
    );
    assert.equal(
      await core.readNamespacedPodLog({ name: 'logger', namespace: 'alpha', tailLines: 1 }),
      'three\n',
    );
    const wrong = await failure(
      core.readNamespacedPodLog({ name: 'logger', namespace: 'alpha', container: 'other' }),
    );
    assert.equal(wrong.code, 400);
    assert.equal(wrong.message, 'container other is not valid for pod logger');
  });

  it('answers discovery, /version and health like a Kubernetes API server', async () => {
    const version = await request(cluster, 'GET', '/version', { token: null });
    assert.equal(version.status, 200);
    assert.match((version.body as { gitVersion: string }).gitVersion, /^v1\.\d+\.\d+-paddock$/);
    const health = await request(cluster, 'GET', '/readyz', { token: null });
    assert.equal(health.text, 'ok');
    const resources = await request(cluster, 'GET', '/api/v1');
    const list = resources.body as { resources: Array<{ name: string; verbs: string[] }> };
    assert.ok(list.resources.some((r) => r.name === 'pods/log'));
    assert.ok(list.resources.some((r) => r.name === 'serviceaccounts/token'));
    const groups = await request(cluster, 'GET', '/apis');
    assert.ok(
      (groups.body as { groups: Array<{ name: string }> }).groups.some(
        (g) => g.name === 'rbac.authorization.k8s.io',
      ),
    );
    const unauthenticated = await request(cluster, 'GET', '/api/v1/namespaces', { token: 'wrong' });
    assert.equal(unauthenticated.status, 401);
    assert.deepEqual(unauthenticated.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });
});
