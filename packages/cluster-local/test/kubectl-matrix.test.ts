import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installCrds, Kube } from '@paddock/kube';
import { tempDir } from '@paddock/testing';
import { request, startTestCluster, type TestCluster } from './support/cluster.js';
import { kubectlIn, type KubectlResult } from './support/kubectl.js';

/**
 * The conformance matrix: the kubectl commands people run every day, in order, each with the output
 * or the error a real kube-apiserver gives it (kubectl's own wording included). One row per command;
 * a row's expectations are what kubectl prints against a real server, never what this one happens to.
 */

interface Row {
  /** kubectl's arguments, after --kubeconfig; `-n matrix` is added unless the row is cluster-wide. */
  args: string[];
  clusterWide?: boolean;
  /** Given on standard input. */
  stdin?: string;
  /** Manifests written into the folder first (name → text), for `-f`. */
  files?: Record<string, string>;
  /** What the cluster must hold first that kubectl cannot make (a pod's log lines). */
  setup?: () => Promise<void>;
  /** The exit code (0 unless said). */
  code?: number;
  stdout?: string | RegExp;
  stderr?: string | RegExp;
}

const NS = 'matrix';
const CM_TWO = `apiVersion: v1
kind: ConfigMap
metadata:
  name: two
  labels: { app: matrix }
data:
  key: one
`;
const CM_TWO_CHANGED = CM_TWO.replace('key: one', 'key: two');
const CM_FOUR = CM_TWO.replace('name: two', 'name: four');
const CM_PRUNED = `apiVersion: v1
kind: ConfigMap
metadata:
  name: three
  labels: { app: matrix }
`;
const STATEFULSET = `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: web }
spec:
  replicas: 1
  serviceName: web
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec: { containers: [{ name: web, image: paddock-sandbox:latest }] }
`;

