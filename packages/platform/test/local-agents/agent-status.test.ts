import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentStatus } from '../../src/local-agents/agent-status.js';
import type { PodStatus } from '../../src/local-agents/pod.js';
import { agent, pod, RUNNING } from './fixtures.js';

const PENDING: PodStatus = { phase: 'Pending' };
const CRASHING: PodStatus = {
  phase: 'Failed',
  containerStatuses: [
    {
      name: 'agent',
      image: 'paddock-sandbox:latest',
      ready: false,
      started: false,
      restartCount: 3,
      state: { waiting: { reason: 'CrashLoopBackOff' } },
      lastState: {},
    },
  ],
};

describe('an agent’s status', () => {
  it('is Running once every wanted replica serves, with the counts and the generation seen', () => {
    const helper = agent({ replicas: 2 });
    assert.deepEqual(agentStatus(helper, [pod(helper, 0, RUNNING), pod(helper, 1, RUNNING)]), {
      phase: 'Running',
      replicas: 2,
      readyReplicas: 2,
      observedGeneration: 3,
    });
  });

  it('is Pending while replicas are missing or not ready yet', () => {
    const helper = agent({ replicas: 2 });
    assert.deepEqual(agentStatus(helper, [pod(helper, 0, RUNNING)]), {
      phase: 'Pending',
      replicas: 1,
      readyReplicas: 1,
      observedGeneration: 3,
    });
    assert.equal(
      agentStatus(helper, [pod(helper, 0, RUNNING), pod(helper, 1, PENDING)]).phase,
      'Pending',
    );
    const terminating = pod(helper, 1, RUNNING);
    terminating.metadata.deletionTimestamp = '2030-01-01T00:00:00Z';
    assert.deepEqual(agentStatus(helper, [pod(helper, 0, RUNNING), terminating]).replicas, 1);
  });

  it('is Failed while a replica is in crash-loop back-off', () => {
    const helper = agent({ replicas: 2 });
    assert.equal(
      agentStatus(helper, [pod(helper, 0, RUNNING), pod(helper, 1, CRASHING)]).phase,
      'Failed',
    );
  });

  it('counts only the agent’s own pods, and keeps what other controllers wrote', () => {
    const helper = agent({ replicas: 1 });
    helper.status = {
      conditions: [
        {
          type: 'ReplicasLimited',
          status: 'False',
          reason: 'WithinLimit',
          message: 'ok',
          lastTransitionTime: 'x',
        },
      ],
      costUsage: { day: '2030-01-01', dailySpend: '1.00' },
    };
    const foreign = pod(agent({}, 'other'), 0, RUNNING);
    foreign.metadata.name = 'helper-0';
    const status = agentStatus(helper, [foreign]);
    assert.equal(status.replicas, 0);
    assert.equal(status.phase, 'Pending');
    assert.deepEqual(status.costUsage, helper.status.costUsage);
    assert.deepEqual(status.conditions, helper.status.conditions);
  });

  it('is Running with no replica wanted and none left', () => {
    assert.deepEqual(agentStatus(agent({ replicas: 0 }), []), {
      phase: 'Running',
      replicas: 0,
      readyReplicas: 0,
      observedGeneration: 3,
    });
  });
});
