import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '@paddock/testing';
import {
  WorkQueue,
  nextLookMs,
  outcomeOf,
  retryDelayMs,
  type ProcessOutcome,
  type QueueClock,
} from '../src/client/work-queue.js';

/** A promise with its resolve function, to hold a key in process until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** A clock the test moves: timers fire when it passes their time, never on their own. */
class ManualClock implements QueueClock {
  private time = 0;
  private readonly timers = new Map<number, { at: number; callback: () => void }>();
  private nextId = 1;

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, callback });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on by `ms`, firing the timers due meanwhile in time order. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers]
        .filter(([, t]) => t.at <= until)
        .sort((a, b) => a[1].at - b[1].at);
      const first = due[0];
      if (first === undefined) break;
      this.timers.delete(first[0]);
      this.time = first[1].at;
      first[1].callback();
    }
    this.time = until;
  }
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
    assert.equal(queue.isIdle, false, 'keys wait for the start');
    queue.start();
    await queue.idle();
    assert.deepEqual(seen, ['a', 'b']);
    assert.equal(queue.depth, 0);
    await queue.shutdown();
  });

  it('processes on a later turn than the add, never inside it', async () => {
    const seen: string[] = [];
    const queue = new WorkQueue((key) => {
      seen.push(key);
    });
    queue.start();
    queue.add('a');
    assert.deepEqual(seen, [], 'not processed within add');
    await queue.idle();
    assert.deepEqual(seen, ['a']);
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
    await queue.idle();
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
    await queue.idle();
    assert.equal(done, 10);
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

  it('tells a periodic resync (a success) from a requeue of unfinished work', () => {
    const table: [result: Parameters<typeof outcomeOf>[0], outcome: string, next?: number][] = [
      [undefined, 'success'],
      [{}, 'success'],
      [{ resyncAfterMs: 60_000 }, 'success', 60_000],
      [{ requeueAfterMs: 5000 }, 'requeue', 5000],
      [{ requeueAfterMs: 5000, resyncAfterMs: 1000 }, 'requeue', 1000],
      [{ requeueAfterMs: 0 }, 'requeue', 0],
    ];
    for (const [result, outcome, next] of table) {
      assert.equal(outcomeOf(result), outcome, JSON.stringify(result));
      assert.equal(nextLookMs(result), next, JSON.stringify(result));
    }
  });

  it('retries a failing key with growing backoff and resets it on success', async () => {
    const clock = new ManualClock();
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
        clock,
        onProcessed: (key, outcome) => {
          outcomes.push(outcome);
          retriesAfter.push(queue.retries(key));
        },
      },
    );
    queue.start();
    queue.add('k');
    for (const backoff of [5, 10, 20]) {
      await queue.idle();
      clock.advance(backoff - 1);
      assert.equal(queue.isIdle, true, `nothing before the ${backoff} ms backoff`);
      clock.advance(1);
    }
    await queue.idle();
    assert.deepEqual(outcomes, ['error', 'error', 'error', 'success']);
    assert.deepEqual(retriesBefore, [0, 1, 2, 3], 'each retry after one more failure');
    assert.deepEqual(retriesAfter, [1, 2, 3, 0], 'success forgets the failures');
    assert.equal(clock.pending, 0);
    await queue.shutdown();
  });

  it('forgets a key’s failures on request', async () => {
    const queue = new WorkQueue(async () => {}, { baseRetryMs: 60_000, clock: new ManualClock() });
    queue.addRateLimited('k');
    queue.addRateLimited('k');
    assert.equal(queue.retries('k'), 2);
    queue.forget('k');
    assert.equal(queue.retries('k'), 0);
    await queue.shutdown();
  });

  it('adds a key after its delay, the earliest of several delays winning', async () => {
    const clock = new ManualClock();
    const seen: string[] = [];
    const queue = new WorkQueue(
      (key) => {
        seen.push(key);
      },
      { clock },
    );
    queue.start();
    queue.addAfter('late', 80);
    queue.addAfter('early', 10);
    queue.addAfter('moved-up', 60_000);
    queue.addAfter('moved-up', 30);
    queue.addAfter('moved-up', 50);
    assert.equal(clock.pending, 3, 'one timer per key');
    clock.advance(9);
    await queue.idle();
    assert.deepEqual(seen, [], 'nothing before its time');
    for (const [ms, expected] of [
      [1, ['early']],
      [20, ['early', 'moved-up']],
      [50, ['early', 'moved-up', 'late']],
    ] as const) {
      clock.advance(ms);
      await queue.idle();
      assert.deepEqual(seen, expected);
    }
    await queue.shutdown();
  });

  it('waits for a delay beyond what a timer takes (a grant expiring in years) instead of running at once', async () => {
    const clock = new ManualClock();
    const seen: string[] = [];
    const queue = new WorkQueue(
      (key) => {
        seen.push(key);
      },
      { clock },
    );
    queue.start();
    queue.addAfter('in-three-years', 3 * 365 * 86_400_000);
    clock.advance(2 ** 31 - 2);
    await queue.idle();
    assert.deepEqual(seen, []);
    // The timer takes the longest delay a Node.js timer can; the key is looked at then.
    clock.advance(1);
    await queue.idle();
    assert.deepEqual(seen, ['in-three-years']);
    await queue.shutdown();
  });

  it('looks at a key again after the delay its processing asks for, requeue or resync', async () => {
    const clock = new ManualClock();
    const outcomes: ProcessOutcome[] = [];
    let runs = 0;
    const queue = new WorkQueue(
      () => {
        runs += 1;
        if (runs === 1) return { requeueAfterMs: 10 };
        if (runs === 2) return { resyncAfterMs: 60_000 };
        return undefined;
      },
      { clock, onProcessed: (_key, outcome) => outcomes.push(outcome) },
    );
    queue.start();
    queue.add('grant');
    await queue.idle();
    clock.advance(10);
    await queue.idle();
    clock.advance(60_000);
    await queue.idle();
    assert.equal(runs, 3);
    assert.deepEqual(outcomes, ['requeue', 'success', 'success']);
    assert.equal(clock.pending, 0);
    await queue.shutdown();
  });

  it('shuts down after the keys in process finish, dropping what waits and ignoring new keys', async () => {
    const clock = new ManualClock();
    const held = gate();
    const seen: string[] = [];
    let finished = false;
    const queue = new WorkQueue(
      async (key) => {
        seen.push(key);
        await held.promise;
        finished = true;
      },
      { clock },
    );
    queue.start();
    queue.add('running');
    queue.add('waiting');
    queue.addAfter('delayed', 10);
    await eventually('the first key in process', () => (seen.length === 1 ? true : undefined));
    let stopped = false;
    const shutdown = queue.shutdown().then(() => (stopped = true));
    queue.add('after-shutdown');
    assert.equal(clock.pending, 0, 'the delayed key is dropped');
    // The held key cannot finish, so the shutdown cannot have either.
    await Promise.resolve();
    assert.equal(stopped, false, 'shutdown waits for the key in process');
    held.open();
    await shutdown;
    assert.equal(finished, true);
    clock.advance(10);
    assert.deepEqual(seen, ['running']);
    assert.equal(queue.depth, 0);
  });

  it('tells when several queues are idle at once, work in one adding to another', async () => {
    const seen: string[] = [];
    const second = new WorkQueue((key) => {
      seen.push(`second:${key}`);
    });
    const first = new WorkQueue((key) => {
      seen.push(`first:${key}`);
      if (key === 'a') second.add('from-a');
    });
    first.start();
    second.start();
    first.add('a');
    first.add('b');
    await WorkQueue.allIdle([second, first]);
    assert.deepEqual(seen.sort(), ['first:a', 'first:b', 'second:from-a']);
    await Promise.all([first.shutdown(), second.shutdown()]);
  });
});
