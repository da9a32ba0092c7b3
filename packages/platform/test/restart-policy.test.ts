import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextRestart } from '@paddock/platform';

describe('restart policy', () => {
  const now = 1_000_000;
  it('backs off exponentially over the crashes of the last minute', () => {
    assert.equal(nextRestart([now], now), 500);
    assert.equal(nextRestart([now - 2, now], now), 1000);
    assert.equal(nextRestart([now - 3, now - 2, now - 1, now], now), 4000);
  });
  it('forgets crashes older than a minute', () => {
    assert.equal(nextRestart([now - 120_000, now - 61_000, now], now), 500);
  });
  it('gives up after five crashes within a minute', () => {
    assert.equal(
      nextRestart(
        [1, 2, 3, 4, 5].map((i) => now - i),
        now,
      ),
      'give-up',
    );
  });
});
