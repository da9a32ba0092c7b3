import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolHandler } from '@paddock/kube';
import {
  DEFAULT_TIMEOUT_MS,
  backoffMs,
  handlerRetries,
  handlerTimeoutMs,
  parseDuration,
  withRetries,
} from '../src/toolregistry/index.js';

const handler = (extra: Partial<ToolHandler>): ToolHandler => ({
  name: 'h',
  type: 'http',
  ...extra,
});

describe('tool handler timeouts and retries', () => {
  it('reads Go-style durations', () => {
    const cases: [string, number | undefined][] = [
      ['500ms', 500],
      ['30s', 30_000],
      ['1m', 60_000],
      ['1h', 3_600_000],
      ['1.5s', 1500],
      ['1m30s', 90_000],
      ['30', undefined],
      ['soon', undefined],
      ['', undefined],
    ];
    for (const [text, expected] of cases) assert.equal(parseDuration(text), expected, text);
  });

  it('takes the timeout from the top level, else httpConfig, else the default', () => {
    const cases: [Partial<ToolHandler>, number][] = [
      [{ timeout: '2s', httpConfig: { timeout: '5s' } }, 2000],
      [{ httpConfig: { timeout: '5s' } }, 5000],
      [{}, DEFAULT_TIMEOUT_MS],
      [{ timeout: 'nonsense' }, DEFAULT_TIMEOUT_MS],
      [{ timeout: '0s', httpConfig: { timeout: '750ms' } }, 750],
    ];
    for (const [extra, expected] of cases) {
      assert.equal(handlerTimeoutMs(handler(extra)), expected, JSON.stringify(extra));
    }
    assert.equal(DEFAULT_TIMEOUT_MS, 10_000);
  });

  it('takes retries from the top level, else httpConfig, else none', () => {
    const cases: [Partial<ToolHandler>, number][] = [
      [{ retries: 3, httpConfig: { retries: 1 } }, 3],
      [{ httpConfig: { retries: 2 } }, 2],
      [{}, 0],
      [{ retries: 0, httpConfig: { retries: 4 } }, 0],
    ];
    for (const [extra, expected] of cases) {
      assert.equal(handlerRetries(handler(extra)), expected, JSON.stringify(extra));
    }
  });

  it('backs off by doubling from 100 ms up to a second', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 9].map(backoffMs), [100, 200, 400, 800, 1000, 1000]);
  });

  it('retries a failing call until it succeeds, within the attempts allowed', async () => {
    let calls = 0;
    const result = await withRetries(3, (attempt) => {
      calls++;
      return attempt < 3 ? Promise.reject(new Error(`fail ${attempt}`)) : Promise.resolve('ok');
    });
    assert.equal(result, 'ok');
    assert.equal(calls, 3);
  });

  it('gives up with the last error when every attempt fails', async () => {
    let calls = 0;
    await assert.rejects(
      withRetries(2, (attempt) => {
        calls++;
        return Promise.reject(new Error(`fail ${attempt}`));
      }),
      /fail 2/,
    );
    assert.equal(calls, 2);
  });
});
