import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  phaseOf,
  podStatus,
  terminatedState,
  type ContainerRunState,
  type RestartPolicy,
} from '../../src/local-node/pod-status.js';

const T0 = '2030-01-01T00:00:00Z';
const T1 = '2030-01-01T00:00:05Z';
const T2 = '2030-01-01T00:01:00Z';
const CONTAINER = { name: 'sandbox', image: 'paddock-sandbox:latest' };
const AGENT = { name: 'agent', image: 'paddock-sandbox:latest' };
const POD = { startTime: T0, ip: '127.1.0.1' };

const starting: ContainerRunState = {
  container: { waiting: { reason: 'ContainerCreating' } },
  lastState: {},
  restartCount: 0,
  ready: false,
};
const running: ContainerRunState = { ...starting, container: { running: { startedAt: T0 } } };
const exited = (code: number): ContainerRunState => ({
  ...starting,
  container: terminatedState({ code, signal: null }, T0, T1),
});
const backingOff: ContainerRunState = {
  ...starting,
  container: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s' } },
  lastState: terminatedState({ code: 2, signal: null }, T0, T1),
  restartCount: 1,
};

describe('a local pod’s status', () => {
  it('is Pending while the process starts, with its own address and the node’s', () => {
    const status = podStatus([CONTAINER], 'Always', POD, [starting], undefined, T0);
    assert.equal(status.phase, 'Pending');
    assert.equal(status.podIP, '127.1.0.1');
    assert.deepEqual(status.podIPs, [{ ip: '127.1.0.1' }]);
    assert.equal(status.hostIP, '127.0.0.1');
    assert.equal(status.startTime, T0);
    assert.deepEqual(
      status.conditions?.map((c) => [c.type, c.status]),
      [
        ['PodScheduled', 'True'],
        ['Initialized', 'True'],
        ['ContainersReady', 'False'],
        ['Ready', 'False'],
      ],
    );
    assert.equal(
      status.conditions?.find((c) => c.type === 'Ready')?.message,
      'containers with unready status: [sandbox]',
    );
    assert.deepEqual(status.containerStatuses, [
      {
        name: 'sandbox',
        image: 'paddock-sandbox:latest',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ContainerCreating' } },
        lastState: {},
      },
    ]);
  });

  it('is Running once the process runs, Ready only once its probe says so', () => {
    const unready = podStatus([CONTAINER], 'Always', POD, [running], undefined, T0);
    assert.equal(unready.phase, 'Running');
    assert.equal(unready.containerStatuses?.[0]?.started, true);
    assert.equal(unready.containerStatuses?.[0]?.ready, false);
    const ready = podStatus([CONTAINER], 'Always', POD, [{ ...running, ready: true }], unready, T1);
    assert.equal(ready.containerStatuses?.[0]?.ready, true);
    assert.deepEqual(
      ready.conditions?.find((c) => c.type === 'Ready'),
      { type: 'Ready', status: 'True', lastTransitionTime: T1 },
    );
    const scheduled = ready.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(scheduled?.lastTransitionTime, T0, 'an unchanged condition keeps its time');
    assert.deepEqual(
      podStatus([CONTAINER], 'Always', POD, [{ ...running, ready: true }], ready, T2),
      ready,
      'nothing changed, nothing new to write',
    );
  });

  it('is Ready only when every container is, and names the unready ones', () => {
    const containers = [CONTAINER, AGENT];
    const one = podStatus(
      containers,
      'Always',
      POD,
      [{ ...running, ready: true }, running],
      undefined,
      T0,
    );
    assert.equal(one.phase, 'Running');
    assert.deepEqual(
      one.containerStatuses?.map((c) => [c.name, c.ready]),
      [
        ['sandbox', true],
        ['agent', false],
      ],
    );
    assert.equal(
      one.conditions?.find((c) => c.type === 'Ready')?.message,
      'containers with unready status: [agent]',
    );
    const none = podStatus(containers, 'Always', POD, [starting, starting], undefined, T0);
    assert.equal(
      none.conditions?.find((c) => c.type === 'ContainersReady')?.message,
      'containers with unready status: [sandbox agent]',
    );
    const both = podStatus(
      containers,
      'Always',
      POD,
      [
        { ...running, ready: true },
        { ...running, ready: true },
      ],
      one,
      T1,
    );
    assert.equal(both.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
  });

  it('takes its phase from all its containers, as the kubelet does', () => {
    const cases: [string, ContainerRunState[], RestartPolicy, string][] = [
      ['one still creating', [running, starting], 'Always', 'Pending'],
      [
        'a config error before any run',
        [{ ...starting, container: { waiting: { reason: 'CreateContainerConfigError' } } }],
        'Always',
        'Pending',
      ],
      ['one running, one backing off', [running, backingOff], 'Always', 'Running'],
      ['one backing off alone', [backingOff], 'Always', 'Running'],
      ['one exited, restarting', [exited(2)], 'Always', 'Running'],
      ['both exited 0, Never', [exited(0), exited(0)], 'Never', 'Succeeded'],
      ['one failed, Never', [exited(0), exited(2)], 'Never', 'Failed'],
      ['one failed while the other runs, Never', [running, exited(2)], 'Never', 'Running'],
      ['exited 0, OnFailure', [exited(0)], 'OnFailure', 'Succeeded'],
      ['failed, OnFailure restarts it', [exited(2)], 'OnFailure', 'Running'],
    ];
    for (const [name, states, policy, phase] of cases) {
      assert.equal(phaseOf(states, policy), phase, name);
    }
  });

  it('reads a kill by signal as 128 + its number', () => {
    assert.deepEqual(terminatedState({ code: null, signal: 'SIGKILL' }, T0, T1), {
      terminated: { exitCode: 137, signal: 9, reason: 'Error', startedAt: T0, finishedAt: T1 },
    });
    assert.deepEqual(terminatedState({ code: 0, signal: null }, T0, T1), {
      terminated: { exitCode: 0, reason: 'Completed', startedAt: T0, finishedAt: T1 },
    });
  });
});
