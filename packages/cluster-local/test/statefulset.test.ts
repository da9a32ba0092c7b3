import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { eventually, tempDir } from '@paddock/testing';
import { StatefulSet } from 'kubernetes-models/apps/v1';
import { PersistentVolumeClaim, Pod } from 'kubernetes-models/v1';
import { startTestCluster, request, type TestCluster } from './support/cluster.js';

const run = promisify(execFile);

let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let kubeconfigPath: string;

before(async () => {
  folder = await tempDir('paddock-sts-');
  kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath });
});

after(async () => {
  await cluster.close();
  await folder.remove();
});

async function kubectl(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(
      'kubectl',
      ['--kubeconfig', kubeconfigPath, '--cache-dir', join(folder.path, 'cache'), ...args],
      { env: { ...process.env, HOME: folder.path } },
    );
    return stdout;
  } catch (err) {
    const failed = err as { stderr: string };
    assert.fail(`kubectl ${args.join(' ')}: ${failed.stderr}`);
  }
}

async function apply(name: string, text: string): Promise<void> {
  const file = join(folder.path, name);
  await writeFile(file, text);
  await kubectl('apply', '-f', file);
}

interface Meta {
  name: string;
  generation?: number;
  labels?: Record<string, string>;
  ownerReferences?: Array<{ kind: string; name: string; controller?: boolean }>;
}
interface Obj {
  apiVersion?: string;
  kind?: string;
  metadata: Meta;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

async function get(path: string): Promise<Obj | undefined> {
  const answer = await request(cluster, 'GET', path);
  if (answer.status === 404) return undefined;
  assert.equal(answer.status, 200, answer.text);
  return answer.body as Obj;
}

async function list(namespace: string, plural: 'pods' | 'persistentvolumeclaims'): Promise<Obj[]> {
  await cluster.settled();
  const answer = await request(cluster, 'GET', `/api/v1/namespaces/${namespace}/${plural}`);
  assert.equal(answer.status, 200, answer.text);
  return (answer.body as { items: Obj[] }).items;
}

const names = async (namespace: string, plural: 'pods' | 'persistentvolumeclaims') =>
  (await list(namespace, plural)).map((o) => o.metadata.name).sort();

/** What a kubelet reports once the pod's containers run and pass their readiness probe. */
async function runAndReady(namespace: string, pod: string): Promise<void> {
  await cluster.settled();
  const answer = await request(
    cluster,
    'PATCH',
    `/api/v1/namespaces/${namespace}/pods/${pod}/status`,
    {
      contentType: 'application/merge-patch+json',
      body: {
        status: {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            { name: 'main', ready: true, restartCount: 0, image: 'x', imageID: '', started: true },
          ],
        },
      },
    },
  );
  assert.equal(answer.status, 200, answer.text);
  await cluster.settled();
}

const setPath = (namespace: string, name: string) =>
  `/apis/apps/v1/namespaces/${namespace}/statefulsets/${name}`;

function manifest(
  namespace: string,
  name: string,
  replicas: number,
  options: { image?: string; whenDeleted?: string; whenScaled?: string; parallel?: boolean } = {},
): string {
  return `apiVersion: v1
kind: Namespace
metadata:
  name: ${namespace}
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  replicas: ${replicas}
  serviceName: ${name}
${options.parallel ? '  podManagementPolicy: Parallel\n' : ''}  selector:
    matchLabels:
      app: ${name}
  persistentVolumeClaimRetentionPolicy:
    whenDeleted: ${options.whenDeleted ?? 'Retain'}
    whenScaled: ${options.whenScaled ?? 'Retain'}
  template:
    metadata:
      labels:
        app: ${name}
    spec:
      containers:
        - name: main
          image: ${options.image ?? 'nginx:1'}
          volumeMounts:
            - name: data
              mountPath: /data
  volumeClaimTemplates:
    - metadata:
        name: data
      spec:
        accessModes: [ReadWriteOnce]
        resources:
          requests:
            storage: 1Gi
`;
}

