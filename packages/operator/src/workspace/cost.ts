import {
  formatCents,
  parseCents,
  utcDay,
  utcMonth,
  type AgentRuntimeStatus,
  type WorkspaceSpec,
  type WorkspaceStatus,
} from '@paddock/kube';

export { formatCents, parseCents, utcDay, utcMonth };

/**
 * Cost controls. Each AgentRuntime reports its own spend in `status.costUsage` as
 * `{ day: 'YYYY-MM-DD', dailySpend: '1.25', month: 'YYYY-MM', monthlySpend: '40.10' }` (UTC, USD
 * with at most two decimals). The workspace's spend is the sum, over the AgentRuntimes of its
 * namespace, of the figures whose day and month are the current UTC ones: a figure of another
 * period counts as nothing, which is how a new day or month starts at zero.
 */

export type CostControls = NonNullable<WorkspaceSpec['costControls']>;
export type CostUsage = NonNullable<WorkspaceStatus['costUsage']>;
export type AgentCostReport = NonNullable<AgentRuntimeStatus['costUsage']>;
export type BudgetAction = NonNullable<CostControls['budgetExceededAction']>;
export type BudgetPeriod = 'daily' | 'monthly';

/** The Workspace annotation remembering which alert thresholds were notified in which period. */
export const ANNOTATION_ALERTS_SENT = 'paddock.dev/alerts-sent';

/** Spend of the current UTC day and month, in cents. */
export interface SpendTotals {
  day: string;
  month: string;
  dailyCents: number;
  monthlyCents: number;
}

/** Milliseconds from `now` to the next UTC midnight, when a day (and maybe a month) rolls over. */
export function msUntilUtcMidnight(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return next - now.getTime();
}

/** The sum of the reports that belong to the current UTC day and month. */
export function sumSpend(
  reports: readonly (AgentCostReport | undefined)[],
  now: Date,
): SpendTotals {
  const day = utcDay(now);
  const month = utcMonth(now);
  let dailyCents = 0;
  let monthlyCents = 0;
  for (const report of reports) {
    if (report === undefined) continue;
    if (report.day === day) dailyCents += parseCents(report.dailySpend) ?? 0;
    if (report.month === month) monthlyCents += parseCents(report.monthlySpend) ?? 0;
  }
  return { day, month, dailyCents, monthlyCents };
}

/**
 * status.costUsage for the totals. lastUpdated moves only when a figure changes, so that a pass
 * that finds the same spend writes nothing.
 */
export function costUsage(
  controls: CostControls,
  totals: SpendTotals,
  now: Date,
  previous?: CostUsage,
): CostUsage {
  const figures = {
    dailySpend: formatCents(totals.dailyCents),
    ...(controls.dailyBudget !== undefined && { dailyBudget: controls.dailyBudget }),
    monthlySpend: formatCents(totals.monthlyCents),
    ...(controls.monthlyBudget !== undefined && { monthlyBudget: controls.monthlyBudget }),
  };
  const same =
    previous !== undefined &&
    previous.dailySpend === figures.dailySpend &&
    previous.dailyBudget === figures.dailyBudget &&
    previous.monthlySpend === figures.monthlySpend &&
    previous.monthlyBudget === figures.monthlyBudget;
  const lastUpdated =
    same && previous.lastUpdated !== undefined
      ? previous.lastUpdated
      : now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return { ...figures, lastUpdated };
}

/** The budgets the spend is over (strictly more than the budget), daily first. */
export function exceededBudgets(controls: CostControls, totals: SpendTotals): BudgetPeriod[] {
  const over: BudgetPeriod[] = [];
  const daily = parseCents(controls.dailyBudget);
  const monthly = parseCents(controls.monthlyBudget);
  if (daily !== undefined && totals.dailyCents > daily) over.push('daily');
  if (monthly !== undefined && totals.monthlyCents > monthly) over.push('monthly');
  return over;
}

