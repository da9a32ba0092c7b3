import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  metricNameProblems,
  metricProblems,
  metricsOfExposition,
  type MetricDescription,
} from '../src/metric-names.js';

describe('metric name rules', () => {
  it('finds what promtool finds in one metric', () => {
    const table: [metric: MetricDescription, problems: RegExp[]][] = [
      [{ name: 'http_requests_total', type: 'counter', help: 'Requests.' }, []],
      [{ name: 'queue_depth', type: 'gauge', help: 'Keys.' }, []],
      [{ name: 'request_duration_seconds', type: 'histogram', help: 'Time.' }, []],
      [{ name: 'http_requests', type: 'counter' }, [/ends in "_total"/]],
      [{ name: 'active_handles_total', type: 'gauge' }, [/gauge’s name does not end in "_total"/]],
      [{ name: 'size_total', type: 'histogram' }, [/histogram’s name does not end in "_total"/]],
      [
        { name: 'requests_count', type: 'gauge' },
        [/only histograms and summaries end in "_count"/],
      ],
      [{ name: 'latency_ms', type: 'gauge' }, [/"ms" abbreviates a unit/]],
      [{ name: 'queueDepth', type: 'gauge' }, [/snake_case/]],
      [{ name: 'jobs_gauge', type: 'gauge' }, [/says its type/]],
      [{ name: 'rule:rate', type: 'gauge' }, [/recording rules/]],
      [{ name: '9lives', type: 'gauge' }, [/characters/]],
      [{ name: 'up', type: 'gauge', help: '  ' }, [/no help text/]],
      [
        { name: 'tool_calls_total', type: 'counter', labels: ['toolName', '__reserved', 'ok'] },
        [/"toolName" is written in 'camelCase'/, /"__reserved" is not a valid label name/],
      ],
    ];
    for (const [metric, expected] of table) {
      const problems = metricProblems(metric);
      assert.equal(problems.length, expected.length, `${metric.name}: ${problems.join('; ')}`);
      expected.forEach((pattern, i) => assert.match(problems[i]!, pattern, metric.name));
    }
  });

  it('names the metric of each problem', () => {
    assert.deepEqual(
      metricNameProblems([
        { name: 'fine_total', type: 'counter' },
        { name: 'open_sessions_total', type: 'gauge' },
      ]),
      [
        {
          metric: 'open_sessions_total',
          problem: 'a gauge’s name does not end in "_total" (only counters’ do)',
        },
      ],
    );
  });

  it('reads the metrics of an exposition, histogram series in their family', () => {
    const text = [
      '# HELP reconcile_total Reconciles.',
      '# TYPE reconcile_total counter',
      'reconcile_total{controller="workspace",result="success"} 3',
      '# HELP duration_seconds Time.',
      '# TYPE duration_seconds histogram',
      'duration_seconds_bucket{le="0.1",controller="workspace"} 1',
      'duration_seconds_sum{controller="workspace"} 0.05',
      'duration_seconds_count{controller="workspace"} 1',
      'untyped_thing 1',
      '',
    ].join('\n');
    assert.deepEqual(metricsOfExposition(text), [
      {
        name: 'reconcile_total',
        type: 'counter',
        help: 'Reconciles.',
        labels: ['controller', 'result'],
      },
      { name: 'duration_seconds', type: 'histogram', help: 'Time.', labels: ['controller'] },
      { name: 'untyped_thing', type: 'untyped', labels: [] },
    ]);
    assert.deepEqual(metricNameProblems(metricsOfExposition(text)), []);
  });
});
