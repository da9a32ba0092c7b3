import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { eventually, tempDir } from '@paddock/testing';
import { startTestCluster, type TestCluster } from './support/cluster.js';
import { kubectlIn, lateKubectl, type KubectlTools } from './support/kubectl.js';

let tools: KubectlTools;
const { kubectl, ok, manifest } = lateKubectl(() => tools);
let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let kubeconfigPath: string;

before(async () => {
  folder = await tempDir('paddock-kubectl-');
  kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath });
  tools = kubectlIn(folder.path, kubeconfigPath);
});

after(async () => {
  await cluster.close();
  await folder.remove();
});

/** Runs kubectl with the kubeconfig the server wrote; resolves with its output and exit code. */

const WIDGET_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, shortNames: [wd]}
  versions:
    - name: v1
      served: true
      storage: true
      additionalPrinterColumns:
        - {name: Size, type: integer, jsonPath: .spec.size}
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              description: What the widget should be.
              properties:
                size: {type: integer, description: How big.}
                color: {type: string, default: red}
`;

const APPLIED = `apiVersion: v1
kind: Namespace
metadata:
  name: applied
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: applied
  labels: {app: demo}
data:
  mode: fast
---
apiVersion: v1
kind: Pod
metadata:
  name: worker
  namespace: applied
spec:
  containers:
    - name: main
      image: busybox
      env:
        - {name: A, value: "1"}
      ports:
        - containerPort: 8080
---
apiVersion: example.com/v1
kind: Widget
metadata:
  name: gear
  namespace: applied
spec:
  size: 3
