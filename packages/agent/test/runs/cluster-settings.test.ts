import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_VERSION,
  CORE_KINDS,
  installCrds,
  KINDS,
  type AgentRuntime,
  type KubeObject,
  type PromptPack,
} from '@paddock/kube';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';
import { readSettings, settingsOf } from '../../src/runs/cluster-settings.js';

const NAMESPACE = 'agent-settings';

const pack = (systemPrompt: string, prompts?: PromptPack['spec']['prompts']): PromptPack => ({
  apiVersion: API_VERSION,
  kind: 'PromptPack',
  metadata: { name: 'pack', namespace: NAMESPACE },
  spec: { systemPrompt, ...(prompts ? { prompts } : {}) },
});

const agent = (spec: Partial<AgentRuntime['spec']> = {}): AgentRuntime => ({
  apiVersion: API_VERSION,
  kind: 'AgentRuntime',
  metadata: { name: 'agent', namespace: NAMESPACE },
  spec: { promptPackRef: { name: 'pack' }, model: 'gpt-5-mini', ...spec },
});

describe('the settings of a run, from the AgentRuntime and its PromptPack', () => {
  it('takes the model, the prompts and the defaults of the limits', () => {
    const settings = settingsOf(agent(), pack('Be brief.', [{ name: 'p', content: 'Do {{x}}.' }]));
    assert.equal(settings.model, 'gpt-5-mini');
    assert.equal(settings.system, 'Be brief.');
    assert.deepEqual(settings.prompts, [{ name: 'p', content: 'Do {{x}}.' }]);
    assert.deepEqual(settings.limits, { maxTurns: 50, maxTokens: 2_000_000, maxWallMs: 1_800_000 });
  });

  it('takes its limits and prices when it gives them', () => {
    const settings = settingsOf(
      agent({
        model: 'local-llama',
        runLimits: { maxTurns: 5, maxTokens: 1000, maxWallTime: '90s' },
        pricing: { 'local-llama': { input: '0.5', output: '1.25' } },
      }),
      pack('x'),
    );
    assert.deepEqual(settings.limits, { maxTurns: 5, maxTokens: 1000, maxWallMs: 90_000 });
    assert.equal(settings.price({ input: 2_000_000, output: 1_000_000 }), 2.25);
    assert.equal(
      settingsOf(agent({ model: 'unknown-model' }), pack('x')).price({ input: 1e6, output: 1e6 }),
      0,
    );
  });

  it('refuses runs while the AgentRuntime names no model', () => {
    assert.throws(() => settingsOf(agent({ model: undefined }), pack('x')), {
      code: 'unavailable',
      message: 'the AgentRuntime names no model: set spec.model',
    });
  });

  describe('read from the cluster', () => {
    let cluster: EmbeddedCluster;
    before(async () => {
      cluster = await startEmbeddedCluster();
      await installCrds(cluster.kube);
      await cluster.kube
        .resource<KubeObject>(CORE_KINDS.namespace)
        .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    });
    after(() => cluster.stop());

    it('reads them anew for each run, a changed pack included', async () => {
      const packs = cluster.kube.resource<PromptPack>(KINDS.find((k) => k.kind === 'PromptPack')!);
      const agents = cluster.kube.resource<AgentRuntime>(
        KINDS.find((k) => k.kind === 'AgentRuntime')!,
      );
      const ref = { namespace: NAMESPACE, name: 'agent' };
      await agents.create(agent());
      await assert.rejects(readSettings(cluster.kube, ref), {
        code: 'unavailable',
        message: /the PromptPack pack could not be read/,
      });
      await packs.create(pack('First.'));
      assert.equal((await readSettings(cluster.kube, ref)).system, 'First.');
      await packs.patch('pack', { spec: { systemPrompt: 'Second.' } }, { namespace: NAMESPACE });
      assert.equal((await readSettings(cluster.kube, ref)).system, 'Second.');
    });
  });
});