describe('StatefulSets in the embedded cluster', () => {
  it('creates pods in order, each once the one before is Running and Ready, with claims', async () => {
    await apply('web.yaml', manifest('shop', 'web', 2, { whenDeleted: 'Delete' }));
    assert.deepEqual(await names('shop', 'pods'), ['web-0']);
    assert.deepEqual(await names('shop', 'persistentvolumeclaims'), ['data-web-0']);
    // Not ready yet: ordinal 1 waits.
    await request(cluster, 'PATCH', '/api/v1/namespaces/shop/pods/web-0/status', {
      contentType: 'application/merge-patch+json',
      body: { status: { phase: 'Running' } },
    });
    assert.deepEqual(await names('shop', 'pods'), ['web-0']);
    await runAndReady('shop', 'web-0');
    assert.deepEqual(await names('shop', 'pods'), ['web-0', 'web-1']);
    await runAndReady('shop', 'web-1');

    const set = (await get(setPath('shop', 'web')))!;
    const status = set.status!;
    assert.equal(status['replicas'], 2);
    assert.equal(status['readyReplicas'], 2);
    assert.equal(status['availableReplicas'], 2);
    assert.equal(status['updatedReplicas'], 2);
    assert.equal(status['currentReplicas'], 2);
    assert.equal(status['observedGeneration'], 1);
    assert.equal(status['currentRevision'], status['updateRevision']);
    assert.match(String(status['updateRevision']), /^web-[0-9a-f]{10}$/);

    const pod = (await get('/api/v1/namespaces/shop/pods/web-1'))!;
    assert.equal(pod.metadata.labels?.['statefulset.kubernetes.io/pod-name'], 'web-1');
    assert.equal(pod.metadata.labels?.['controller-revision-hash'], status['updateRevision']);
    assert.equal(pod.metadata.labels?.['app'], 'web');
    assert.deepEqual(
      pod.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.controller]),
      [['StatefulSet', 'web', true]],
    );
    const claim = (await get('/api/v1/namespaces/shop/persistentvolumeclaims/data-web-1'))!;
    assert.deepEqual(claim.metadata.labels, { app: 'web' });

    // The objects as served are what Kubernetes' own schemas accept.
    new StatefulSet(set as never).validate();
    new Pod(pod as never).validate();
    new PersistentVolumeClaim(claim as never).validate();
  });

  it('prints the table kubectl shows for a StatefulSet, wide too', async () => {
    const table = await kubectl('get', 'sts', '-n', 'shop');
    assert.match(table, /^NAME\s+READY\s+AGE\s*\n/);
    assert.match(table, /\nweb\s+2\/2\s+\d+s\s*\n/);
    const wide = await kubectl('get', 'statefulsets', '-n', 'shop', '-o', 'wide');
    assert.match(wide, /^NAME\s+READY\s+AGE\s+CONTAINERS\s+IMAGES\s*\n/);
    assert.match(wide, /\nweb\s+2\/2\s+\d+s\s+main\s+nginx:1\s*\n/);
  });

  it('scales through the scale subresource with kubectl, and kubectl rollout status follows', async () => {
    const scale = (await get(`${setPath('shop', 'web')}/scale`))!;
    assert.equal(scale.kind, 'Scale');
    assert.deepEqual(scale.spec, { replicas: 2 });
    assert.deepEqual(scale.status, { replicas: 2, selector: 'app=web' });

    await kubectl('scale', 'sts/web', '-n', 'shop', '--replicas=3');
    assert.deepEqual(await names('shop', 'pods'), ['web-0', 'web-1', 'web-2']);
    await runAndReady('shop', 'web-2');
    const out = await kubectl('rollout', 'status', 'sts/web', '-n', 'shop', '--timeout=20s');
    assert.match(
      out,
      /partitioned roll out complete: 3 new pods have been updated|roll out complete/,
    );
  });

  it('scales down from the highest ordinal, keeping claims under whenScaled Retain', async () => {
    await kubectl('scale', 'sts/web', '-n', 'shop', '--replicas=1');
    assert.deepEqual(await names('shop', 'pods'), ['web-0']);
    assert.deepEqual(await names('shop', 'persistentvolumeclaims'), [
      'data-web-0',
      'data-web-1',
      'data-web-2',
    ]);
    const status = (await get(setPath('shop', 'web')))!.status!;
    assert.equal(status['replicas'], 1);
    assert.equal(status['readyReplicas'], 1);
    // Scaling up again finds the kept claim.
    await kubectl('scale', 'sts/web', '-n', 'shop', '--replicas=2');
    assert.deepEqual(await names('shop', 'pods'), ['web-0', 'web-1']);
    await runAndReady('shop', 'web-1');
  });

  it('replaces pods of a changed template highest ordinal first, each once the last is Ready', async () => {
    const before = (await get(setPath('shop', 'web')))!.status!;
    await kubectl('set', 'image', 'sts/web', '-n', 'shop', 'main=nginx:2');
    await cluster.settled();
    const revisionOf = async (pod: string) =>
      (await get(`/api/v1/namespaces/shop/pods/${pod}`))?.metadata.labels?.[
        'controller-revision-hash'
      ];
    const changed = (await get(setPath('shop', 'web')))!;
    const during = changed.status!;
    const updated = during['updateRevision'];
    assert.notEqual(updated, before['updateRevision']);
    assert.equal(during['currentRevision'], before['currentRevision']);
    assert.equal(during['observedGeneration'], changed.metadata.generation);
    assert.equal(await revisionOf('web-1'), updated);
    assert.equal(await revisionOf('web-0'), before['updateRevision']);
    // web-1 is not Ready yet: web-0 waits.
    await cluster.settled();
    assert.equal(await revisionOf('web-0'), before['updateRevision']);
    await runAndReady('shop', 'web-1');
    assert.equal(await revisionOf('web-0'), updated);
    await runAndReady('shop', 'web-0');
    const done = (await get(setPath('shop', 'web')))!.status!;
    assert.equal(done['currentRevision'], updated);
    assert.equal(done['updatedReplicas'], 2);
    assert.equal(done['currentReplicas'], 2);
    await kubectl('rollout', 'status', 'sts/web', '-n', 'shop', '--timeout=20s');
  });

  it('deletes pods with the set, and the claims too under whenDeleted Delete', async () => {
    await kubectl('delete', 'sts', 'web', '-n', 'shop', '--cascade=background');
    await eventually('the pods and claims of web to go', async () =>
      (await names('shop', 'pods')).length === 0 &&
      (await names('shop', 'persistentvolumeclaims')).length === 0
        ? true
        : undefined,
    );
  });

  it('keeps claims under whenDeleted Retain, and deletes a scaled-down claim under whenScaled Delete', async () => {
    await apply('db.yaml', manifest('data', 'db', 3, { whenScaled: 'Delete', parallel: true }));
    assert.deepEqual(await names('data', 'pods'), ['db-0', 'db-1', 'db-2']);
    for (const pod of ['db-0', 'db-1', 'db-2']) await runAndReady('data', pod);
    await kubectl('scale', 'sts/db', '-n', 'data', '--replicas=2');
    assert.deepEqual(await names('data', 'pods'), ['db-0', 'db-1']);
    assert.deepEqual(await names('data', 'persistentvolumeclaims'), ['data-db-0', 'data-db-1']);
    await kubectl('delete', 'sts', 'db', '-n', 'data');
    await eventually('the pods of db to go', async () =>
      (await names('data', 'pods')).length === 0 ? true : undefined,
    );
    assert.deepEqual(await names('data', 'persistentvolumeclaims'), ['data-db-0', 'data-db-1']);
  });

  it('refuses a StatefulSet whose selector does not match its template, or a change of a fixed field', async () => {
    const bad = await request(cluster, 'POST', '/apis/apps/v1/namespaces/data/statefulsets', {
      body: {
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'bad' },
        spec: {
          selector: { matchLabels: { app: 'a' } },
          template: {
            metadata: { labels: { app: 'b' } },
            spec: { containers: [{ name: 'c', image: 'i' }] },
          },
        },
      },
    });
    assert.equal(bad.status, 422, bad.text);
    assert.match(bad.text, /`selector` does not match template `labels`/);
    assert.equal(await get(setPath('data', 'bad')), undefined);

    await apply('fixed.yaml', manifest('data', 'fixed', 0));
    const changed = await request(cluster, 'PATCH', setPath('data', 'fixed'), {
      contentType: 'application/merge-patch+json',
      body: { spec: { serviceName: 'other' } },
    });
    assert.equal(changed.status, 422, changed.text);
    assert.match(changed.text, /updates to statefulset spec for fields other than/);
  });
});

