import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Watch, type KubernetesObject } from '@kubernetes/client-node';
import { eventually, tempDir } from '@paddock/testing';
import { parse } from 'yaml';
import { request, startTestCluster, type TestCluster } from './support/cluster.js';
import { kubectlIn } from './support/kubectl.js';

const GADGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
    - name: v1
      served: true
      storage: true
      subresources: {status: {}}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: integer}
                color: {type: string, default: red}
            status:
              type: object
              properties:
                observedGeneration: {type: integer}
`;

const gadget = (namespace: string, size: number) => `apiVersion: example.com/v1
kind: Gadget
metadata:
  name: gear
  namespace: ${namespace}
spec:
  size: ${size}
`;

const configMap = (namespace: string, value: string) => `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: ${namespace}
data:
  key: ${value}
`;

interface Entry {
  manager: string;
  operation: string;
  apiVersion: string;
  time: string;
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

interface Written {
  metadata: {
    resourceVersion: string;
    generation?: number;
    managedFields?: Entry[];
    annotations?: Record<string, string>;
  };
  data?: Record<string, string>;
  spec?: Record<string, unknown>;
}

describe('writes through kubectl, as kube-apiserver records them', () => {
  let cluster: TestCluster;
  let folder: Awaited<ReturnType<typeof tempDir>>;
  let kubectl: ReturnType<typeof kubectlIn>;

  before(async () => {
    folder = await tempDir('paddock-writes-');
    const kubeconfigPath = join(folder.path, 'kubeconfig');
    cluster = await startTestCluster({ kubeconfigPath });
    kubectl = kubectlIn(folder.path, kubeconfigPath);
    await kubectl.ok('apply', '-f', await kubectl.manifest('crd.yaml', GADGET_CRD));
    await eventually('the Gadget kind served', async () =>
      (await kubectl.kubectl('get', 'gadgets', '-A')).code === 0 ? true : undefined,
    );
  });

  after(async () => {
    await cluster.close();
    await folder.remove();
  });

  const read = async (...target: string[]): Promise<Written> =>
    JSON.parse(
      await kubectl.ok('get', ...target, '-o', 'json', '--show-managed-fields'),
    ) as Written;

  it('re-applies a custom resource with a defaulted field and changes nothing', async () => {
    await kubectl.ok('create', 'namespace', 'reapply');
    const file = await kubectl.manifest('gadget.yaml', gadget('reapply', 3));
    await kubectl.ok('apply', '-f', file);
    const first = await read('gadget', 'gear', '-n', 'reapply');
    assert.equal(first.metadata.generation, 1);
    assert.equal(first.spec?.['color'], 'red');

    assert.match(await kubectl.ok('apply', '-f', file), /gadget\.example\.com\/gear unchanged/);
    const diff = await kubectl.kubectl('diff', '-f', file);
    assert.deepEqual([diff.code, diff.stdout], [0, '']);
    // A merge patch that removes a defaulted field: the default comes back, nothing changes.
    const patched = await kubectl.ok(
      ...['patch', 'gadget', 'gear', '-n', 'reapply', '--type', 'merge'],
      ...['-p', '{"spec":{"color":null}}'],
    );
    assert.match(patched, /patched \(no change\)/);
    const again = await read('gadget', 'gear', '-n', 'reapply');
    assert.equal(again.metadata.resourceVersion, first.metadata.resourceVersion);
    assert.equal(again.metadata.generation, 1);

    await kubectl.ok('label', 'gadget', 'gear', '-n', 'reapply', 'team=a');
    const labelled = await read('gadget', 'gear', '-n', 'reapply');
    assert.equal(labelled.metadata.generation, 1, 'metadata changes leave generation');
    assert.notEqual(labelled.metadata.resourceVersion, first.metadata.resourceVersion);

    await kubectl.ok('apply', '-f', await kubectl.manifest('gadget.yaml', gadget('reapply', 4)));
    const resized = await read('gadget', 'gear', '-n', 'reapply');
    assert.equal(resized.metadata.generation, 2);
  });

  it('gives a ConfigMap no generation, and records kubectl-create and kubectl-label Updates', async () => {
    await kubectl.ok('create', 'namespace', 'recorded');
    await kubectl.ok('create', 'configmap', 'notes', '-n', 'recorded', '--from-literal=key=one');
    await kubectl.ok('label', 'configmap', 'notes', '-n', 'recorded', 'team=a');
    const notes = await read('configmap', 'notes', '-n', 'recorded');
    assert.equal(notes.metadata.generation, undefined);
    const entries = (notes.metadata.managedFields ?? []).map((e) => ({
      manager: e.manager,
      operation: e.operation,
      apiVersion: e.apiVersion,
      fieldsV1: e.fieldsV1,
    }));
    assert.deepEqual(entries, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsV1: { 'f:data': { '.': {}, 'f:key': {} } },
      },
      {
        manager: 'kubectl-label',
        operation: 'Update',
        apiVersion: 'v1',
        fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:team': {} } } },
      },
    ]);
    for (const entry of notes.metadata.managedFields ?? []) {
      assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  it('refuses a second applier a field kubectl applied, until it forces', async () => {
    await kubectl.ok('create', 'namespace', 'contested');
    await kubectl.ok(
      ...['apply', '--server-side', '-f'],
      await kubectl.manifest('first.yaml', configMap('contested', 'one')),
    );
    const second = await kubectl.manifest('second.yaml', configMap('contested', 'two'));
    const refused = await kubectl.kubectl(
      ...['apply', '--server-side', '--field-manager=other', '-f', second],
    );
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /Apply failed with 1 conflict: conflict with "kubectl": \.data\.key\n/,
    );
    assert.equal((await read('configmap', 'settings', '-n', 'contested')).data?.['key'], 'one');

    const forced = await kubectl.ok(
      ...['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', second],
    );
    assert.match(forced, /configmap\/settings serverside-applied/);
    const settings = await read('configmap', 'settings', '-n', 'contested');
    assert.equal(settings.data?.['key'], 'two');
    assert.deepEqual(
      (settings.metadata.managedFields ?? []).map((e) => [e.manager, e.operation, e.fieldsV1]),
      [['other', 'Apply', { 'f:data': { 'f:key': {} } }]],
    );
  });

  it('moves from client-side to server-side apply without conflicts', async () => {
    await kubectl.ok('create', 'namespace', 'upgraded');
    await kubectl.ok(
      'apply',
      '-f',
      await kubectl.manifest('csa.yaml', configMap('upgraded', 'one')),
    );
    const ssa = await kubectl.manifest('ssa.yaml', configMap('upgraded', 'two'));
    assert.match(
      await kubectl.ok('apply', '--server-side', '-f', ssa),
      /configmap\/settings serverside-applied/,
    );
    const settings = await read('configmap', 'settings', '-n', 'upgraded');
    assert.equal(settings.data?.['key'], 'two');
    // The client-side apply annotation follows, so that a later `kubectl apply` patches right.
    const lastApplied =
      settings.metadata.annotations?.['kubectl.kubernetes.io/last-applied-configuration'];
    assert.equal((JSON.parse(lastApplied ?? '{}') as Written).data?.['key'], 'two');
  });
});

describe('writes that change nothing, over HTTP', () => {
  let cluster: TestCluster;

  before(async () => {
    cluster = await startTestCluster();
    await request(cluster, 'POST', '/api/v1/namespaces', {
      body: { metadata: { name: 'quiet' } },
    });
  });

  after(() => cluster.close());

  const path = '/api/v1/namespaces/quiet/configmaps';

  it('answers the stored object and sends no watch event', async () => {
    const created = await request(cluster, 'POST', path, {
      body: { metadata: { name: 'still' }, data: { key: 'one' } },
    });
    assert.equal(created.status, 201);
    const stored = created.body as Written & KubernetesObject;
    const version = stored.metadata.resourceVersion;

    const events: Array<{ type: string; object: Written }> = [];
    const controller = await new Watch(cluster.admin).watch(
      path,
      // Only this object: the namespace's kube-root-ca.crt may arrive meanwhile.
      { resourceVersion: version, fieldSelector: 'metadata.name=still' },
      (type, object) => events.push({ type, object: object as Written }),
      () => undefined,
    );
    try {
      const writes = [
        request(cluster, 'PUT', `${path}/still`, { body: stored }),
        request(cluster, 'PATCH', `${path}/still`, {
          body: { data: { key: 'one' } },
          contentType: 'application/merge-patch+json',
        }),
        request(cluster, 'PATCH', `${path}/still`, {
          body: { data: { key: 'one' } },
          contentType: 'application/strategic-merge-patch+json',
        }),
        request(cluster, 'PATCH', `${path}/still`, {
          body: [{ op: 'replace', path: '/data/key', value: 'one' }],
          contentType: 'application/json-patch+json',
        }),
      ];
      for (const write of writes) {
        const answer = await write;
        assert.equal(answer.status, 200, answer.text);
        assert.equal((answer.body as Written).metadata.resourceVersion, version);
      }
      const changed = await request(cluster, 'PATCH', `${path}/still`, {
        body: { data: { key: 'two' } },
        contentType: 'application/merge-patch+json',
      });
      const changedVersion = (changed.body as Written).metadata.resourceVersion;
      assert.notEqual(changedVersion, version);
      // The first event is the one write that changed something.
      const first = await eventually('the watch event of the change', () => events[0]);
      assert.equal(first.type, 'MODIFIED');
      assert.equal(first.object.metadata.resourceVersion, changedVersion);
    } finally {
      controller.abort();
    }
  });

  it('clears managedFields sent as one empty entry, and keeps them when sent empty', async () => {
    await request(cluster, 'POST', path, {
      body: { metadata: { name: 'cleared' }, data: { key: 'one' } },
    });
    const merge = (body: unknown) =>
      request(cluster, 'PATCH', `${path}/cleared`, {
        body,
        contentType: 'application/merge-patch+json',
      });
    const kept = await merge({ metadata: { managedFields: [] }, data: { key: 'two' } });
    assert.equal((kept.body as Written).metadata.managedFields?.length, 1);
    const cleared = await merge({ metadata: { managedFields: [{}] } });
    assert.equal((cleared.body as Written).metadata.managedFields, undefined);
    const untracked = await merge({ data: { key: 'three' } });
    assert.equal((untracked.body as Written).metadata.managedFields, undefined);
  });

  it('derives the manager of a write from the User-Agent when no fieldManager is given', async () => {
    const answer = await request(cluster, 'POST', path, {
      body: { metadata: { name: 'agent' }, data: { key: 'one' } },
    });
    const entries = (answer.body as Written).metadata.managedFields ?? [];
    // fetch sends `node` as its User-Agent.
    assert.deepEqual(
      entries.map((e) => [e.manager, e.operation]),
      [['node', 'Update']],
    );
  });
});

describe('generation and resourceVersion across a restart', () => {
  it('keeps what was written, and nothing a no-op write did', async () => {
    const data = await tempDir('paddock-writes-data-');
    try {
      const crd = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
      const gadgets = '/apis/example.com/v1/namespaces/kept/gadgets';
      const first = await startTestCluster({ dataDir: data.path });
      let written: Written;
      try {
        await request(first, 'POST', '/api/v1/namespaces', {
          body: { metadata: { name: 'kept' } },
        });
        const body = parse(GADGET_CRD) as unknown;
        assert.equal((await request(first, 'POST', crd, { body })).status, 201);
        await eventually('the Gadget kind served', async () =>
          (await request(first, 'GET', gadgets)).status === 200 ? true : undefined,
        );
        await request(first, 'POST', gadgets, {
          body: {
            apiVersion: 'example.com/v1',
            kind: 'Gadget',
            metadata: { name: 'gear' },
            spec: { size: 1 },
          },
        });
        const resized = await request(first, 'PATCH', `${gadgets}/gear`, {
          body: { spec: { size: 2 } },
          contentType: 'application/merge-patch+json',
        });
        written = resized.body as Written;
        assert.equal(written.metadata.generation, 2);
        const noop = await request(first, 'PATCH', `${gadgets}/gear`, {
          body: { spec: { color: null } },
          contentType: 'application/merge-patch+json',
        });
        assert.equal(
          (noop.body as Written).metadata.resourceVersion,
          written.metadata.resourceVersion,
        );
        assert.equal((noop.body as Written).metadata.generation, 2);
      } finally {
        await first.close();
      }
      const second = await startTestCluster({ dataDir: data.path });
      try {
        const again = (await request(second, 'GET', `${gadgets}/gear`)).body as Written;
        assert.equal(again.metadata.generation, 2);
        assert.equal(again.metadata.resourceVersion, written.metadata.resourceVersion);
        assert.deepEqual(again.spec, { size: 2, color: 'red' });
      } finally {
        await second.close();
      }
    } finally {
      await data.remove();
    }
  });
});
