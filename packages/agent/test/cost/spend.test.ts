import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addSpend, reportedUsd, reportOf, spendFrom } from '../../src/cost/spend.js';

const NOW = new Date('2026-11-26T10:00:00Z');

describe('the spend an agent reports', () => {
  it('reads the figures of the current day and month, others as zero', () => {
    const cases: Array<[string, Parameters<typeof spendFrom>[0], number, number]> = [
      ['nothing reported', undefined, 0, 0],
      [
        'today',
        { day: '2026-11-26', dailySpend: '1.25', month: '2026-11', monthlySpend: '40.10' },
        1.25,
        40.1,
      ],
      [
        'yesterday, this month',
        { day: '2026-11-25', dailySpend: '3.00', month: '2026-11', monthlySpend: '40.10' },
        0,
        40.1,
      ],
      [
        'last month',
        { day: '2026-10-31', dailySpend: '3.00', month: '2026-10', monthlySpend: '90.00' },
        0,
        0,
      ],
      ['a figure that is not dollars', { day: '2026-11-26', dailySpend: 'lots' }, 0, 0],
    ];
    for (const [name, report, daily, monthly] of cases) {
      const spend = spendFrom(report, NOW);
      assert.deepEqual(
        [spend.day, spend.month, spend.dailyUsd, spend.monthlyUsd],
        ['2026-11-26', '2026-11', daily, monthly],
        name,
      );
    }
  });

  it('adds spend, a new day or month starting from zero', () => {
    const start = spendFrom(
      { day: '2026-11-30', dailySpend: '2.00', month: '2026-11', monthlySpend: '50.00' },
      new Date('2026-11-30T23:00:00Z'),
    );
    const sameDay = addSpend(start, 0.5, new Date('2026-11-30T23:30:00Z'));
    assert.deepEqual([sameDay.dailyUsd, sameDay.monthlyUsd], [2.5, 50.5]);
    const nextMonth = addSpend(sameDay, 0.25, new Date('2026-12-01T00:10:00Z'));
    assert.deepEqual(nextMonth, {
      day: '2026-12-01',
      month: '2026-12',
      dailyUsd: 0.25,
      monthlyUsd: 0.25,
    });
  });

  it('writes whole cents, rounded up, so a budget acts no later than the spend', () => {
    const cases: Array<[number, string]> = [
      [0, '0.00'],
      [0.0001, '0.01'],
      [0.07, '0.07'],
      [0.1 + 0.2, '0.30'],
      [1.234, '1.24'],
      [12, '12.00'],
    ];
    for (const [usd, text] of cases) assert.equal(reportedUsd(usd), text, String(usd));
    assert.deepEqual(
      reportOf({ day: '2026-11-26', month: '2026-11', dailyUsd: 0.001, monthlyUsd: 3.5 }),
      {
        day: '2026-11-26',
        dailySpend: '0.01',
        month: '2026-11',
        monthlySpend: '3.50',
      },
    );
  });
});