describe('a StatefulSet across a restart of the embedded cluster', () => {
  it('goes on from what is stored: the controller resumes with the pods and claims it made', async () => {
    const data = await tempDir('paddock-sts-data-');
    try {
      const first = await startTestCluster({ dataDir: data.path });
      const created = await request(first, 'POST', '/api/v1/namespaces', {
        body: { metadata: { name: 'keep' } },
      });
      assert.equal(created.status, 201, created.text);
      const set = await request(first, 'POST', '/apis/apps/v1/namespaces/keep/statefulsets', {
        body: {
          metadata: { name: 'kv' },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'kv' } },
            template: {
              metadata: { labels: { app: 'kv' } },
              spec: { containers: [{ name: 'main', image: 'kv:1' }] },
            },
          },
        },
      });
      assert.equal(set.status, 201, set.text);
      await first.settled();
      await first.close();

      const second = await startTestCluster({ dataDir: data.path });
      try {
        const pods = async () => {
          await second.settled();
          const answer = await request(second, 'GET', '/api/v1/namespaces/keep/pods');
          return (answer.body as { items: Obj[] }).items.map((p) => p.metadata.name);
        };
        assert.deepEqual(await pods(), ['kv-0']);
        const ready = await request(second, 'PATCH', '/api/v1/namespaces/keep/pods/kv-0/status', {
          contentType: 'application/merge-patch+json',
          body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
        });
        assert.equal(ready.status, 200, ready.text);
        assert.deepEqual(await pods(), ['kv-0', 'kv-1']);
      } finally {
        await second.close();
      }
    } finally {
      await data.remove();
    }
  });
});