`;

const versions = async (namespace: string) =>
  ok(
    'get',
    'configmaps,pods,widgets',
    '-n',
    namespace,
    '-o',
    'jsonpath={.items[*].metadata.resourceVersion}',
  );

describe('kubectl against the embedded server', () => {
  before(async () => {
    await ok('apply', '-f', await manifest('crd.yaml', WIDGET_CRD));
  });

  it('applies (client-side) twice with nothing changed the second time', async () => {
    const file = await manifest('applied.yaml', APPLIED);
    const first = await ok('apply', '-f', file);
    assert.match(first, /namespace\/applied created/);
    assert.match(first, /widget\.example\.com\/gear created/);
    const before = await versions('applied');
    const second = await ok('apply', '-f', file);
    for (const line of second.trim().split('\n')) assert.match(line, / unchanged$/);
    assert.equal(await versions('applied'), before);

    await writeFile(
      file,
      APPLIED.replace('value: "1"', 'value: "2"').replace('size: 3', 'size: 4'),
    );
    const third = await ok('apply', '-f', file);
    assert.match(third, /pod\/worker configured/);
    assert.match(third, /widget\.example\.com\/gear configured/);
    const env = await ok(
      'get',
      'pod',
      'worker',
      '-n',
      'applied',
      '-o',
      'jsonpath={.spec.containers[0].env[0].value}',
    );
    assert.equal(env, '2');
  });

  it('applies server-side twice with nothing changed the second time', async () => {
    const file = await manifest(
      'server-side.yaml',
      APPLIED.replaceAll('applied', 'server-side').replace('name: gear', 'name: cog'),
    );
    await ok('apply', '--server-side', '-f', file);
    const before = await versions('server-side');
    const again = await ok('apply', '--server-side', '-f', file);
    assert.match(again, /configmap\/settings serverside-applied/);
    assert.equal(await versions('server-side'), before);
    const managers = await ok(
      'get',
      'configmap',
      'settings',
      '-n',
      'server-side',
      '--show-managed-fields',
      '-o',
      'jsonpath={.metadata.managedFields[*].manager}/{.metadata.managedFields[*].operation}',
    );
    assert.equal(managers, 'kubectl/Apply');

    // Leaving a field out of the applied configuration removes it.
    await writeFile(
      file,
      APPLIED.replaceAll('applied', 'server-side')
        .replace('name: gear', 'name: cog')
        .replace('  labels: {app: demo}\n', ''),
    );
    await ok('apply', '--server-side', '-f', file);
    const labels = await ok(
      'get',
      'configmap',
      'settings',
      '-n',
      'server-side',
      '-o',
      'jsonpath={.metadata.labels}',
    );
    assert.equal(labels, '');
  });

  it('gets, describes and deletes', async () => {
    await ok('create', 'namespace', 'plain');
    await ok('create', 'configmap', 'notes', '-n', 'plain', '--from-literal=a=b');
    const table = await ok('get', 'configmaps', '-n', 'plain');
    assert.match(table, /^NAME\s+DATA\s+AGE\n(?:kube-root-ca\.crt.*\n)?notes\s+1\s+\d+s\n$/);
    const namespaces = await ok('get', 'namespaces');
    assert.match(namespaces, /\nplain\s+Active\s+/);
    const widgets = await ok('get', 'wd', '-A');
    assert.match(widgets, /^NAMESPACE\s+NAME\s+SIZE\n/);
    const description = await ok('describe', 'configmap', 'notes', '-n', 'plain');
    assert.match(description, /^Name:\s+notes\nNamespace:\s+plain\n/);
    const deleted = await ok('delete', 'configmap', 'notes', '-n', 'plain');
    assert.equal(deleted.trim(), 'configmap "notes" deleted');
    const missing = await kubectl('get', 'configmap', 'notes', '-n', 'plain');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /Error from server \(NotFound\): configmaps "notes" not found/);
  });

  it('explains a custom resource from its schema', async () => {
    const explained = await ok('explain', 'widgets.spec.size');
    assert.match(explained, /KIND:\s+Widget/);
    assert.match(explained, /How big\./);
  });

  it('watches with get -w and sees a change', async () => {
    await ok('create', 'namespace', 'watched');
    await ok('create', 'configmap', 'first', '-n', 'watched');
    const child = spawn(
      'kubectl',
      [
        ...['--kubeconfig', kubeconfigPath, '--cache-dir', join(folder.path, 'cache')],
        ...['get', 'configmaps', '-n', 'watched', '-w'],
      ],
      { env: { ...process.env, HOME: folder.path } },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    try {
      await eventually('the list before the watch', () =>
        /\nfirst\s/.test(`\n${output}`) ? true : undefined,
      );
      const core = cluster.admin.makeApiClient(CoreV1Api);
      await core.createNamespacedConfigMap({
        namespace: 'watched',
        body: { metadata: { name: 'seen' }, data: { a: 'b' } },
      });
      await eventually('the new configmap in the watch', () =>
        /\nseen\s+1\s+/.test(`\n${output}`) ? true : undefined,
      );
    } finally {
      child.kill();
    }
  });

  it('answers kubectl auth can-i for the admin and for a ServiceAccount', async () => {
    assert.equal((await ok('auth', 'can-i', 'delete', 'namespaces')).trim(), 'yes');
    await ok('create', 'namespace', 'team');
    await ok('create', 'serviceaccount', 'bot', '-n', 'team');
    await ok('create', 'role', 'reader', '-n', 'team', '--verb=get,list', '--resource=pods');
    await ok(
      'create',
      'rolebinding',
      'bot-reads',
      '-n',
      'team',
      '--role=reader',
      '--serviceaccount=team:bot',
    );
    const token = (await ok('create', 'token', 'bot', '-n', 'team')).trim();
    assert.equal(
      (await ok('auth', 'can-i', 'list', 'pods', '-n', 'team', '--token', token)).trim(),
      'yes',
    );
    const denied = await kubectl('auth', 'can-i', 'delete', 'pods', '-n', 'team', '--token', token);
    assert.equal(denied.stdout.trim(), 'no');
    assert.equal(denied.code, 1);
    const forbidden = await kubectl('get', 'secrets', '-n', 'team', '--token', token);
    assert.match(
      forbidden.stderr,
      /Error from server \(Forbidden\): secrets is forbidden: User "system:serviceaccount:team:bot" cannot list resource "secrets" in API group "" in the namespace "team"/,
    );
  });
});
