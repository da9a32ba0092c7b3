// The figures of an AgentRuntime's status.costUsage, as the agent writes them and the Workspace
// controller sums them: UTC days and months, USD with two decimals.

/** The UTC day of `now`, as YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The UTC month of `now`, as YYYY-MM. */
export function utcMonth(now: Date): string {
  return now.toISOString().slice(0, 7);
}

/** A USD decimal string as whole cents; undefined when it is not one. */
export function parseCents(usd: string | undefined): number | undefined {
  if (usd === undefined) return undefined;
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(usd.trim());
  if (match === null) return undefined;
  const [, units = '0', fraction = ''] = match;
  return Number(units) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Cents as a USD decimal string with two decimals. */
export function formatCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
