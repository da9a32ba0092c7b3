import { collectDefaultMetrics, Gauge, type Registry } from 'prom-client';

/**
 * The process's own metrics (CPU, memory, event loop, handles) in a service's registry, under its
 * prefix, with names that pass Prometheus' rules: prom-client names three of its default gauges
 * `nodejs_active_{handles,requests,resources}_total`, a suffix kept for counters. Each is the sum of
 * the gauge of the same name without `_total` (by type), so it goes where that one exists, and is
 * renamed otherwise. A subpath of its own, so that what serves no metrics never loads prom-client.
 */
export function collectProcessMetrics(registry: Registry, prefix: string): void {
  collectDefaultMetrics({ register: registry, prefix });
  for (const { name, type, help } of registry.getMetricsAsArray()) {
    if (String(type) !== 'gauge' || !name.endsWith('_total')) continue;
    const source = registry.getSingleMetric(name);
    if (source === undefined) continue;
    registry.removeSingleMetric(name);
    const renamed = name.slice(0, -'_total'.length);
    if (registry.getSingleMetric(renamed) !== undefined) continue;
    new Gauge({
      name: renamed,
      help: help.replace(/^Total number/, 'Number'),
      registers: [registry],
      async collect() {
        const { values } = await source.get();
        this.reset();
        for (const { labels, value } of values) this.set(labels, value);
      },
    });
  }
}