const MATRIX: [string, Row][] = [
  [
    'create a namespace',
    { args: ['create', 'namespace', NS], clusterWide: true, stdout: 'namespace/matrix created\n' },
  ],
  [
    'create a ConfigMap from literals',
    {
      args: ['create', 'configmap', 'one', '--from-literal=a=1'],
      stdout: 'configmap/one created\n',
    },
  ],
  [
    'get names, with the namespace’s root CA',
    {
      args: ['get', 'configmaps', '-o', 'name'],
      stdout: 'configmap/kube-root-ca.crt\nconfigmap/one\n',
    },
  ],
  [
    'get in chunks of one',
    {
      args: ['get', 'configmaps', '--chunk-size=1', '-o', 'name'],
      stdout: 'configmap/kube-root-ca.crt\nconfigmap/one\n',
    },
  ],
  [
    'get a field with jsonpath',
    { args: ['get', 'configmap', 'one', '-o', 'jsonpath={.data.a}'], stdout: '1' },
  ],
  [
    'get custom columns',
    {
      args: ['get', 'configmap', 'one', '-o', 'custom-columns=NAME:.metadata.name,A:.data.a'],
      stdout: /^NAME\s+A\none\s+1\n$/,
    },
  ],
  [
    'get the table',
    { args: ['get', 'configmap', 'one'], stdout: /^NAME\s+DATA\s+AGE\none\s+1\s+\d+s\n$/ },
  ],
  [
    'get json',
    {
      args: ['get', 'configmap', 'one', '-o', 'json'],
      stdout:
        /^\{\n {4}"apiVersion": "v1",\n {4}"data": \{\n {8}"a": "1"\n {4}\},\n {4}"kind": "ConfigMap",\n/,
    },
  ],
  [
    'get wide',
    {
      args: ['get', 'configmap', 'one', '-o', 'wide'],
      stdout: /^NAME\s+DATA\s+AGE\none\s+1\s+\d+s\n$/,
    },
  ],
  [
    'get yaml',
    {
      args: ['get', 'configmap', 'one', '-o', 'yaml'],
      stdout: /^apiVersion: v1\ndata:\n {2}a: "1"\nkind: ConfigMap\n/,
    },
  ],
  [
    'get with a selector that matches nothing',
    {
      args: ['get', 'configmaps', '-l', 'app=none'],
      stderr: 'No resources found in matrix namespace.\n',
    },
  ],
  [
    'get what does not exist',
    {
      args: ['get', 'configmap', 'nope'],
      code: 1,
      stderr: 'Error from server (NotFound): configmaps "nope" not found\n',
    },
  ],
  [
    'label',
    { args: ['label', 'configmap', 'one', 'app=matrix'], stdout: 'configmap/one labeled\n' },
  ],
  [
    'annotate',
    { args: ['annotate', 'configmap', 'one', 'note=hi'], stdout: 'configmap/one annotated\n' },
  ],
  [
    'get by label',
    { args: ['get', 'configmaps', '-l', 'app=matrix', '-o', 'name'], stdout: 'configmap/one\n' },
  ],
  [
    'patch (strategic merge)',
    {
      args: ['patch', 'configmap', 'one', '-p', '{"data":{"b":"2"}}'],
      stdout: 'configmap/one patched\n',
    },
  ],
  [
    'patch that changes nothing',
    {
      args: ['patch', 'configmap', 'one', '-p', '{"data":{"b":"2"}}'],
      stdout: 'configmap/one patched (no change)\n',
    },
  ],
  [
    'patch (merge)',
    {
      args: ['patch', 'configmap', 'one', '--type=merge', '-p', '{"data":{"c":"3"}}'],
      stdout: 'configmap/one patched\n',
    },
  ],
  [
    'patch (JSON patch)',
    {
      args: [
        'patch',
        'configmap',
        'one',
        '--type=json',
        '-p',
        '[{"op":"remove","path":"/data/c"}]',
      ],
      stdout: 'configmap/one patched\n',
    },
  ],
  [
    'a JSON patch that fails its test',
    {
      args: [
        'patch',
        'configmap',
        'one',
        '--type=json',
        '-p',
        '[{"op":"test","path":"/data/a","value":"9"}]',
      ],
      code: 1,
      stderr:
        /^The request is invalid: the server rejected our request due to an error in our request\n$/,
    },
  ],
  [
    'apply creates',
    {
      args: ['apply', '-f', 'two.yaml'],
      files: { 'two.yaml': CM_TWO },
      stdout: 'configmap/two created\n',
    },
  ],
  [
    'apply again changes nothing',
    { args: ['apply', '-f', 'two.yaml'], stdout: 'configmap/two unchanged\n' },
  ],
  ['diff after apply shows nothing', { args: ['diff', '-f', 'two.yaml'], stdout: '' }],
  [
    'diff of a change shows it, exit 1',
    {
      args: ['diff', '-f', 'two-changed.yaml'],
      files: { 'two-changed.yaml': CM_TWO_CHANGED },
      code: 1,
      stdout: /-\s+key: one\n\+\s+key: two\n/,
    },
  ],
  ['replace', { args: ['replace', '-f', 'two-changed.yaml'], stdout: 'configmap/two replaced\n' }],
  [
    'apply server-side creates',
    {
      args: ['apply', '--server-side', '-f', 'four.yaml'],
      files: { 'four.yaml': CM_FOUR },
      stdout: 'configmap/four serverside-applied\n',
    },
  ],
  [
    'apply server-side by another manager, in conflict',
    {
      args: ['apply', '--server-side', '--field-manager=other', '-f', 'four-other.yaml'],
      files: { 'four-other.yaml': CM_FOUR.replace('key: one', 'key: other') },
      code: 1,
      stderr: /^error: Apply failed with 1 conflict: conflict with "kubectl": \.data\.key\n/,
    },
  ],
  [
    'the same, forcing conflicts',
    {
      args: [
        'apply',
        '--server-side',
        '--field-manager=other',
        '--force-conflicts',
        '-f',
        'four-other.yaml',
      ],
      stdout: 'configmap/four serverside-applied\n',
    },
  ],
  [
    'apply of a List read back from get',
    {
      args: ['apply', '-f', '-'],
      stdin: 'FROM:get configmaps -l app=matrix -o yaml',
      stdout:
        /^configmap\/four (configured|unchanged)\nconfigmap\/one (configured|unchanged)\nconfigmap\/two (configured|unchanged)\n$/,
    },
  ],
  [
    'explain a built-in field',
    {
      args: ['explain', 'pods.spec.containers'],
      clusterWide: true,
      stdout: /^KIND:\s+Pod\nVERSION:\s+v1\n\nFIELD: containers <\[\]Container>\n/,
    },
  ],
  [
    'explain a custom kind',
    {
      args: ['explain', 'workspaces.spec'],
      clusterWide: true,
      stdout: /^GROUP:\s+paddock\.dev\nKIND:\s+Workspace\nVERSION:\s+v1alpha1\n/,
    },
  ],
  [
    'create a StatefulSet',
    {
      args: ['apply', '-f', 'web.yaml'],
      files: { 'web.yaml': STATEFULSET },
      stdout: 'statefulset.apps/web created\n',
    },
  ],
  [
    'scale it',
    {
      args: ['scale', 'statefulset', 'web', '--replicas=2'],
      stdout: 'statefulset.apps/web scaled\n',
    },
  ],
  [
    'wait for its spec',
    {
      args: ['wait', 'statefulset/web', '--for=jsonpath={.spec.replicas}=2', '--timeout=30s'],
      stdout: 'statefulset.apps/web condition met\n',
    },
  ],
  [
    'describe',
    {
      args: ['describe', 'configmap', 'one'],
      stdout: /^Name:\s+one\nNamespace:\s+matrix\nLabels:\s+app=matrix\nAnnotations:\s+note: hi\n/,
    },
  ],
  [
    'apply with prune: what the label selects and the files lack goes',
    {
      args: ['apply', '--prune', '-l', 'app=matrix', '-f', 'three.yaml'],
      files: { 'three.yaml': CM_PRUNED },
      stdout:
        /^configmap\/three created\nconfigmap\/four pruned\nconfigmap\/one pruned\nconfigmap\/two pruned\n$/,
    },
  ],
  [
    'apply of an unknown field of a built-in kind',
    {
      args: ['apply', '-f', 'bad.yaml'],
      files: { 'bad.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: bad }\nbogus: 1\n' },
      code: 1,
      stderr:
        /^Error from server \(BadRequest\): error when creating ".*bad\.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"\n$/,
    },
  ],
  [
    'auth whoami',
    {
      args: ['auth', 'whoami'],
      stdout:
        /^ATTRIBUTE\s+VALUE\nUsername\s+admin\nGroups\s+\[system:masters system:authenticated\]\n$/,
    },
  ],
  [
    'logs of a pod of two containers: kubectl takes the first',
    {
      args: ['logs', 'logger'],
      setup: async () => {
        const pod = {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'logger', namespace: NS },
          spec: {
            containers: [
              { name: 'main', image: 'paddock-sandbox:latest' },
              { name: 'side', image: 'paddock-sandbox:latest' },
            ],
          },
        };
        assert.equal(
          (await request(cluster, 'POST', `/api/v1/namespaces/${NS}/pods`, { body: pod })).status,
          201,
        );
        const log = await request(
          cluster,
          'POST',
          `/api/v1/namespaces/${NS}/pods/logger/log?container=main`,
          {
            body: 'hello\nworld\n',
            contentType: 'text/plain',
          },
        );
        assert.equal(log.status, 201);
      },
      stdout: 'hello\nworld\n',
      stderr: 'Defaulted container "main" out of: main, side\n',
    },
  ],
  ['logs of the other container', { args: ['logs', 'logger', '-c', 'side'], stdout: '' }],
  ['auth can-i as the admin', { args: ['auth', 'can-i', 'delete', 'configmaps'], stdout: 'yes\n' }],
  [
    'auth can-i as a ServiceAccount',
    {
      args: ['auth', 'can-i', 'delete', 'configmaps', '--as=system:serviceaccount:matrix:default'],
      code: 1,
      stdout: 'no\n',
    },
  ],
  [
    'get as a ServiceAccount that may not',
    {
      args: ['get', 'secrets', '--as=system:serviceaccount:matrix:default'],
      code: 1,
      stderr:
        'Error from server (Forbidden): secrets is forbidden: User "system:serviceaccount:matrix:default" cannot list resource "secrets" in API group "" in the namespace "matrix"\n',
    },
  ],
  [
    'auth whoami as a ServiceAccount',
    {
      args: ['auth', 'whoami', '--as=system:serviceaccount:matrix:default'],
      stdout:
        /^ATTRIBUTE\s+VALUE\nUsername\s+system:serviceaccount:matrix:default\nGroups\s+\[system:serviceaccounts system:serviceaccounts:matrix system:authenticated\]\n$/,
    },
  ],
  [
    'create a token',
    { args: ['create', 'token', 'default'], stdout: /^eyJ[\w-]+\.[\w-]+\.[\w-]+\n?$/ },
  ],
  [
    'create a quota',
    {
      args: ['create', 'quota', 'small', '--hard=configmaps=2'],
      stdout: 'resourcequota/small created\n',
    },
  ],
  [
    'a create over the quota',
    {
      args: ['create', 'configmap', 'over'],
      code: 1,
      stderr:
        'error: failed to create configmap: configmaps "over" is forbidden: exceeded quota: small, requested: configmaps=1, used: configmaps=2, limited: configmaps=2\n',
    },
  ],
  [
    'describe the quota',
    {
      args: ['describe', 'quota', 'small'],
      stdout: /Resource\s+Used\s+Hard\n-+\s+-+\s+-+\nconfigmaps\s+2\s+2\n/,
    },
  ],
  [
    'delete in the background',
    {
      args: ['delete', 'configmap', 'kube-root-ca.crt', '--cascade=background'],
      stdout: 'configmap "kube-root-ca.crt" deleted\n',
    },
  ],
  [
    'delete in the foreground',
    {
      args: ['delete', 'configmap', 'three', '--cascade=foreground'],
      stdout: 'configmap "three" deleted\n',
    },
  ],
  [
    'delete orphaning',
    {
      args: ['delete', 'statefulset', 'web', '--cascade=orphan'],
      stdout: 'statefulset.apps "web" deleted\n',
    },
  ],
  [
    'events',
    {
      args: ['get', 'events', '--field-selector', 'involvedObject.name=nope'],
      stderr: 'No resources found in matrix namespace.\n',
    },
  ],
  [
    'delete the namespace',
    {
      args: ['delete', 'namespace', NS, '--wait=false'],
      clusterWide: true,
      stdout: 'namespace "matrix" deleted\n',
    },
  ],
];

