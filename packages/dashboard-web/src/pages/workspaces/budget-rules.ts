// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { CostUsage } from './types.js';

/** What the workspace pages say about money: amounts, spending against budgets, overruns. */

/** US dollars from the API's decimal strings. */
export function usd(value: string | undefined | null): string {
  if (value === undefined || value === null || value === '') return '—';
  const amount = Number(value);
  return Number.isFinite(amount) ? `$${amount.toFixed(2)}` : value;
}

/** The budgets a workspace's spending exceeds, in words ([] when none is). */
export function budgetOverruns(usage: CostUsage | null | undefined): string[] {
  const over: string[] = [];
  if (usage?.dailyBudget !== undefined && Number(usage.dailySpend) > Number(usage.dailyBudget)) {
    over.push(`today ${usd(usage.dailySpend)} of a ${usd(usage.dailyBudget)} daily budget`);
  }
  if (
    usage?.monthlyBudget !== undefined &&
    Number(usage.monthlySpend) > Number(usage.monthlyBudget)
  ) {
    over.push(
      `this month ${usd(usage.monthlySpend)} of a ${usd(usage.monthlyBudget)} monthly budget`,
    );
  }
  return over;
}

export interface Spending {
  spent: number;
  /** The budget, when there is one. */
  limit: number | undefined;
  /** The figures in words: "$3.00 of $10.00 (30 %)". */
  text: string;
  /** Whether spending is past the budget. */
  over: boolean;
}

/** Spending against a budget of a period, if there is one. */
export function spendingOf(
  spend: string | undefined,
  budget: string | undefined,
  period: 'daily' | 'monthly',
): Spending {
  const spent = Number(spend ?? 0);
  const limit = budget === undefined ? undefined : Number(budget);
  const text =
    limit === undefined
      ? `${usd(spend ?? '0')} spent, no ${period} budget`
      : `${usd(spend ?? '0')} of ${usd(budget)} (${limit > 0 ? Math.round((spent / limit) * 100) : 0} %)`;
  return { spent, limit, text, over: limit !== undefined && spent > limit };
}

/** How full a meter is (capped at 1) and its tone: a warning from 80 %, an alert past 100 %. */
export function meterOf(value: number, max: number): { fill: number; tone: 'ok' | 'warn' | 'bad' } {
  const ratio = max > 0 ? value / max : value > 0 ? Infinity : 0;
  const tone = ratio > 1 ? 'bad' : ratio >= 0.8 ? 'warn' : 'ok';
  return { fill: Math.min(1, ratio), tone };
}
