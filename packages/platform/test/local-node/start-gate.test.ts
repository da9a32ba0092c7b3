import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startLimit, StartGate, STARTS_PER_CORE } from '../../src/local-node/start-gate.js';

describe('startLimit', () => {
  for (const [cores, limit] of [
    [0, 1],
    [1, STARTS_PER_CORE],
    [2, 2 * STARTS_PER_CORE],
    [16, 16 * STARTS_PER_CORE],
  ] as const) {
    it(`lets ${limit} start at once on ${cores} cores`, () => {
      assert.equal(startLimit(cores), limit);
    });
  }
});

describe('StartGate', () => {
  it('lets starts go up to its limit at once', async () => {
    const gate = new StartGate(2);
    await gate.enter();
    await gate.enter();
    assert.equal(gate.queued, 0);
  });

  it('keeps a start beyond the limit waiting until one leaves, then lets it go', async () => {
    const gate = new StartGate(1);
    const leave = await gate.enter();
    let went = false;
    const next = gate.enter().then((leaveNext) => {
      went = true;
      return leaveNext;
    });
    assert.equal(gate.queued, 1);
    assert.equal(went, false);
    leave();
    await next;
    assert.equal(went, true);
    assert.equal(gate.queued, 0);
  });

  it('lets waiting starts go in the order they came', async () => {
    const gate = new StartGate(1);
    const leave = await gate.enter();
    const order: number[] = [];
    const second = gate.enter().then((l) => (order.push(2), l));
    const third = gate.enter().then((l) => (order.push(3), l));
    leave();
    (await second)();
    (await third)();
    assert.deepEqual(order, [2, 3]);
  });

  it('counts a start that leaves twice once', async () => {
    const gate = new StartGate(1);
    const leave = await gate.enter();
    leave();
    leave();
    await gate.enter();
    // Had the second leave freed a place too, this start would not wait.
    const waiting = gate.enter();
    assert.equal(gate.queued, 1);
    void waiting;
  });
});
