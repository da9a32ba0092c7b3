import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  phaseOf,
  podStatus,
  terminatedState,
  type ContainerRunState,
} from '../../src/local-node/pod-status.js';

const T0 = '2030-01-01T00:00:00Z';
const T1 = '2030-01-01T00:00:05Z';
const T2 = '2030-01-01T00:01:00Z';
const CONTAINER = { name: 'sandbox', image: 'paddock-sandbox:latest' };

const starting: ContainerRunState = {
  startTime: T0,
  container: { waiting: { reason: 'ContainerCreating' } },
  lastState: {},
  restartCount: 0,
  ready: false,
  ip: '127.1.0.1',
};

describe('a local pod’s status', () => {
  it('is Pending while the process starts, with its own address and the node’s', () => {
    const status = podStatus(CONTAINER, 'Always', starting, undefined, T0);
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
    const running: ContainerRunState = { ...starting, container: { running: { startedAt: T0 } } };
    const unready = podStatus(CONTAINER, 'Always', running, undefined, T0);
    assert.equal(unready.phase, 'Running');
    assert.equal(unready.containerStatuses?.[0]?.started, true);
    assert.equal(unready.containerStatuses?.[0]?.ready, false);
    const ready = podStatus(CONTAINER, 'Always', { ...running, ready: true }, unready, T1);
    assert.equal(ready.containerStatuses?.[0]?.ready, true);
    assert.deepEqual(
      ready.conditions?.find((c) => c.type === 'Ready'),
      { type: 'Ready', status: 'True', lastTransitionTime: T1 },
    );
    const scheduled = ready.conditions?.find((c) => c.type === 'PodScheduled');
    assert.equal(scheduled?.lastTransitionTime, T0, 'an unchanged condition keeps its time');
    assert.deepEqual(
      podStatus(CONTAINER, 'Always', { ...running, ready: true }, ready, T2),
      ready,
      'nothing changed, nothing new to write',
    );
  });

  it('stays Running while a restarted container backs off (restartPolicy Always)', () => {
    const exited = terminatedState({ code: 2, signal: null }, T0, T1);
    const backingOff: ContainerRunState = {
      ...starting,
      container: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s' } },
      lastState: exited,
      restartCount: 1,
    };
    assert.equal(phaseOf({ ...starting, container: exited }, 'Always'), 'Running');
    assert.equal(phaseOf(backingOff, 'Always'), 'Running');
    assert.equal(
      phaseOf(
        { ...starting, container: { waiting: { reason: 'CreateContainerConfigError' } } },
        'Always',
      ),
      'Pending',
    );
  });

  it('ends Succeeded or Failed by the exit code when the policy restarts it no more', () => {
    const exited = (code: number): ContainerRunState => ({
      ...starting,
      container: terminatedState({ code, signal: null }, T0, T1),
    });
    assert.equal(phaseOf(exited(0), 'Never'), 'Succeeded');
    assert.equal(phaseOf(exited(2), 'Never'), 'Failed');
    assert.equal(phaseOf(exited(0), 'OnFailure'), 'Succeeded');
    assert.equal(phaseOf(exited(2), 'OnFailure'), 'Running', 'restarting');
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
