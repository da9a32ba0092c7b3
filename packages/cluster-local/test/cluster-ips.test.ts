import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import { clusterIpAt, clusterIpsOf, freeClusterIp } from '../src/api/cluster-ips.js';
import { request, startTestCluster, type TestCluster } from './support/cluster.js';

describe('cluster IP allocation', () => {
  it('gives the lowest address no Service holds', () => {
    const table: [taken: string[], expected: string | undefined][] = [
      [[], '10.96.0.2'],
      [['10.96.0.2'], '10.96.0.3'],
      [['10.96.0.2', '10.96.0.4'], '10.96.0.3'],
      [['10.96.0.3'], '10.96.0.2'],
      [Array.from({ length: 249 }, (_, i) => clusterIpAt(i + 1)), '10.96.1.1'],
      [Array.from({ length: 250 * 250 - 1 }, (_, i) => clusterIpAt(i + 1)), undefined],
    ];
    for (const [taken, expected] of table) {
      assert.equal(freeClusterIp(new Set(taken)), expected, `${taken.length} taken`);
    }
  });

  it('counts clusterIP and clusterIPs of every Service', () => {
    const taken = clusterIpsOf([
      { spec: { clusterIP: '10.96.0.2', clusterIPs: ['10.96.0.2'] } },
      { spec: { clusterIPs: ['10.96.0.9'] } },
      { spec: { clusterIP: 'None' } },
      { metadata: {} },
    ]);
    assert.deepEqual([...taken].sort(), ['10.96.0.2', '10.96.0.9', 'None']);
  });
});

/** Creates a Service and answers its cluster IP. */
async function serviceIp(cluster: TestCluster, name: string): Promise<string> {
  const created = await request(cluster, 'POST', '/api/v1/namespaces/default/services', {
    body: { metadata: { name }, spec: { ports: [{ port: 80 }] } },
  });
  assert.equal(created.status, 201, created.text);
  return (created.body as { spec: { clusterIP: string } }).spec.clusterIP;
}

async function deleteService(cluster: TestCluster, name: string): Promise<void> {
  const deleted = await request(cluster, 'DELETE', `/api/v1/namespaces/default/services/${name}`);
  assert.equal(deleted.status, 200, deleted.text);
}

describe('Service cluster IPs', () => {
  it('are each cluster’s own: two clusters in one process allocate apart', async () => {
    const one = await startTestCluster();
    const two = await startTestCluster();
    try {
      assert.equal(await serviceIp(one, 'a'), '10.96.0.2');
      assert.equal(await serviceIp(two, 'a'), '10.96.0.2', 'another cluster starts its own range');
      assert.equal(await serviceIp(one, 'b'), '10.96.0.3');
      assert.equal(await serviceIp(two, 'b'), '10.96.0.3');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('never give an address a stored Service holds, across a restart, and reuse a freed one', async () => {
    const data = await tempDir('paddock-cluster-ips-');
    try {
      const first = await startTestCluster({ dataDir: data.path });
      const before = [await serviceIp(first, 'a'), await serviceIp(first, 'b')];
      await first.close();

      const second = await startTestCluster({ dataDir: data.path });
      try {
        const after = await serviceIp(second, 'c');
        assert.ok(!before.includes(after), `${after} is new after the restart`);
        await deleteService(second, 'a');
        assert.equal(await serviceIp(second, 'd'), before[0], 'a deleted Service frees its IP');
        const listed = await request(second, 'GET', '/api/v1/services');
        const ips = (listed.body as { items: { spec: { clusterIP: string } }[] }).items.map(
          (s) => s.spec.clusterIP,
        );
        assert.equal(new Set(ips).size, ips.length, `no IP twice: ${ips.join(', ')}`);
      } finally {
        await second.close();
      }
    } finally {
      await data.remove();
    }
  });
});
