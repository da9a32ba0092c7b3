import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  phaseOf,
  podStatus,
  terminatedState,
  type ReplicaState,
} from '../../src/local-agents/pod-status.js';

const T0 = '2030-01-01T00:00:00Z';
const T1 = '2030-01-01T00:00:05Z';
const T2 = '2030-01-01T00:01:00Z';

const starting: ReplicaState = {
  startTime: T0,
  container: { waiting: { reason: 'ContainerCreating' } },
  lastState: {},
  restartCount: 0,
};

describe('a replica’s pod status', () => {
  it('is Pending while the process starts, without an address yet', () => {
    const status = podStatus('paddock-sandbox:latest', starting, undefined, T0);
    assert.equal(status.phase, 'Pending');
    assert.equal(status.podIP, undefined);
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
    assert.deepEqual(status.containerStatuses, [
      {
        name: 'agent',
        image: 'paddock-sandbox:latest',
        ready: false,
        started: false,
        restartCount: 0,
        state: { waiting: { reason: 'ContainerCreating' } },
        lastState: {},
      },
    ]);
  });

  it('is Running and ready with the loopback address once the process serves', () => {
    const before = podStatus('paddock-sandbox:latest', starting, undefined, T0);
    const running: ReplicaState = {
      ...starting,
      container: { running: { startedAt: T0 } },
      ip: '127.0.0.1',
    };
    const status = podStatus('paddock-sandbox:latest', running, before, T1);
    assert.equal(status.phase, 'Running');
    assert.equal(status.podIP, '127.0.0.1');
    assert.deepEqual(status.podIPs, [{ ip: '127.0.0.1' }]);
    assert.equal(status.containerStatuses?.[0]?.ready, true);
    const ready = status.conditions?.find((c) => c.type === 'Ready');
    assert.deepEqual(ready, { type: 'Ready', status: 'True', lastTransitionTime: T1 });
    const scheduled = status.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(scheduled?.lastTransitionTime, T0, 'an unchanged condition keeps its time');
    assert.deepEqual(podStatus('paddock-sandbox:latest', running, status, T2), status);
  });

  it('is Succeeded or Failed by the exit code once the process exits, back-off included', () => {
    const exited = (code: number): ReplicaState => ({
      ...starting,
      container: terminatedState({ code, signal: null }, T0, T1),
    });
    assert.equal(phaseOf(exited(0)), 'Succeeded');
    assert.equal(phaseOf(exited(2)), 'Failed');
    const backingOff: ReplicaState = {
      ...starting,
      container: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s' } },
      lastState: exited(2).container,
      restartCount: 1,
    };
    assert.equal(phaseOf(backingOff), 'Failed');
    assert.equal(
      phaseOf({ ...backingOff, container: { waiting: { reason: 'ContainerCreating' } } }),
      'Pending',
    );
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
