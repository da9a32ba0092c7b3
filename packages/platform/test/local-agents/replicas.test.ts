import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LABEL_AGENT } from '@paddock/kube';
import {
  agentPod,
  LABEL_TEMPLATE_HASH,
  replicaPlan,
  runsLocally,
} from '../../src/local-agents/replicas.js';
import { agent, pod } from './fixtures.js';

describe('which pods an agent should have', () => {
  it('runs only the sandbox image here, whatever its tag or registry', () => {
    for (const image of [
      'paddock-sandbox',
      'paddock-sandbox:latest',
      'paddock-sandbox:1.2.3',
      'ghcr.io/paddock/paddock-sandbox:edge',
      'localhost:5000/paddock-sandbox',
      'paddock-sandbox@sha256:0123abcd',
    ]) {
      assert.ok(runsLocally(image), image);
    }
    for (const image of [
      'python:3.12',
      'paddock-sandboxed:1',
      'my-paddock-sandbox',
      'paddock-sandbox/other:1',
      'localhost:5000/agent',
    ]) {
      assert.ok(!runsLocally(image), image);
    }
  });

  it('makes replica i a pod <agent>-i, labelled, owned by the agent, with the agent’s image, env and port', () => {
    const made = agentPod(agent({ env: { B: '2', A: '1' } }), 1, 43210);
    assert.equal(made.metadata.name, 'helper-1');
    assert.equal(made.metadata.namespace, 'team');
    assert.equal(made.metadata.labels?.[LABEL_AGENT], 'helper');
    assert.deepEqual(made.metadata.ownerReferences, [
      {
        apiVersion: 'paddock.dev/v1alpha1',
        kind: 'AgentRuntime',
        name: 'helper',
        uid: 'uid-helper',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    assert.deepEqual(made.spec.containers, [
      {
        name: 'agent',
        image: 'paddock-sandbox:latest',
        env: [
          { name: 'B', value: '2' },
          { name: 'A', value: '1' },
        ],
        ports: [{ name: 'mcp', containerPort: 43210, protocol: 'TCP' }],
      },
    ]);
    assert.equal(made.spec.restartPolicy, 'Always');
  });

  it('creates the missing replicas and keeps the existing ones', () => {
    const helper = agent({ replicas: 3 });
    const plan = replicaPlan(helper, [pod(helper, 1)]);
    assert.deepEqual(plan.create, [0, 2]);
    assert.deepEqual(plan.remove, []);
    assert.deepEqual(
      plan.keep.map((p) => p.metadata.name),
      ['helper-1'],
    );
  });

  it('removes the replicas beyond the count, and all of them at zero or when the agent is deleted', () => {
    const helper = agent({ replicas: 1 });
    const pods = [pod(helper, 0), pod(helper, 1), pod(helper, 2)];
    assert.deepEqual(replicaPlan(helper, pods).remove, ['helper-1', 'helper-2']);
    assert.deepEqual(replicaPlan(agent({ replicas: 0 }), pods).remove.length, 3);
    const deleting = { ...helper, metadata: { ...helper.metadata, deletionTimestamp: 'now' } };
    assert.deepEqual(replicaPlan(deleting, pods), {
      create: [],
      remove: ['helper-0', 'helper-1', 'helper-2'],
      keep: [],
    });
  });

  it('replaces pods made from another image or env', () => {
    const before = agent({ replicas: 1 });
    const after = agent({ replicas: 1, env: { MODEL: 'other' } });
    const old = pod(before, 0);
    assert.notEqual(
      old.metadata.labels?.[LABEL_TEMPLATE_HASH],
      agentPod(after, 0, 1).metadata.labels?.[LABEL_TEMPLATE_HASH],
    );
    assert.deepEqual(replicaPlan(after, [old]), { create: [], remove: ['helper-0'], keep: [] });
    assert.deepEqual(replicaPlan(before, [old]).keep, [old]);
  });

  it('waits for a pod of a wanted name that is terminating or another agent’s, never touching it', () => {
    const helper = agent({ replicas: 2 });
    const terminating = pod(helper, 0);
    terminating.metadata.deletionTimestamp = '2030-01-01T00:00:00Z';
    const previous = pod(agent({ replicas: 2 }, 'helper'), 1);
    previous.metadata.ownerReferences = [{ ...previous.metadata.ownerReferences![0]!, uid: 'old' }];
    assert.deepEqual(replicaPlan(helper, [terminating, previous]), {
      create: [],
      remove: [],
      keep: [],
    });
  });

  it('removes an owned pod whose name is no replica’s', () => {
    const helper = agent({ replicas: 1 });
    const stray = pod(helper, 0);
    stray.metadata.name = 'helper-extra';
    assert.deepEqual(replicaPlan(helper, [stray]), {
      create: [0],
      remove: ['helper-extra'],
      keep: [],
    });
  });
});
