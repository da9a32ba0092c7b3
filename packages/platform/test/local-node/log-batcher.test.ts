import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LogBatcher } from '../../src/local-node/log-batcher.js';

/**
 * A log sink that remembers each write as it starts. Held, its writes stay in flight until
 * release(); otherwise each finishes at once.
 */
function sink({ held = false } = {}) {
  const writes: string[] = [];
  const waiting: (() => void)[] = [];
  return {
    writes,
    write: (text: string) => {
      writes.push(text);
      return held ? new Promise<void>((resolve) => waiting.push(resolve)) : Promise.resolve();
    },
    release: () => {
      held = false;
      for (const finish of waiting.splice(0)) finish();
    },
  };
}

describe('the pod log batcher', () => {
  it('writes a burst of lines in a few requests, all of them, in order', async () => {
    const log = sink();
    const batcher = new LogBatcher(log.write, { delayMs: 20 });
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    for (const line of lines) batcher.add(line);
    await batcher.flush();
    assert.ok(log.writes.length <= 3, `${log.writes.length} writes`);
    assert.equal(log.writes.join(''), lines.map((l) => `${l}\n`).join(''));
  });

  it('sends a line alone after the delay, and gathers lines that come while a write is in flight', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const log = sink({ held: true });
    const batcher = new LogBatcher(log.write, { delayMs: 10 });
    batcher.add('first');
    t.mock.timers.tick(9);
    assert.equal(log.writes.length, 0, 'the line waits for others');
    t.mock.timers.tick(1);
    assert.equal(log.writes.join('|'), 'first\n', 'then goes alone');
    for (let i = 0; i < 100; i++) batcher.add(`during ${i}`);
    assert.equal(log.writes.length, 1, 'lines gather while the write is in flight');
    log.release();
    await batcher.flush();
    assert.equal(log.writes.length, 2);
    assert.equal(log.writes[0], 'first\n');
    assert.equal(log.writes[1]!.split('\n').length, 101);
  });

  it('splits batches at the size limit and cuts a line too long for one request', async () => {
    const log = sink();
    const batcher = new LogBatcher(log.write, { maxBatchBytes: 1000 });
    for (let i = 0; i < 10; i++) batcher.add('x'.repeat(299));
    batcher.add('y'.repeat(100_000));
    await batcher.flush();
    assert.ok(log.writes.length >= 3);
    assert.ok(log.writes.every((w) => Buffer.byteLength(w) <= 20 * 1024));
    assert.equal(log.writes.join('').split('\n').length, 12);
  });

  it('drops the oldest lines, and says so, when the cluster cannot keep up', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const log = sink();
    let failures = 0;
    const batcher = new LogBatcher(
      async (text) => {
        if (failures++ === 0) throw new Error('unavailable');
        await log.write(text);
      },
      { maxPendingBytes: 100, delayMs: 1 },
    );
    batcher.add('lost in a failed write');
    t.mock.timers.tick(1);
    assert.equal(failures, 1, 'the delay has passed: the write was tried');
    await batcher.flush(); // the failed write given up on
    for (let i = 0; i < 50; i++) batcher.add(`line ${i}`);
    await batcher.flush();
    const text = log.writes.join('');
    assert.match(text, /^\[\d+ lines dropped: the cluster did not take them in time\]\n/);
    assert.match(text, /line 49\n$/);
    assert.doesNotMatch(text, /lost in a failed write|line 0\n/);
  });
});
