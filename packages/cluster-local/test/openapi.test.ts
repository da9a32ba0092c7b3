import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { builtinKinds } from '../src/registry/builtin-kinds.js';
import { Registry } from '../src/registry/registry.js';
import { BuiltinSchemas, loadModelCatalog, packageOf } from '../src/server/builtin-schemas.js';
import { encodeOpenApiV2 } from '../src/server/openapi-v2-protobuf.js';
import {
  groupVersionDocument,
  negotiateV2,
  openApiV2Document,
  toV2Schema,
} from '../src/server/openapi.js';

const registry = new Registry(builtinKinds());
const builtins = new BuiltinSchemas(await loadModelCatalog(), registry.all());

describe('the built-in kinds’ schemas', () => {
  it('names definitions as Kubernetes does, metav1’s shared types in their own package', () => {
    const pod = builtins.rootOf({ group: '', version: 'v1', kind: 'Pod' });
    assert.equal(pod, 'io.k8s.api.core.v1.Pod');
    assert.equal(
      builtins.rootOf({ group: 'events.k8s.io', version: 'v1', kind: 'Event' }),
      'io.k8s.api.events.v1.Event',
    );
    const schemas = builtins.closure([pod]);
    for (const name of [
      'io.k8s.api.core.v1.Container',
      'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta',
      'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
    ]) {
      assert.ok(schemas.has(name), name);
    }
    assert.deepEqual(schemas.get(pod)!['x-kubernetes-group-version-kind'], [
      { group: '', version: 'v1', kind: 'Pod' },
    ]);
  });

  it('has a schema for every stored built-in kind', () => {
    const missing = registry
      .all()
      .filter((t) => t.stored && !builtins.rootOf(t))
      .map((t) => `${t.group}/${t.version} ${t.kind}`);
    assert.deepEqual(missing, []);
  });

  it('places each group’s types in its Go package', () => {
    const table: [string, string, string][] = [
      ['', 'v1', 'io.k8s.api.core.v1'],
      ['apps', 'v1', 'io.k8s.api.apps.v1'],
      ['rbac.authorization.k8s.io', 'v1', 'io.k8s.api.rbac.v1'],
      ['apiextensions.k8s.io', 'v1', 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1'],
    ];
    for (const [group, version, expected] of table) {
      assert.equal(packageOf(group, version), expected, group);
    }
  });

  it('names the fields a kind does not declare, as strict decoding does', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', labels: { any: 'label' }, bogus: 1 },
      spec: {
        containers: [
          { name: 'c', image: 'busybox', resources: { limits: { cpu: 1 } } },
          { name: 'd', extra: true },
        ],
      },
    };
    assert.deepEqual(builtins.unknownFieldsOf({ group: '', version: 'v1', kind: 'Pod' }, pod), [
      'metadata.bogus',
      'spec.containers[1].extra',
    ]);
    assert.equal(
      builtins.unknownFieldsOf({ group: 'x', version: 'v1', kind: 'Nope' }, pod),
      undefined,
    );
  });
});

describe('OpenAPI documents', () => {
  it('lists the PATCH operation with fieldValidation and the schemas of a group version', () => {
    const doc = groupVersionDocument(registry.resources('apps', 'v1'), builtins) as {
      paths: Record<string, { patch?: { parameters: { name: string }[] } }>;
      components: { schemas: Record<string, unknown> };
    };
    const patch = doc.paths['/apis/apps/v1/namespaces/{namespace}/deployments/{name}']?.patch;
    assert.ok(patch?.parameters.some((p) => p.name === 'fieldValidation'));
    assert.ok(doc.components.schemas['io.k8s.api.apps.v1.Deployment']);
    assert.ok(doc.components.schemas['io.k8s.api.core.v1.PodTemplateSpec']);
  });

  it('refers to v2 definitions and advertises no strategic merge patch', () => {
    const doc = openApiV2Document(registry.all(), builtins) as {
      paths: Record<string, { patch?: { consumes: string[] } }>;
      definitions: Record<string, { properties?: Record<string, { $ref?: string }> }>;
    };
    assert.equal(
      doc.definitions['io.k8s.api.core.v1.Pod']?.properties?.spec?.$ref,
      '#/definitions/io.k8s.api.core.v1.PodSpec',
    );
    const consumes = doc.paths['/api/v1/namespaces/{namespace}/pods/{name}']?.patch?.consumes;
    assert.ok(consumes && !consumes.includes('application/strategic-merge-patch+json'));
  });

  it('leaves untyped in v2 what Swagger 2.0 cannot say', () => {
    const table: [unknown, unknown][] = [
      [{ type: 'string', nullable: true, description: 'd' }, { description: 'd' }],
      [{ 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }] }, {}],
      [{ type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { a: {} } }, {}],
      [
        {
          type: 'object',
          required: ['a'],
          properties: { a: { type: 'integer', format: 'int32', minimum: 1 } },
        },
        {
          type: 'object',
          required: ['a'],
          properties: { a: { type: 'integer', format: 'int32' } },
        },
      ],
      [
        {
          type: 'array',
          items: { $ref: '#/components/schemas/x.Y' },
          'x-kubernetes-list-type': 'atomic',
        },
        { type: 'array', items: { $ref: '#/definitions/x.Y' }, 'x-kubernetes-list-type': 'atomic' },
      ],
      [
        { type: 'object', additionalProperties: { type: 'string' } },
        { type: 'object', additionalProperties: { type: 'string' } },
      ],
    ];
    for (const [input, expected] of table) assert.deepEqual(toV2Schema(input), expected);
  });

  it('negotiates /openapi/v2 as kube-apiserver does', () => {
    const table: [string | undefined, string | undefined][] = [
      [undefined, 'json'],
      ['application/json', 'json'],
      ['*/*', 'json'],
      ['application/com.github.proto-openapi.spec.v2@v1.0+protobuf', 'protobuf'],
      ['application/com.github.proto-openapi.spec.v2.v1.0+protobuf;q=0.9, */*', 'protobuf'],
      ['text/html', undefined],
    ];
    for (const [accept, form] of table) assert.equal(negotiateV2(accept), form, accept);
  });

  it('encodes gnostic’s Document message field by field', () => {
    const bytes = encodeOpenApiV2({ swagger: '2.0', info: { title: 'T', version: 'v' } });
    assert.deepEqual(
      [...bytes],
      [
        ...[0x0a, 3, ...Buffer.from('2.0')],
        ...[0x12, 6, 0x0a, 1, 0x54, 0x12, 1, 0x76],
        ...[0x42, 0],
        ...[0x4a, 0],
      ],
    );
  });
});
