import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CoreV1Api, DiscoveryV1Api, Watch } from '@kubernetes/client-node';
import { eventually, tempDir } from '@paddock/testing';
import { failure, request, startTestCluster, type TestCluster } from './support/cluster.js';

const run = promisify(execFile);

let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let kubeconfigPath: string;
let core: CoreV1Api;
let discovery: DiscoveryV1Api;

before(async () => {
  folder = await tempDir('paddock-endpoints-');
  kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath });
  core = cluster.admin.makeApiClient(CoreV1Api);
  discovery = cluster.admin.makeApiClient(DiscoveryV1Api);
  await core.createNamespace({ body: { metadata: { name: 'routes' } } });
});

after(async () => {
  await cluster.close();
  await folder.remove();
});

async function kubectl(...args: string[]): Promise<string> {
  const { stdout } = await run(
    'kubectl',
    ['--kubeconfig', kubeconfigPath, '--cache-dir', join(folder.path, 'cache'), ...args],
    { env: { ...process.env, HOME: folder.path } },
  );
  return stdout;
}

const address = (ip: string) => ({ ip });

describe('endpoints and EndpointSlices', () => {
  it('are in discovery as kube-apiserver lists them', async () => {
    const core = await request(cluster, 'GET', '/api/v1');
    const endpoints = (core.body as { resources: Array<Record<string, unknown>> }).resources.find(
      (r) => r['name'] === 'endpoints',
    );
    assert.deepEqual(
      { ...endpoints, verbs: (endpoints?.['verbs'] as string[]).sort() },
      {
        ...endpoints,
        kind: 'Endpoints',
        namespaced: true,
        singularName: 'endpoints',
        shortNames: ['ep'],
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      },
    );
    const group = await request(cluster, 'GET', '/apis/discovery.k8s.io/v1');
    const slices = (group.body as { resources: Array<Record<string, unknown>> }).resources.find(
      (r) => r['name'] === 'endpointslices',
    );
    assert.equal(slices?.['kind'], 'EndpointSlice');
    assert.equal(slices?.['namespaced'], true);
  });

  it('are created, read, updated, watched and deleted', async () => {
    const events: string[] = [];
    const watching = await new Watch(cluster.admin).watch(
      '/apis/discovery.k8s.io/v1/namespaces/routes/endpointslices',
      {},
      (type, object: { metadata: { name: string } }) =>
        events.push(`${type} ${object.metadata.name}`),
      () => undefined,
    );
    try {
      await core.createNamespacedEndpoints({
        namespace: 'routes',
        body: {
          metadata: { name: 'web' },
          subsets: [{ addresses: [address('10.0.0.1')], ports: [{ port: 80, protocol: 'TCP' }] }],
        },
      });
      const read = await core.readNamespacedEndpoints({ namespace: 'routes', name: 'web' });
      assert.equal(read.subsets?.[0]?.addresses?.[0]?.ip, '10.0.0.1');
      read.subsets[0].addresses.push(address('10.0.0.2'));
      const updated = await core.replaceNamespacedEndpoints({
        namespace: 'routes',
        name: 'web',
        body: read,
      });
      assert.equal(updated.subsets?.[0]?.addresses?.length, 2);

      await discovery.createNamespacedEndpointSlice({
        namespace: 'routes',
        body: {
          metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'web' } },
          addressType: 'IPv4',
          endpoints: [{ addresses: ['10.0.0.1'], conditions: { ready: true } }],
          ports: [{ name: 'http', port: 80, protocol: 'TCP' }],
        },
      });
      const slices = await discovery.listNamespacedEndpointSlice({
        namespace: 'routes',
        labelSelector: 'kubernetes.io/service-name=web',
      });
      assert.deepEqual(
        slices.items.map((s) => s.metadata?.name),
        ['web-abc'],
      );
      await discovery.deleteNamespacedEndpointSlice({ namespace: 'routes', name: 'web-abc' });
      await eventually('the watch to see the slice come and go', () =>
        events.length === 2 ? events : undefined,
      );
      assert.deepEqual(events, ['ADDED web-abc', 'DELETED web-abc']);

      await core.deleteNamespacedEndpoints({ namespace: 'routes', name: 'web' });
      const gone = await failure(
        core.readNamespacedEndpoints({ namespace: 'routes', name: 'web' }),
      );
      assert.equal(gone.code, 404);
      assert.equal(gone.message, 'endpoints "web" not found');
    } finally {
      watching.abort();
    }
  });

  it('let kubectl apply --prune with its default prune list', async () => {
    const dir = join(folder.path, 'manifests');
    await mkdir(dir);
    const configMap = (name: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: routes\n  labels:\n    app: x\ndata:\n  name: ${name}\n`;
    await writeFile(join(dir, 'kept.yaml'), configMap('kept'));
    await writeFile(join(dir, 'dropped.yaml'), configMap('dropped'));
    await writeFile(
      join(dir, 'endpoints.yaml'),
      'apiVersion: v1\nkind: Endpoints\nmetadata:\n  name: x-endpoints\n  namespace: routes\n  labels:\n    app: x\nsubsets: []\n',
    );
    const first = await kubectl('apply', '--prune', '-l', 'app=x', '-f', dir);
    assert.deepEqual(first.trim().split('\n').sort(), [
      'configmap/dropped created',
      'configmap/kept created',
      'endpoints/x-endpoints created',
    ]);
    await rm(join(dir, 'dropped.yaml'));
    await rm(join(dir, 'endpoints.yaml'));
    const second = await kubectl('apply', '--prune', '-l', 'app=x', '-f', dir);
    assert.deepEqual(second.trim().split('\n').sort(), [
      'configmap/dropped pruned',
      'configmap/kept unchanged',
      'endpoints/x-endpoints pruned',
    ]);
    const left = await kubectl(
      'get',
      'configmaps,endpoints',
      '-n',
      'routes',
      '-l',
      'app=x',
      '-o',
      'name',
    );
    assert.equal(left.trim(), 'configmap/kept');
  });
});
