import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { QueueFullError, RunQueue } from '../../src/runs/run-queue.js';

/** A run's work that ends when the test says, or when it is aborted. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const started: string[] = [];
  const aborted: string[] = [];
  const work = (id: string) => (signal: AbortSignal) => {
    started.push(id);
    return new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => {
        aborted.push(`${id}: ${String(signal.reason)}`);
        resolve();
      });
      void opened.then(resolve);
    });
  };
  return { work, open: () => open(), started, aborted };
}

describe('the run queue', () => {
  it('runs one at a time, in order', async () => {
    const queue = new RunQueue(() => {});
    const order: string[] = [];
    const first = gate();
    assert.equal(queue.enqueue('a', first.work('a')), 0);
    assert.equal(
      queue.enqueue('b', () => {
        order.push('b');
        return Promise.resolve();
      }),
      1,
    );
    assert.equal(
      queue.enqueue('c', () => {
        order.push('c');
        return Promise.resolve();
      }),
      2,
    );
    assert.equal(queue.running, 'a');
    assert.deepEqual(queue.queued, ['b', 'c']);
    first.open();
    await queue.idle();
    assert.deepEqual(order, ['b', 'c']);
    assert.equal(queue.running, undefined);
  });

  it('cancels the running run by aborting it, and a waiting one by taking it out of line', async () => {
    const queue = new RunQueue(() => {});
    const runs = gate();
    queue.enqueue('a', runs.work('a'));
    queue.enqueue('b', runs.work('b'));
    queue.enqueue('c', runs.work('c'));
    assert.equal(queue.cancel('b', 'changed my mind'), 'waiting');
    assert.equal(queue.cancel('a', 'stop'), 'running');
    assert.equal(queue.cancel('nope', 'x'), undefined);
    runs.open();
    await queue.idle();
    assert.deepEqual(runs.started, ['a', 'c']);
    assert.deepEqual(runs.aborted, ['a: stop']);
  });

  it('refuses a run beyond the bound of waiting runs', () => {
    const queue = new RunQueue(() => {}, 2);
    const runs = gate();
    queue.enqueue('a', runs.work('a'));
    queue.enqueue('b', runs.work('b'));
    queue.enqueue('c', runs.work('c'));
    assert.throws(() => queue.enqueue('d', runs.work('d')), QueueFullError);
    runs.open();
  });

  it('reports what a run threw and goes on with the next', async () => {
    const errors: string[] = [];
    const queue = new RunQueue((id, error) => errors.push(`${id}: ${(error as Error).message}`));
    queue.enqueue('a', () => Promise.reject(new Error('disk full')));
    let ran = false;
    queue.enqueue('b', () => {
      ran = true;
      return Promise.resolve();
    });
    await queue.idle();
    assert.deepEqual(errors, ['a: disk full']);
    assert.equal(ran, true);
  });

  it('stops: the running run aborted, the waiting ones dropped', async () => {
    const queue = new RunQueue(() => {});
    const runs = gate();
    queue.enqueue('a', runs.work('a'));
    queue.enqueue('b', runs.work('b'));
    assert.deepEqual(await queue.stop('shutting down'), ['b']);
    assert.deepEqual(runs.aborted, ['a: shutting down']);
    assert.deepEqual(runs.started, ['a']);
  });
});
