import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { eventually } from '@paddock/testing';
import { publishesCertificate } from '../src/controllers/root-ca-publisher.js';
import { startTestCluster, type TestCluster } from './support/cluster.js';

const NAME = 'kube-root-ca.crt';

describe('the root CA publisher', () => {
  let cluster: TestCluster;
  let core: CoreV1Api;

  before(async () => {
    cluster = await startTestCluster();
    core = cluster.admin.makeApiClient(CoreV1Api);
  });

  after(() => cluster.close());

  /** The namespace's kube-root-ca.crt once it holds the server's certificate. */
  const published = (namespace: string) =>
    eventually(`${namespace}/${NAME} published`, async () => {
      const found = await core
        .readNamespacedConfigMap({ name: NAME, namespace })
        .catch(() => undefined);
      return found?.data?.['ca.crt'] === cluster.caCertificate ? found : undefined;
    });

  it('gives every namespace, new ones included, the certificate that verifies the server', async () => {
    await published('default');
    await core.createNamespace({ body: { metadata: { name: 'fresh' } } });
    const configMap = await published('fresh');
    assert.deepEqual(Object.keys(configMap.data ?? {}), ['ca.crt']);
    assert.match(
      configMap.metadata?.annotations?.['kubernetes.io/description'] ?? '',
      /verify the kube-apiserver/,
    );
    // The certificate verifies the server's TLS side.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        `${cluster.httpsUrl}/readyz`,
        {
          ca: configMap.data!['ca.crt'],
          headers: { Authorization: `Bearer ${cluster.adminToken}` },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(status, 200);
  });

  it('brings the ConfigMap back when it is deleted, and its certificate back when changed', async () => {
    const before = await published('fresh');
    await core.deleteNamespacedConfigMap({ name: NAME, namespace: 'fresh' });
    const again = await published('fresh');
    assert.notEqual(again.metadata?.uid, before.metadata?.uid, 'made anew');

    await core.replaceNamespacedConfigMap({
      name: NAME,
      namespace: 'fresh',
      body: { ...again, data: { 'ca.crt': 'not a certificate', extra: 'x' } },
    });
    const restored = await published('fresh');
    assert.deepEqual(Object.keys(restored.data ?? {}), ['ca.crt']);
    assert.equal(restored.metadata?.uid, again.metadata?.uid, 'the same object, put right');
  });

  it('leaves a terminating namespace to its deletion', async () => {
    await core.createNamespace({ body: { metadata: { name: 'going' } } });
    await published('going');
    await core.deleteNamespace({ name: 'going' });
    await eventually('the namespace gone', async () =>
      (await core.readNamespace({ name: 'going' }).catch(() => undefined)) ? undefined : true,
    );
    await cluster.settled();
    const left = await core.readNamespacedConfigMap({ name: NAME, namespace: 'going' }).then(
      () => true,
      () => false,
    );
    assert.equal(left, false);
  });

  it('reads a ConfigMap as published only with exactly the certificate', () => {
    const cases: [Record<string, unknown>, boolean][] = [
      [{ data: { 'ca.crt': 'PEM' } }, true],
      [{ data: { 'ca.crt': 'other' } }, false],
      [{ data: { 'ca.crt': 'PEM', extra: 'x' } }, false],
      [{}, false],
    ];
    for (const [object, expected] of cases) {
      assert.equal(publishesCertificate({ metadata: {}, ...object }, 'PEM'), expected);
    }
  });
});
