import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KINDS } from '@paddock/kube';
import { eventually, tempDir } from '@paddock/testing';
import { OPENAPI_V2_PROTOBUF } from '../src/server/openapi.js';
import { request, startTestCluster, type TestCluster } from './support/cluster.js';
import { kubectlIn, lateKubectl, type KubectlTools } from './support/kubectl.js';

let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let kubeconfigPath: string;

before(async () => {
  folder = await tempDir('paddock-openapi-');
  kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath });
  tools = kubectlIn(folder.path, kubeconfigPath);
});

after(async () => {
  await cluster.close();
  await folder.remove();
});

let tools: KubectlTools;
const { kubectl, ok, manifest, withInput: kubectlWithInput } = lateKubectl(() => tools);

describe('OpenAPI as kubectl uses it', () => {
  it('explains a built-in kind’s nested field', async () => {
    const out = await ok('explain', 'pods.spec.containers');
    assert.match(out, /KIND:\s+Pod/);
    assert.match(out, /FIELD: containers <\[\]Container>/);
    assert.match(out, /\n {2}image\t<string>/);
    assert.match(out, /\n {2}resources\t<ResourceRequirements>/);
  });

  it('explains a custom kind from its CustomResourceDefinition', async () => {
    const workspace = KINDS.find((k) => k.crd.spec.names.plural === 'workspaces');
    assert.ok(workspace);
    await ok('apply', '-f', await manifest('workspace-crd.json', JSON.stringify(workspace.crd)));
    const out = await eventually('kubectl explain workspaces.spec answers', async () => {
      const result = await kubectl('explain', 'workspaces.spec');
      return result.code === 0 ? result.stdout : undefined;
    });
    assert.match(out, /KIND:\s+Workspace/);
    assert.match(out, /FIELD: spec <Object>/);
  });

  it('applies the List that get -o yaml prints', async () => {
    await ok('create', 'configmap', 'listed-a', '--from-literal=k=a');
    await ok('create', 'configmap', 'listed-b', '--from-literal=k=b');
    const list = await ok('get', 'configmaps', '-o', 'yaml');
    assert.match(list, /^kind: List$/m);
    const applied = await kubectlWithInput(list, 'apply', '-f', '-');
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /configmap\/listed-a (configured|unchanged)/);
    assert.match(applied.stdout, /configmap\/listed-b (configured|unchanged)/);
  });

  it('refuses a List item with a field its kind does not have, before sending it', async () => {
    const list = `apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: listed-bad}
    data: {k: v}
    bogus: true
`;
    const result = await kubectlWithInput(list, 'apply', '--validate=strict', '-f', '-');
    assert.notEqual(result.code, 0);
    assert.match(
      result.stderr,
      /error validating data: ValidationError\(ConfigMap\): unknown field "bogus" in io\.k8s\.api\.core\.v1\.ConfigMap/,
    );
    const absent = await kubectl('get', 'configmap', 'listed-bad');
    assert.notEqual(absent.code, 0);
  });
});

describe('the OpenAPI endpoints', () => {
  it('serves /openapi/v2 as protobuf or JSON, and answers 406 to anything else', async () => {
    const proto = await request(cluster, 'GET', '/openapi/v2', { accept: OPENAPI_V2_PROTOBUF });
    assert.equal(proto.status, 200);
    assert.equal(
      proto.headers.get('content-type'),
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    );
    const json = await request(cluster, 'GET', '/openapi/v2', { accept: 'application/json' });
    assert.equal(json.status, 200);
    const doc = json.body as { swagger: string; definitions: Record<string, unknown> };
    assert.equal(doc.swagger, '2.0');
    assert.ok(doc.definitions['io.k8s.api.core.v1.ConfigMap']);
    const refused = await request(cluster, 'GET', '/openapi/v2', { accept: 'text/html' });
    assert.equal(refused.status, 406);
    assert.equal((refused.body as { reason: string }).reason, 'NotAcceptable');
  });

  it('changes a group version’s hash in /openapi/v3 when its kinds change', async () => {
    const hashOf = async () => {
      const root = await request(cluster, 'GET', '/openapi/v3');
      const paths = (root.body as { paths: Record<string, { serverRelativeURL: string }> }).paths;
      return paths['apis/example.org/v1']?.serverRelativeURL;
    };
    assert.equal(await hashOf(), undefined);
    const crd = (description: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.org}
spec:
  group: example.org
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, description: ${description}}
`;
    await ok('apply', '-f', await manifest('gadget.yaml', crd('first')));
    const first = await eventually('the group version is listed', hashOf);
    await ok('apply', '-f', await manifest('gadget.yaml', crd('second')));
    const second = await eventually('its hash changes', async () => {
      const url = await hashOf();
      return url !== first ? url : undefined;
    });
    const document = await request(cluster, 'GET', second.split('?')[0]!);
    const schemas = (document.body as { components: { schemas: Record<string, unknown> } })
      .components.schemas;
    assert.deepEqual(
      (schemas['org.example.v1.Gadget'] as { properties: { spec: unknown } }).properties.spec,
      { type: 'object', description: 'second' },
    );
  });
});
