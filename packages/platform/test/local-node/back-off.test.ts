import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { crashesAfterExit, KUBELET_BACK_OFF, restartDelay } from '../../src/local-node/back-off.js';

describe('the restart back-off', () => {
  it('restarts at once after a first crash, then doubles from 10 s up to 5 min, as a kubelet does', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => restartDelay(n, KUBELET_BACK_OFF));
    assert.deepEqual(
      delays,
      [0, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000],
    );
  });

  it('counts crashes in a row, from one again after a run of ten minutes', () => {
    assert.equal(crashesAfterExit(0, 1000, KUBELET_BACK_OFF), 1);
    assert.equal(crashesAfterExit(4, 1000, KUBELET_BACK_OFF), 5);
    assert.equal(crashesAfterExit(4, 600_000, KUBELET_BACK_OFF), 1);
  });
});
