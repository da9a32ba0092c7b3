import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CORE_KINDS, installCrds, Kube, type KubeObject } from '@paddock/kube';
import { DEBIAN_PYTHON, tempDir } from '@paddock/testing';
import { startTestCluster, type TestCluster } from './support/cluster.js';

/**
 * The embedded cluster through the official Python client (Debian's python3-kubernetes): CRUD of
 * a custom resource through CustomObjectsApi, a watch from a list's resourceVersion, and 410 Gone
 * for a version the change log no longer reaches, after which a new list gives one to watch from.
 */

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, 'fixtures', 'python-client.py');
const NAMESPACE = 'python';
/** Small, so that a few writes outrun it. */
const CHANGE_LOG_SIZE = 20;

let cluster: TestCluster;
let folder: Awaited<ReturnType<typeof tempDir>>;
let steps: Record<string, Record<string, unknown>>;

before(async () => {
  folder = await tempDir('paddock-python-client-');
  const kubeconfigPath = join(folder.path, 'kubeconfig');
  cluster = await startTestCluster({ kubeconfigPath, changeLogSize: CHANGE_LOG_SIZE });
  const kube = Kube.connect({ kubeconfig: kubeconfigPath });
  try {
    await installCrds(kube);
    const namespaces = kube.resource<KubeObject>(CORE_KINDS.namespace);
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    await namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'churn' } });
    const configMaps = kube.resource<KubeObject>(CORE_KINDS.configMap);
    const old = (await configMaps.list({ namespace: NAMESPACE })).metadata?.resourceVersion;
    // More writes than the change log holds: `old` can no longer be watched from.
    for (let i = 0; i < CHANGE_LOG_SIZE + 5; i++) {
      await configMaps.create({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: `churn-${i}`, namespace: 'churn' },
      });
    }
    const { stdout } = await run(DEBIAN_PYTHON, [SCRIPT, kubeconfigPath, NAMESPACE, old ?? '1'], {
      env: { PATH: process.env['PATH'], HOME: folder.path },
      timeout: 120_000,
    });
    steps = Object.fromEntries(
      stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .map(({ step, ...facts }) => [String(step), facts]),
    );
  } finally {
    kube.close();
  }
});

after(async () => {
  await cluster?.close();
  await folder?.remove();
});

describe('the official Python client', () => {
  it('creates, reads, patches, replaces, lists and deletes a custom resource', () => {
    assert.deepEqual(steps['create'], { name: 'from-python', uid: true });
    assert.deepEqual(steps['get'], { systemPrompt: 'Be brief.' });
    assert.deepEqual(steps['patch'], { systemPrompt: 'Be kind.' });
    assert.deepEqual(steps['replace'], { systemPrompt: 'Be exact.' });
    assert.deepEqual(steps['list'], { names: ['from-python'] });
    assert.deepEqual(steps['deleted'], { status: 404 });
  });

  it('watches from a list’s resourceVersion', () => {
    assert.deepEqual(steps['watch'], { type: 'ADDED', name: 'watched' });
  });

  it('gets 410 Gone for a version the server no longer keeps, and watches again after a list', () => {
    assert.deepEqual(steps['stale-watch'], { status: 410 });
    assert.deepEqual(steps['relist-watch'], { type: 'ADDED' });
  });
});
