/**
 * The naming rules of Prometheus metrics that `promtool check metrics` enforces, as a pure check:
 * each service's tests run it over their own registry, so a misnamed metric fails a test rather
 * than a dashboard or an alert later.
 */

/** One metric as a registry describes it (prom-client's getMetricsAsJSON() entries fit). */
export interface MetricDescription {
  name: string;
  /** counter, gauge, histogram, summary (anything else is checked as untyped). */
  type: string;
  help?: string;
  /** The label names its series carry. */
  labels?: readonly string[];
}

export interface MetricNameProblem {
  metric: string;
  problem: string;
}

const VALID_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const VALID_LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const CAMEL_CASE = /[a-z][A-Z]/;
/** Name parts promtool takes for abbreviated units: a base unit's full name is wanted instead. */
const ABBREVIATED_UNITS = new Set([
  's',
  'ms',
  'us',
  'ns',
  'sec',
  'b',
  'kb',
  'mb',
  'gb',
  'tb',
  'pb',
  'm',
  'h',
  'd',
]);
const TYPE_WORDS = new Set(['counter', 'gauge', 'histogram', 'summary']);
/** Suffixes the exposition gives histograms' and summaries' own series. */
const SERIES_SUFFIXES = ['_bucket', '_count', '_sum'];

/** What is wrong with one metric's name, type and labels; empty when nothing is. */
export function metricProblems(metric: MetricDescription): string[] {
  const { name, type } = metric;
  const problems: string[] = [];
  if (!VALID_NAME.test(name)) problems.push('the name has characters a metric name may not have');
  if (name.includes(':')) problems.push('colons are for recording rules, not metric names');
  if (CAMEL_CASE.test(name)) problems.push("names are written in 'snake_case', not 'camelCase'");
  if (type === 'counter' && !name.endsWith('_total')) {
    problems.push('a counter’s name ends in "_total"');
  }
  if (type !== 'counter' && name.endsWith('_total')) {
    problems.push(`a ${type}’s name does not end in "_total" (only counters’ do)`);
  }
  if (type !== 'histogram' && type !== 'summary') {
    const suffix = SERIES_SUFFIXES.find((s) => name.endsWith(s));
    if (suffix !== undefined) problems.push(`only histograms and summaries end in "${suffix}"`);
  }
  const parts = name.toLowerCase().split('_');
  for (const part of parts) {
    if (ABBREVIATED_UNITS.has(part)) problems.push(`"${part}" abbreviates a unit: spell it out`);
    if (TYPE_WORDS.has(part)) problems.push(`the name says its type ("${part}")`);
  }
  if (metric.help !== undefined && metric.help.trim() === '') problems.push('no help text');
  for (const label of metric.labels ?? []) {
    if (!VALID_LABEL.test(label) || label.startsWith('__')) {
      problems.push(`the label "${label}" is not a valid label name`);
    } else if (CAMEL_CASE.test(label)) {
      problems.push(`the label "${label}" is written in 'camelCase', not 'snake_case'`);
    }
  }
  return problems;
}

/** Every problem of every metric, in their order. */
export function metricNameProblems(metrics: readonly MetricDescription[]): MetricNameProblem[] {
  return metrics.flatMap((metric) =>
    metricProblems(metric).map((problem) => ({ metric: metric.name, problem })),
  );
}

/**
 * The metrics a Prometheus text exposition declares (its `# TYPE` and `# HELP` lines, and the
 * label names of its series), to check a running service's /metrics.
 */
export function metricsOfExposition(text: string): MetricDescription[] {
  const byName = new Map<
    string,
    { name: string; type: string; help?: string; labels: Set<string> }
  >();
  const entry = (name: string) => {
    let found = byName.get(name);
    if (found === undefined)
      byName.set(name, (found = { name, type: 'untyped', labels: new Set() }));
    return found;
  };
  const families = () => [...byName.keys()];
  for (const line of text.split('\n')) {
    const typed = /^# TYPE (\S+) (\S+)/.exec(line);
    if (typed) {
      entry(typed[1]!).type = typed[2]!;
      continue;
    }
    const help = /^# HELP (\S+) ?(.*)$/.exec(line);
    if (help) {
      entry(help[1]!).help = help[2]!;
      continue;
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!sample) continue;
    const series = sample[1]!;
    // A histogram's _bucket, _count and _sum series belong to its family.
    const family =
      families().find(
        (name) => series === name || SERIES_SUFFIXES.some((s) => series === `${name}${s}`),
      ) ?? series;
    const labels = entry(family).labels;
    for (const [, label] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) {
      if (label !== 'le' && label !== 'quantile') labels.add(label!);
    }
  }
  return [...byName.values()].map(({ labels, ...metric }) => ({ ...metric, labels: [...labels] }));
}
