import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api, type V1ResourceQuota } from '@kubernetes/client-node';
import { eventually, tempDir } from '@paddock/testing';
import { failure, startTestCluster, type TestCluster } from './support/cluster.js';
import { kubectlIn, lateKubectl, type KubectlTools } from './support/kubectl.js';

let tools: KubectlTools;
const { kubectl, ok, manifest } = lateKubectl(() => tools);
let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let kubeconfigPath: string;
let core: CoreV1Api;

before(async () => {
  folder = await tempDir('paddock-quota-');
  kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath });
  tools = kubectlIn(folder.path, kubeconfigPath);
  core = cluster.admin.makeApiClient(CoreV1Api);
});

after(async () => {
  await cluster.close();
  await folder.remove();
});

/** The quota once its status shows this usage. */
async function quotaUsing(
  namespace: string,
  name: string,
  used: Record<string, string>,
): Promise<V1ResourceQuota> {
  return eventually(`${name} using ${JSON.stringify(used)}`, async () => {
    const quota = await core.readNamespacedResourceQuota({ namespace, name });
    const have = quota.status?.used ?? {};
    return Object.entries(used).every(([k, v]) => have[k] === v) ? quota : undefined;
  });
}

describe('ResourceQuota', () => {
  it('refuses the ConfigMap past `configmaps: 2` as kube-apiserver does, and frees the count on delete', async () => {
    await ok('create', 'namespace', 'counted');
    // The namespace's kube-root-ca.crt is a ConfigMap too: it is counted once it is there.
    await eventually('kube-root-ca.crt', async () =>
      (await kubectl('get', 'configmap', 'kube-root-ca.crt', '-n', 'counted')).code === 0
        ? true
        : undefined,
    );
    await ok('create', 'quota', 'q', '-n', 'counted', '--hard=configmaps=2,secrets=5');
    await ok('create', 'configmap', 'one', '-n', 'counted');
    const refused = await kubectl('create', 'configmap', 'two', '-n', 'counted');
    assert.notEqual(refused.code, 0);
    assert.equal(
      refused.stderr.trim(),
      'error: failed to create configmap: configmaps "two" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2',
    );
    const file = await manifest(
      'cm.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: three, namespace: counted}\n',
    );
    const applied = await kubectl('apply', '-f', file);
    assert.match(
      applied.stderr,
      /Error from server \(Forbidden\): error when creating ".*cm\.yaml": configmaps "three" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2/,
    );
    // A refusal is a Status of reason Forbidden, naming the object.
    const status = await failure(
      core.createNamespacedConfigMap({
        namespace: 'counted',
        body: { metadata: { name: 'four' } },
      }),
    );
    assert.equal(status.code, 403);
    assert.equal(status.reason, 'Forbidden');
    assert.deepEqual(status.details, { name: 'four', kind: 'configmaps' });

    await quotaUsing('counted', 'q', { configmaps: '2', secrets: '0' });
    await ok('delete', 'configmap', 'one', '-n', 'counted');
    await quotaUsing('counted', 'q', { configmaps: '1' });
    await ok('create', 'configmap', 'two', '-n', 'counted');
    await quotaUsing('counted', 'q', { configmaps: '2' });
  });

  it('refuses pods past requests.cpu, and pods that do not say what they request', async () => {
    await ok('create', 'namespace', 'compute');
    await ok(
      'apply',
      '-f',
      await manifest(
        'compute-quota.yaml',
        `apiVersion: v1
kind: ResourceQuota
metadata: {name: compute, namespace: compute}
spec:
  hard: {requests.cpu: "1", requests.memory: 1Gi, limits.memory: 2Gi, pods: "10"}
`,
      ),
    );
    const podFile = (name: string, cpu: string) =>
      manifest(
        `${name}.yaml`,
        `apiVersion: v1
kind: Pod
metadata: {name: ${name}, namespace: compute}
spec:
  containers:
    - name: app
      image: busybox
      resources:
        requests: {cpu: ${cpu}, memory: 256Mi}
        limits: {memory: 512Mi}
`,
      );
    await ok('apply', '-f', await podFile('first', '600m'));
    const over = await kubectl('apply', '-f', await podFile('second', '500m'));
    assert.match(
      over.stderr,
      /pods "second" is forbidden: exceeded quota: compute, requested: requests.cpu=500m, used: requests.cpu=600m, limited: requests.cpu=1\n/,
    );
    await ok('apply', '-f', await podFile('third', '0.4'));

    const bare = await manifest(
      'bare.yaml',
      `apiVersion: v1
kind: Pod
metadata: {name: bare, namespace: compute}
spec:
  containers: [{name: app, image: busybox, resources: {requests: {cpu: 100m}}}]
`,
    );
    const unspecified = await kubectl('apply', '-f', bare);
    assert.match(
      unspecified.stderr,
      /pods "bare" is forbidden: failed quota: compute: must specify limits.memory for: app; requests.memory for: app\n/,
    );

    await quotaUsing('compute', 'compute', {
      'requests.cpu': '1',
      'requests.memory': '512Mi',
      'limits.memory': '1Gi',
      pods: '2',
    });
    const described = await ok('describe', 'quota', 'compute', '-n', 'compute');
    assert.match(described, /Name:\s+compute\nNamespace:\s+compute\nResource\s+Used\s+Hard\n/);
    for (const row of [
      /limits\.memory\s+1Gi\s+2Gi/,
      /pods\s+2\s+10/,
      /requests\.cpu\s+1\s+1/,
      /requests\.memory\s+512Mi\s+1Gi/,
    ]) {
      assert.match(described, row);
    }
  });

  it('counts by count/<resource>, and lets no two racing creates both through', async () => {
    await ok('create', 'namespace', 'racing');
    await ok('create', 'quota', 'q', '-n', 'racing', '--hard=count/secrets=3');
    const creates = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        core.createNamespacedSecret({ namespace: 'racing', body: { metadata: { name: `s${i}` } } }),
      ),
    );
    assert.equal(creates.filter((c) => c.status === 'fulfilled').length, 3);
    const { items } = await core.listNamespacedSecret({ namespace: 'racing' });
    assert.equal(items.length, 3);
    await quotaUsing('racing', 'q', { 'count/secrets': '3' });
  });

  it('refuses a server-side dry run as it would the write, and follows a change of its limits', async () => {
    await ok('create', 'namespace', 'changing');
    await ok('create', 'quota', 'q', '-n', 'changing', '--hard=services=1');
    await ok('create', 'service', 'clusterip', 'a', '--tcp=80', '-n', 'changing');
    const dry = await kubectl(
      'create',
      'service',
      'clusterip',
      'b',
      '--tcp=80',
      '-n',
      'changing',
      '--dry-run=server',
    );
    assert.match(
      dry.stderr,
      /exceeded quota: q, requested: services=1, used: services=1, limited: services=1/,
    );
    await ok('patch', 'quota', 'q', '-n', 'changing', '-p', '{"spec":{"hard":{"services":"2"}}}');
    const quota = await eventually('the new hard limit', async () => {
      const q = await core.readNamespacedResourceQuota({ namespace: 'changing', name: 'q' });
      return q.status?.hard?.['services'] === '2' ? q : undefined;
    });
    assert.deepEqual(quota.status?.used, { services: '1' });
    await ok('create', 'service', 'clusterip', 'b', '--tcp=80', '-n', 'changing');
  });
});
