import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_VERSION,
  CORE_KINDS,
  installCrds,
  KINDS,
  type AgentRuntime,
  type KubeObject,
  type ResourceClient,
} from '@paddock/kube';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';
import { CostReporter } from '../../src/cost/cost-reporter.js';

const NAMESPACE = 'agent-cost';

describe("the agent's spend in its AgentRuntime's status", () => {
  let cluster: EmbeddedCluster;
  let agents: ResourceClient<AgentRuntime>;
  before(async () => {
    cluster = await startEmbeddedCluster();
    await installCrds(cluster.kube);
    await cluster.kube
      .resource<KubeObject>(CORE_KINDS.namespace)
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    agents = cluster.kube.resource<AgentRuntime>(KINDS.find((k) => k.kind === 'AgentRuntime')!);
  });
  after(() => cluster.stop());

  async function agent(name: string, costUsage?: AgentRuntime['status']) {
    await agents.create({
      apiVersion: API_VERSION,
      kind: 'AgentRuntime',
      metadata: { name, namespace: NAMESPACE },
      spec: { promptPackRef: { name: 'pack' } },
    });
    if (costUsage)
      await agents.patch(
        name,
        { status: costUsage },
        { namespace: NAMESPACE, subresource: 'status' },
      );
    let clock = new Date('2026-11-26T10:00:00Z');
    const errors: unknown[] = [];
    const reporter = new CostReporter({
      read: async () => (await agents.get(name, NAMESPACE)).status?.costUsage,
      write: async (costUsage) => {
        await agents.patch(
          name,
          { status: { costUsage } },
          { namespace: NAMESPACE, subresource: 'status' },
        );
      },
      now: () => clock,
      onError: (error) => errors.push(error),
    });
    await reporter.start();
    return {
      reporter,
      errors,
      setClock: (iso: string) => (clock = new Date(iso)),
      costUsage: async () => (await agents.get(name, NAMESPACE)).status?.costUsage,
    };
  }

  it('adds each spend to what the status said, rounded up to the cent', async () => {
    const a = await agent('spender', {
      costUsage: { day: '2026-11-26', dailySpend: '1.00', month: '2026-11', monthlySpend: '10.00' },
    });
    for (let i = 0; i < 50; i++) a.reporter.add(0.001);
    await a.reporter.flushed();
    assert.deepEqual(await a.costUsage(), {
      day: '2026-11-26',
      dailySpend: '1.05',
      month: '2026-11',
      monthlySpend: '10.05',
    });
    a.setClock('2026-11-27T00:01:00Z');
    a.reporter.add(0.2);
    await a.reporter.flushed();
    assert.deepEqual(await a.costUsage(), {
      day: '2026-11-27',
      dailySpend: '0.20',
      month: '2026-11',
      monthlySpend: '10.25',
    });
    assert.deepEqual(a.errors, []);
  });

  it('reports a failed write and writes again with the next spend', async () => {
    const a = await agent('flaky');
    await agents.delete('flaky', NAMESPACE);
    a.reporter.add(0.5);
    await a.reporter.flushed();
    assert.equal(a.errors.length, 1);
    assert.match(String(a.errors[0]), /not ?found/i);
  });
});
