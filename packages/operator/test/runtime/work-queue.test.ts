import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { eventually } from '@paddock/testing';
import { WorkQueue, retryDelayMs, type ProcessOutcome } from '../../src/runtime/work-queue.js';

/** A promise with its resolve function, to hold a key in process until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('the work queue', () => {
  it('queues a key once however often it is added before processing', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => {
      seen.push(key);
    });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    queue.add('a');
    assert.equal(queue.depth, 2);
    queue.start();
    await eventually('both keys processed', () => (seen.length === 2 ? true : undefined));
    await nextTurn();
    assert.deepEqual(seen, ['a', 'b']);
    assert.equal(queue.depth, 0);
    await queue.shutdown();
  });

  it('processes a key added while in process once more afterwards, never twice at once', async () => {
    const held = gate();
    let runs = 0;
    let active = 0;
    let maxActive = 0;
    const queue = new WorkQueue(
      async () => {
        runs += 1;
        active += 1;
        maxActive = Math.max(maxActive, active);
        if (runs === 1) await held.promise;
        active -= 1;
      },
      { workers: 4 },
    );
    queue.start();
    queue.add('k');
    await eventually('the first run', () => (runs === 1 ? true : undefined));
    queue.add('k');
    queue.add('k');
    assert.equal(queue.depth, 0, 'a key in process waits outside the queue');
    held.open();
    await eventually('the second run', () => (runs === 2 ? true : undefined));
    await sleep(20);
    assert.equal(runs, 2);
    assert.equal(maxActive, 1);
    await queue.shutdown();
  });

  it('runs at most the configured number of workers at once', async () => {
    const held = gate();
    let active = 0;
    let maxActive = 0;
    let done = 0;
    const queue = new WorkQueue(
      async () => {
        active += 1;
        maxActive = Math.max(maxActive, active);
        await held.promise;
        active -= 1;
        done += 1;
      },
      { workers: 3 },
    );
    queue.start();
    for (let i = 0; i < 10; i++) queue.add(`key-${i}`);
    await eventually('three keys in process', () => (active === 3 ? true : undefined));
    assert.equal(queue.depth, 7);
    held.open();
    await eventually('every key processed', () => (done === 10 ? true : undefined));
    assert.equal(maxActive, 3);
    await queue.shutdown();
  });

  it('doubles the retry delay per consecutive failure up to the maximum', () => {
    const table: [failures: number, expected: number][] = [
      [1, 100],
      [2, 200],
      [3, 400],
      [10, 51_200],
      [12, 204_800],
      [13, 300_000],
      [5000, 300_000],
    ];
    for (const [failures, expected] of table) {
      assert.equal(retryDelayMs(failures, 100, 300_000), expected, `after ${failures} failures`);
    }
  });

  it('retries a failing key with growing backoff and resets it on success', async () => {
    const retriesBefore: number[] = [];
    const retriesAfter: number[] = [];
    const outcomes: ProcessOutcome[] = [];
    let attempts = 0;
    const queue = new WorkQueue(
      (key) => {
        retriesBefore.push(queue.retries(key));
        attempts += 1;
        if (attempts <= 3) throw new Error(`attempt ${attempts} fails`);
      },
      {
        baseRetryMs: 5,
        maxRetryMs: 1000,
        onProcessed: (key, outcome) => {
          outcomes.push(outcome);
          retriesAfter.push(queue.retries(key));
        },
      },
    );
    queue.start();
    queue.add('k');
    await eventually('the success', () => (outcomes.length === 4 ? true : undefined));
    assert.deepEqual(outcomes, ['error', 'error', 'error', 'success']);
    assert.deepEqual(retriesBefore, [0, 1, 2, 3], 'each retry after one more failure');
    assert.deepEqual(retriesAfter, [1, 2, 3, 0], 'success forgets the failures');
    await queue.shutdown();
  });

  it('forgets a key’s failures on request', async () => {
    const queue = new WorkQueue(async () => {}, { baseRetryMs: 60_000 });
    queue.addRateLimited('k');
    queue.addRateLimited('k');
    assert.equal(queue.retries('k'), 2);
    queue.forget('k');
    assert.equal(queue.retries('k'), 0);
    await queue.shutdown();
  });

  it('adds a key after its delay, the earliest of several delays winning', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => {
      seen.push(key);
    });
    queue.start();
    queue.addAfter('late', 80);
    queue.addAfter('early', 10);
    queue.addAfter('moved-up', 60_000);
    queue.addAfter('moved-up', 30);
    await nextTurn();
    assert.deepEqual(seen, [], 'nothing before its time');
    assert.equal(queue.depth, 0);
    await eventually('every delayed key processed', () => (seen.length === 3 ? true : undefined));
    assert.deepEqual(seen, ['early', 'moved-up', 'late']);
    await queue.shutdown();
  });

  it('waits for a delay beyond what a timer takes (a grant expiring in years) instead of running at once', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => {
      seen.push(key);
    });
    queue.start();
    queue.addAfter('in-three-years', 3 * 365 * 86_400_000);
    await sleep(50);
    assert.deepEqual(seen, []);
    await queue.shutdown();
  });

  it('requeues a key after the delay its processing asks for', async () => {
    const outcomes: ProcessOutcome[] = [];
    let runs = 0;
    const queue = new WorkQueue(
      () => {
        runs += 1;
        return runs === 1 ? { requeueAfterMs: 10 } : undefined;
      },
      { onProcessed: (_key, outcome) => outcomes.push(outcome) },
    );
    queue.start();
    queue.add('grant');
    await eventually('the requeued run', () => (runs === 2 ? true : undefined));
    assert.deepEqual(outcomes, ['requeue', 'success']);
    await queue.shutdown();
  });

  it('shuts down after the keys in process finish, dropping what waits and ignoring new keys', async () => {
    const held = gate();
    const seen: string[] = [];
    let finished = false;
    const queue = new WorkQueue(async (key) => {
      seen.push(key);
      await held.promise;
      finished = true;
    });
    queue.start();
    queue.add('running');
    queue.add('waiting');
    queue.addAfter('delayed', 10);
    await eventually('the first key in process', () => (seen.length === 1 ? true : undefined));
    let stopped = false;
    const shutdown = queue.shutdown().then(() => (stopped = true));
    queue.add('after-shutdown');
    await sleep(30);
    assert.equal(stopped, false, 'shutdown waits for the key in process');
    held.open();
    await shutdown;
    assert.equal(finished, true);
    await sleep(30);
    assert.deepEqual(seen, ['running']);
    assert.equal(queue.depth, 0);
  });
});
