import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  type KubernetesObject,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import { customResourceDefinitions } from '@paddock/kube';
import { eventually } from '@paddock/testing';
import { parseAllDocuments } from 'yaml';
import { failure, request, startTestCluster, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;
let crds: ApiextensionsV1Api;
let custom: CustomObjectsApi;

const EXAMPLES = join(import.meta.dirname, '..', '..', '..', 'examples', 'resources');

/** A small CRD of our own: a namespaced Widget with status and scale subresources. */
const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: {
          status: {},
          scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
        },
        additionalPrinterColumns: [{ name: 'Color', type: 'string', jsonPath: '.spec.color' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer', minimum: 1 },
                  color: { type: 'string', enum: ['red', 'blue'], default: 'red' },
                  replicas: { type: 'integer' },
                },
              },
              status: {
                type: 'object',
                properties: { ready: { type: 'boolean' }, replicas: { type: 'integer' } },
              },
            },
          },
        },
      },
    ],
  },
};

const widget = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
});

interface Widget {
  metadata: { name: string; generation: number; resourceVersion: string };
  spec: Record<string, unknown>;
  status?: Record<string, unknown>;
}

const widgets = { group: 'example.com', version: 'v1', namespace: 'shop', plural: 'widgets' };

/**
 * Creates a CRD as it is written: client-node's typed serialisation knows schema keywords by its own
 * names (`_default`, `x_kubernetes_int_or_string`) and would drop `default` or `enum`.
 */
async function createCrd(crd: object): Promise<unknown> {
  const created = await request(
    cluster,
    'POST',
    '/apis/apiextensions.k8s.io/v1/customresourcedefinitions',
    {
      body: crd,
    },
  );
  assert.equal(created.status, 201, created.text);
  return created.body;
}

before(async () => {
  cluster = await startTestCluster();
  crds = cluster.admin.makeApiClient(ApiextensionsV1Api);
  custom = cluster.admin.makeApiClient(CustomObjectsApi);
  await cluster.admin
    .makeApiClient(CoreV1Api)
    .createNamespace({ body: { metadata: { name: 'shop' } } });
  const created = (await createCrd(WIDGETS)) as V1CustomResourceDefinition;
  const established = created.status?.conditions?.find((c) => c.type === 'Established');
  assert.equal(established?.status, 'True');
});

after(() => cluster.close());

