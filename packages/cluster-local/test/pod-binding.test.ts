import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startTestCluster, request, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;

before(async () => {
  cluster = await startTestCluster();
});

after(async () => {
  await cluster.close();
});

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web-0' },
  spec: { containers: [{ name: 'main', image: 'nginx:1' }] },
};

const binding = (node: unknown, kind = 'Node') => ({
  apiVersion: 'v1',
  kind: 'Binding',
  metadata: { name: 'web-0' },
  target: { kind, name: node },
});

describe('pods/binding', () => {
  it('assigns an unscheduled pod to a node once, as kube-apiserver does', async () => {
    const created = await request(cluster, 'POST', '/api/v1/namespaces/default/pods', {
      body: POD,
    });
    assert.equal(created.status, 201, created.text);
    const path = '/api/v1/namespaces/default/pods/web-0/binding';

    const bad = await request(cluster, 'POST', path, { body: binding('') });
    assert.equal(bad.status, 400, bad.text);
    const notNode = await request(cluster, 'POST', path, { body: binding('x', 'Pod') });
    assert.equal(notNode.status, 400, notNode.text);

    const bound = await request(cluster, 'POST', path, { body: binding('node-a') });
    assert.equal(bound.status, 201, bound.text);
    assert.equal((bound.body as { status: string }).status, 'Success');
    const pod = await request(cluster, 'GET', '/api/v1/namespaces/default/pods/web-0');
    assert.equal((pod.body as { spec: { nodeName: string } }).spec.nodeName, 'node-a');

    const again = await request(cluster, 'POST', path, { body: binding('node-b') });
    assert.equal(again.status, 409, again.text);
    assert.match((again.body as { message: string }).message, /already assigned to node "node-a"/);

    const missing = await request(cluster, 'POST', '/api/v1/namespaces/default/pods/nope/binding', {
      body: binding('node-a'),
    });
    assert.equal(missing.status, 404, missing.text);
  });
});