/** A sentence saying which budgets are exceeded, for the condition and the event. */
export function exceededMessage(
  controls: CostControls,
  totals: SpendTotals,
  over: readonly BudgetPeriod[],
): string {
  const parts = over.map((period) =>
    period === 'daily'
      ? `daily spend ${formatCents(totals.dailyCents)} USD is over the budget of ${controls.dailyBudget ?? ''} USD`
      : `monthly spend ${formatCents(totals.monthlyCents)} USD is over the budget of ${controls.monthlyBudget ?? ''} USD`,
  );
  const sentence = parts.join('; ');
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/**
 * What an exceeded budget does: warn always; pauseJobs runs the agents at 0 replicas; block keeps
 * them running (their workspaces stay open) but their agent loops take no run and end the current
 * one at its next model call, and the Workspace is Suspended.
 */
export function budgetActions(action: BudgetAction | undefined): {
  pause: boolean;
  block: boolean;
  suspend: boolean;
} {
  const chosen = action ?? 'warn';
  return { pause: chosen === 'pauseJobs', block: chosen === 'block', suspend: chosen === 'block' };
}

/** One alert threshold crossed in one period: the key it is remembered under is the period's. */
export interface CrossedThreshold {
  period: BudgetPeriod;
  /** The day (daily) or month (monthly) it was crossed in. */
  key: string;
  percent: number;
  notify: string[];
}

/**
 * The thresholds the spend reaches (spend ≥ percent of the budget), per budget: a threshold of 80
 * with both budgets set can be crossed once for the day and once for the month.
 */
export function crossedThresholds(controls: CostControls, totals: SpendTotals): CrossedThreshold[] {
  const crossed: CrossedThreshold[] = [];
  const budgets: [BudgetPeriod, string, number | undefined, number][] = [
    ['daily', totals.day, parseCents(controls.dailyBudget), totals.dailyCents],
    ['monthly', totals.month, parseCents(controls.monthlyBudget), totals.monthlyCents],
  ];
  for (const [period, key, budget, spent] of budgets) {
    if (budget === undefined || budget === 0) continue;
    for (const threshold of controls.alertThresholds ?? []) {
      if (spent * 100 >= threshold.percent * budget) {
        crossed.push({ period, key, percent: threshold.percent, notify: threshold.notify ?? [] });
      }
    }
  }
  return crossed;
}

/** The annotation's value read as period key → percents already notified. */
export function parseAlertsSent(value: string | undefined): Map<string, Set<number>> {
  const sent = new Map<string, Set<number>>();
  for (const entry of (value ?? '').split(';')) {
    const separator = entry.lastIndexOf(':');
    if (separator <= 0) continue;
    const key = entry.slice(0, separator).trim();
    const percents = entry
      .slice(separator + 1)
      .split(',')
      .map((p) => Number(p))
      .filter((p) => Number.isInteger(p) && p > 0);
    sent.set(key, new Set([...(sent.get(key) ?? []), ...percents]));
  }
  return sent;
}

/** The annotation's value, such as `2026-11-23:80,100;2026-11:80`. */
export function formatAlertsSent(sent: ReadonlyMap<string, ReadonlySet<number>>): string {
  return [...sent]
    .filter(([, percents]) => percents.size > 0)
    .map(([key, percents]) => `${key}:${[...percents].sort((a, b) => a - b).join(',')}`)
    .join(';');
}

/**
 * Which crossed thresholds still need a notification, and the annotation to write once they are
 * sent. Entries of past periods are dropped, so a threshold is notified again after a roll-over.
 */
export function planAlerts(
  crossed: readonly CrossedThreshold[],
  annotation: string | undefined,
  totals: SpendTotals,
): { due: CrossedThreshold[]; annotation: string } {
  const sent = parseAlertsSent(annotation);
  const current = new Map<string, Set<number>>();
  for (const key of [totals.day, totals.month]) {
    const percents = sent.get(key);
    if (percents !== undefined) current.set(key, new Set(percents));
  }
  const due: CrossedThreshold[] = [];
  for (const threshold of crossed) {
    const percents = current.get(threshold.key) ?? new Set<number>();
    if (percents.has(threshold.percent)) continue;
    due.push(threshold);
    percents.add(threshold.percent);
    current.set(threshold.key, percents);
  }
  // The day first, then the month, whichever was notified first.
  const ordered = new Map<string, Set<number>>();
  for (const key of [totals.day, totals.month]) {
    const percents = current.get(key);
    if (percents !== undefined) ordered.set(key, percents);
  }
  return { due, annotation: formatAlertsSent(ordered) };
}

/** The notification of one crossed threshold: the same words for the mail, the log and the event. */
export function alertText(
  workspace: string,
  alert: CrossedThreshold,
  controls: CostControls,
  totals: SpendTotals,
): { subject: string; text: string } {
  const daily = alert.period === 'daily';
  const budget = (daily ? controls.dailyBudget : controls.monthlyBudget) ?? '0';
  const spent = formatCents(daily ? totals.dailyCents : totals.monthlyCents);
  const subject = `Workspace ${workspace}: ${alert.percent}% of the ${alert.period} budget reached`;
  const text =
    `Workspace ${workspace} has spent $${spent} of its ${alert.period} budget of $${budget} ` +
    `(${alert.key}), crossing the ${alert.percent}% alert threshold.\n` +
    `Budget action when exceeded: ${controls.budgetExceededAction ?? 'warn'}.\n`;
  return { subject, text };
}
