import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  budgetOverruns,
  meterOf,
  spendingOf,
  usd,
  type Spending,
} from '../../src/pages/workspaces/budget-rules.js';
import type { CostUsage } from '../../src/pages/workspaces/types.js';

describe('usd', () => {
  const cases: [string | null | undefined, string][] = [
    [undefined, '—'],
    [null, '—'],
    ['', '—'],
    ['0', '$0.00'],
    ['3.456', '$3.46'],
    ['12', '$12.00'],
    ['a lot', 'a lot'],
  ];
  for (const [value, want] of cases) {
    it(`writes ${JSON.stringify(value)} as ${want}`, () => assert.equal(usd(value), want));
  }
});

describe('budgetOverruns', () => {
  const cases: [string, CostUsage | null | undefined, string[]][] = [
    ['no usage', null, []],
    ['no budgets', { dailySpend: '50', monthlySpend: '500' }, []],
    ['spending within budget', { dailySpend: '5', dailyBudget: '10' }, []],
    ['spending at the budget', { dailySpend: '10', dailyBudget: '10' }, []],
    [
      'the daily budget exceeded',
      { dailySpend: '12.5', dailyBudget: '10', monthlySpend: '40', monthlyBudget: '100' },
      ['today $12.50 of a $10.00 daily budget'],
    ],
    [
      'both budgets exceeded',
      { dailySpend: '11', dailyBudget: '10', monthlySpend: '101', monthlyBudget: '100' },
      ['today $11.00 of a $10.00 daily budget', 'this month $101.00 of a $100.00 monthly budget'],
    ],
  ];
  for (const [name, usage, want] of cases) {
    it(`lists ${name}`, () => assert.deepEqual(budgetOverruns(usage), want));
  }
});

describe('spendingOf', () => {
  const cases: [string, string | undefined, string | undefined, Spending][] = [
    [
      'spending without a budget',
      '3',
      undefined,
      { spent: 3, limit: undefined, text: '$3.00 spent, no daily budget', over: false },
    ],
    [
      'nothing spent yet',
      undefined,
      '10',
      { spent: 0, limit: 10, text: '$0.00 of $10.00 (0 %)', over: false },
    ],
    [
      'spending within the budget',
      '2.5',
      '10',
      { spent: 2.5, limit: 10, text: '$2.50 of $10.00 (25 %)', over: false },
    ],
    [
      'spending past the budget',
      '15',
      '10',
      { spent: 15, limit: 10, text: '$15.00 of $10.00 (150 %)', over: true },
    ],
    [
      'a budget of nothing',
      '1',
      '0',
      { spent: 1, limit: 0, text: '$1.00 of $0.00 (0 %)', over: true },
    ],
  ];
  for (const [name, spend, budget, want] of cases) {
    it(`writes ${name}`, () => assert.deepEqual(spendingOf(spend, budget, 'daily'), want));
  }
  it('names the period', () => {
    assert.equal(spendingOf('1', undefined, 'monthly').text, '$1.00 spent, no monthly budget');
  });
});

describe('meterOf', () => {
  const cases: [number, number, { fill: number; tone: string }][] = [
    [0, 10, { fill: 0, tone: 'ok' }],
    [7.9, 10, { fill: 0.79, tone: 'ok' }],
    [8, 10, { fill: 0.8, tone: 'warn' }],
    [10, 10, { fill: 1, tone: 'warn' }],
    [11, 10, { fill: 1, tone: 'bad' }],
    [0, 0, { fill: 0, tone: 'ok' }],
    [1, 0, { fill: 1, tone: 'bad' }],
  ];
  for (const [value, max, want] of cases) {
    it(`fills ${value} of ${max}`, () => assert.deepEqual(meterOf(value, max), want));
  }
});