let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let kubectl: ReturnType<typeof kubectlIn>;

before(async () => {
  folder = await tempDir('paddock-kubectl-matrix-');
  const kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath });
  kubectl = kubectlIn(folder.path, kubeconfigPath);
  // Paddock's kinds, for explain of a custom kind.
  const kube = Kube.connect({ kubeconfig: kubeconfigPath });
  try {
    await installCrds(kube);
  } finally {
    kube.close();
  }
});

after(async () => {
  await cluster?.close();
  await folder?.remove();
});

function matches(actual: string, expected: string | RegExp | undefined, what: string): void {
  if (expected === undefined) return;
  if (typeof expected === 'string') assert.equal(actual, expected, what);
  else assert.match(actual, expected, what);
}

describe('kubectl, command by command, as against kube-apiserver', () => {
  for (const [name, row] of MATRIX) {
    it(name, async () => {
      for (const [file, text] of Object.entries(row.files ?? {}))
        await kubectl.manifest(file, text);
      await row.setup?.();
      const args = [...(row.clusterWide === true ? [] : ['-n', NS]), ...row.args].map((arg) =>
        arg.endsWith('.yaml') ? join(folder.path, arg) : arg,
      );
      let result: KubectlResult;
      if (row.stdin?.startsWith('FROM:') === true) {
        const input = await kubectl.ok('-n', NS, ...row.stdin.slice('FROM:'.length).split(' '));
        result = await kubectl.withInput(input, ...args);
      } else if (row.stdin !== undefined) {
        result = await kubectl.withInput(row.stdin, ...args);
      } else {
        result = await kubectl.kubectl(...args);
      }
      const said = `kubectl ${row.args.join(' ')}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
      assert.equal(result.code, row.code ?? 0, said);
      matches(result.stdout, row.stdout, said);
      matches(result.stderr, row.stderr, said);
    });
  }
});
