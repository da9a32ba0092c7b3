// What the agent spent in the current UTC day and month, kept exact, and the report it writes to
// its AgentRuntime's status: cents rounded up, so that a budget acts no later than the spend.
import { formatCents, parseCents, utcDay, utcMonth, type AgentRuntimeStatus } from '@paddock/kube';

export type CostReport = NonNullable<AgentRuntimeStatus['costUsage']>;

export interface Spend {
  day: string;
  month: string;
  dailyUsd: number;
  monthlyUsd: number;
}

/** Float noise below this is not a cent more (0.07 * 100 is 7.000000000000001). */
const CENT_TOLERANCE = 1e-6;

/** The spend a report says for the period of `now`: a figure of another day or month is zero. */
export function spendFrom(report: CostReport | undefined, now: Date): Spend {
  const day = utcDay(now);
  const month = utcMonth(now);
  const cents = (period: string | undefined, current: string, usd: string | undefined) =>
    period === current ? (parseCents(usd) ?? 0) : 0;
  return {
    day,
    month,
    dailyUsd: cents(report?.day, day, report?.dailySpend) / 100,
    monthlyUsd: cents(report?.month, month, report?.monthlySpend) / 100,
  };
}

/** The spend with `usd` more at `now`: a new day or month starts from zero. */
export function addSpend(spend: Spend, usd: number, now: Date): Spend {
  const day = utcDay(now);
  const month = utcMonth(now);
  return {
    day,
    month,
    dailyUsd: (spend.day === day ? spend.dailyUsd : 0) + usd,
    monthlyUsd: (spend.month === month ? spend.monthlyUsd : 0) + usd,
  };
}

/** Dollars as the report writes them: whole cents, rounded up. */
export function reportedUsd(usd: number): string {
  return formatCents(Math.max(0, Math.ceil(usd * 100 - CENT_TOLERANCE)));
}

export function reportOf(spend: Spend): CostReport {
  return {
    day: spend.day,
    dailySpend: reportedUsd(spend.dailyUsd),
    month: spend.month,
    monthlySpend: reportedUsd(spend.monthlyUsd),
  };
}
