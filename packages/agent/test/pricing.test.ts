import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PRICES, PRICES_READ_ON } from '../src/prices.js';
import { costOf, priceOf } from '../src/pricing.js';

describe('costOf', () => {
  const million = { input: 1_000_000, output: 1_000_000 };
  const cases: [
    model: string,
    usage: { input: number; output: number },
    usd: number,
    priced: boolean,
  ][] = [
    ['gpt-4o', million, 12.5, true],
    ['gpt-4o-mini', { input: 2_000_000, output: 500_000 }, 0.6, true],
    ['gpt-4o-2024-08-06', million, 12.5, true],
    ['claude-sonnet-4-5', { input: 1_000, output: 100 }, 0.0045, true],
    ['claude-sonnet-4-5-20250929', million, 18, true],
    ['claude-3-5-haiku-latest', million, 4.8, true],
    ['claude-sonnet-5', { input: 500_000, output: 100_000 }, 2, true],
    ['gpt-5.6-terra', million, 17.5, true],
    ['claude-haiku-5-5', million, 0, false],
    ['claude-opus-4-1', { input: 0, output: 0 }, 0, true],
    ['llama3.2', million, 0, false],
    ['gpt-4o-mini-tts', million, 0, false],
    ['constructor', million, 0, false],
    ['', million, 0, false],
  ];
  for (const [model, usage, usd, priced] of cases) {
    it(`${model || '(empty)'} ${usage.input}/${usage.output} → $${usd}${priced ? '' : ', unpriced'}`, () => {
      const cost = costOf(model, usage);
      assert.equal(cost.priced, priced);
      assert.ok(Math.abs(cost.usd - usd) < 1e-12, `${cost.usd} ≠ ${usd}`);
    });
  }

  const overrides = {
    'llama3.2': { input: 0.1, output: 0.2 },
    'gpt-4o': { input: 1, output: 1 },
    'my-deployment': { input: 3, output: 4 },
  };
  const overridden: [model: string, usd: number][] = [
    ['llama3.2', 0.3],
    ['gpt-4o', 2],
    ['gpt-4o-2024-08-06', 2],
    ['my-deployment', 7],
    ['gpt-4o-mini', 0.75],
  ];
  for (const [model, usd] of overridden) {
    it(`with overrides, ${model} → $${usd}`, () => {
      const cost = costOf(model, million, overrides);
      assert.equal(cost.priced, true);
      assert.ok(Math.abs(cost.usd - usd) < 1e-12, `${cost.usd} ≠ ${usd}`);
    });
  }

  it('prefers an exact dated name over its base name', () => {
    const table = {
      'gpt-4o': { input: 1, output: 1 },
      'gpt-4o-2024-05-13': { input: 5, output: 15 },
    };
    assert.deepEqual(priceOf('gpt-4o-2024-05-13', {}, table), { input: 5, output: 15 });
    assert.deepEqual(priceOf('gpt-4o-2024-08-06', {}, table), { input: 1, output: 1 });
  });

  it('holds only positive prices and says when they were read', () => {
    assert.match(PRICES_READ_ON, /^\d{4}-\d{2}-\d{2}$/);
    for (const [model, price] of Object.entries(PRICES)) {
      assert.ok(price.input > 0 && price.output > price.input, model);
    }
  });
});