describe('custom resources', () => {
  it('serves the kinds of a new CRD, defaulted and pruned by its schema', async () => {
    const created = (await custom.createNamespacedCustomObject({
      ...widgets,
      body: widget('small', { size: 1, unknown: 'dropped' }),
    })) as Widget;
    assert.deepEqual(created.spec, { size: 1, color: 'red' });
    assert.equal(created.metadata.generation, 1);
    const resources = await request(cluster, 'GET', '/apis/example.com/v1');
    const list = resources.body as { resources: Array<{ name: string; shortNames?: string[] }> };
    assert.deepEqual(
      list.resources.map((r) => r.name),
      ['widgets', 'widgets/status', 'widgets/scale'],
    );
    assert.deepEqual(list.resources[0]!.shortNames, ['wd']);
  });

  it('refuses invalid custom resources with Kubernetes Status causes', async () => {
    const missing = await failure(
      custom.createNamespacedCustomObject({ ...widgets, body: widget('bad', { color: 'blue' }) }),
    );
    assert.deepEqual(missing, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Widget.example.com "bad" is invalid: spec.size: Required value',
      reason: 'Invalid',
      details: {
        name: 'bad',
        group: 'example.com',
        kind: 'Widget',
        causes: [{ reason: 'FieldValueRequired', message: 'Required value', field: 'spec.size' }],
      },
      code: 422,
    });
    const two = await failure(
      custom.createNamespacedCustomObject({
        ...widgets,
        body: widget('worse', { size: 0, color: 'green' }),
      }),
    );
    assert.equal(two.code, 422);
    assert.deepEqual(
      two.details?.causes?.map((c) => [c.reason, c.field]),
      [
        ['FieldValueInvalid', 'spec.size'],
        ['FieldValueNotSupported', 'spec.color'],
      ],
    );
    assert.match(
      two.message,
      /^Widget\.example\.com "worse" is invalid: \[spec\.size: .*, spec\.color: Unsupported value: "green": supported values: "red", "blue"\]$/,
    );
  });

  it('refuses unknown fields instead of pruning them when validation is strict', async () => {
    const response = await request(
      cluster,
      'POST',
      '/apis/example.com/v1/namespaces/shop/widgets?fieldValidation=Strict',
      { body: widget('strict', { size: 1, sise: 2 }) },
    );
    assert.equal(response.status, 400);
    assert.equal(
      (response.body as { message: string }).message,
      'Widget in version "v1" cannot be handled as a Widget: strict decoding error: unknown field "spec.sise"',
    );
  });

  it('changes status only through /status, and generation only with the spec', async () => {
    const created = (await custom.createNamespacedCustomObject({
      ...widgets,
      body: { ...widget('tracked', { size: 2 }), status: { ready: true } },
    })) as Widget;
    assert.equal(created.status, undefined);

    const withStatus = (await custom.replaceNamespacedCustomObjectStatus({
      ...widgets,
      name: 'tracked',
      body: { ...created, status: { ready: true } },
    })) as Widget;
    assert.deepEqual(withStatus.status, { ready: true });
    assert.equal(withStatus.metadata.generation, 1);

    // The main resource ignores status changes.
    const ignored = (await custom.patchNamespacedCustomObject(
      { ...widgets, name: 'tracked', body: { status: { ready: false } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Widget;
    assert.deepEqual(ignored.status, { ready: true });
    assert.equal(ignored.metadata.resourceVersion, withStatus.metadata.resourceVersion);

    const labelled = (await custom.patchNamespacedCustomObject(
      { ...widgets, name: 'tracked', body: { metadata: { labels: { a: 'b' } } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Widget;
    assert.equal(labelled.metadata.generation, 1);

    const resized = (await custom.patchNamespacedCustomObject(
      { ...widgets, name: 'tracked', body: { spec: { size: 3 } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as Widget;
    assert.equal(resized.metadata.generation, 2);
    assert.deepEqual(resized.status, { ready: true });

    const unconditional = await failure(
      custom.replaceNamespacedCustomObject({
        ...widgets,
        name: 'tracked',
        body: widget('tracked', { size: 4 }),
      }),
    );
    assert.equal(unconditional.code, 422);
  });

  it('scales a custom resource through its scale subresource', async () => {
    await custom.createNamespacedCustomObject({
      ...widgets,
      body: widget('scaled', { size: 1, replicas: 1 }),
    });
    const scale = await request(
      cluster,
      'GET',
      '/apis/example.com/v1/namespaces/shop/widgets/scaled/scale',
    );
    assert.deepEqual((scale.body as { spec: unknown }).spec, { replicas: 1 });
    const patched = await request(
      cluster,
      'PATCH',
      '/apis/example.com/v1/namespaces/shop/widgets/scaled/scale',
      { body: { spec: { replicas: 3 } }, contentType: 'application/merge-patch+json' },
    );
    assert.equal(patched.status, 200);
    const object = (await custom.getNamespacedCustomObject({
      ...widgets,
      name: 'scaled',
    })) as Widget;
    assert.equal(object.spec['replicas'], 3);
  });

  it('refuses a strategic merge patch of a custom resource with 415', async () => {
    const refused = await failure(
      custom.patchNamespacedCustomObject(
        { ...widgets, name: 'small', body: { spec: { size: 2 } } },
        setHeaderOptions('Content-Type', PatchStrategy.StrategicMergePatch),
      ),
    );
    assert.equal(refused.code, 415);
  });

  it('refuses a CRD whose schema is not structural, with the problems', async () => {
    const refused = await failure(
      crds.createCustomResourceDefinition({
        body: {
          ...WIDGETS,
          metadata: { name: 'gadgets.example.com' },
          spec: {
            ...WIDGETS.spec,
            names: { plural: 'gadgets', kind: 'Gadget' },
            versions: [
              {
                name: 'v1',
                served: true,
                storage: true,
                schema: { openAPIV3Schema: { type: 'object', properties: { spec: {} } } },
              },
            ],
          },
        },
      }),
    );
    assert.equal(refused.code, 422);
    assert.match(
      refused.message,
      /^CustomResourceDefinition\.apiextensions\.k8s\.io "gadgets\.example\.com" is invalid: /,
    );
    assert.equal(
      refused.details?.causes?.[0]?.field,
      'spec.versions[0].schema.openAPIV3Schema.properties[spec].type',
    );
  });

  it('stops serving a deleted CRD and deletes its custom resources', async () => {
    const temporary = {
      ...WIDGETS,
      metadata: { name: 'gizmos.example.com' },
      spec: { ...WIDGETS.spec, names: { plural: 'gizmos', kind: 'Gizmo' } },
    };
    await createCrd(temporary);
    const gizmos = { ...widgets, plural: 'gizmos' };
    await custom.createNamespacedCustomObject({
      ...gizmos,
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Gizmo',
        metadata: { name: 'g' },
        spec: { size: 1 },
      },
    });
    await crds.deleteCustomResourceDefinition({ name: 'gizmos.example.com' });
    await eventually('the CRD to go', async () => {
      const response = await request(
        cluster,
        'GET',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.example.com',
      );
      return response.status === 404 ? true : undefined;
    });
    const served = await request(cluster, 'GET', '/apis/example.com/v1/namespaces/shop/gizmos');
    assert.equal(served.status, 404);
    // Defined again, it starts empty.
    await createCrd(temporary);
    const list = (await custom.listNamespacedCustomObject(gizmos)) as { items: unknown[] };
    assert.equal(list.items.length, 0);
  });
});

describe("Paddock's own CRDs", () => {
  before(async () => {
    for (const crd of customResourceDefinitions()) await createCrd(crd);
    await cluster.admin
      .makeApiClient(CoreV1Api)
      .createNamespace({ body: { metadata: { name: 'paddock-sample' } } });
  });

  const documents = async (folder: string) => {
    const files = (await readdir(folder)).filter((f) => f.endsWith('.yaml')).sort();
    const out: Array<{ file: string; object: KubernetesObject }> = [];
    for (const file of files) {
      for (const doc of parseAllDocuments(await readFile(join(folder, file), 'utf8'))) {
        out.push({ file, object: doc.toJS() as KubernetesObject });
      }
    }
    return out;
  };

  it('accepts every sample in examples/resources', async () => {
    const client = KubernetesObjectApi.makeApiClient(cluster.admin);
    const samples = await documents(EXAMPLES);
    assert.ok(samples.length >= 4);
    for (const { file, object } of samples) {
      await assert.doesNotReject(client.create(object), file);
    }
  });

  it('refuses every sample in examples/resources/invalid with Kubernetes causes', async () => {
    const client = KubernetesObjectApi.makeApiClient(cluster.admin);
    const samples = await documents(join(EXAMPLES, 'invalid'));
    assert.ok(samples.length >= 3);
    for (const { file, object } of samples) {
      const refused = await failure(client.create(object));
      assert.equal(refused.code, 422, file);
      assert.equal(refused.reason, 'Invalid', file);
      assert.equal(refused.details?.kind, object.kind, file);
      assert.ok((refused.details?.causes?.length ?? 0) > 0, file);
    }
  });
});
