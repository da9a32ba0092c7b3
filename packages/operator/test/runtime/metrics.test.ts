import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { AddressInfo } from 'node:net';
import {
  createHttpApp,
  metricNameProblems,
  metricsOfExposition,
  silentLogger,
} from '@paddock/common';
import { WorkQueue } from '@paddock/kube';
import { METRIC_NAMES, OperatorMetrics, serveMetrics } from '../../src/runtime/metrics.js';

describe('operator metrics', () => {
  const metrics = new OperatorMetrics();
  const queue = new WorkQueue(async () => {});
  const app = createHttpApp({ logger: silentLogger() });
  let url: string;

  before(async () => {
    app.get('/metrics', serveMetrics(metrics));
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/metrics`;
  });
  after(async () => {
    await app.close();
    await queue.shutdown();
  });

  it('serves reconcile counts, durations, errors, queue depth and leader status as Prometheus text', async () => {
    metrics.trackQueue('workspace', queue);
    queue.add('a');
    queue.add('b');
    metrics.observeReconcile('workspace', 'success', 0.02);
    metrics.observeReconcile('workspace', 'error', 0.5);
    metrics.observeReconcile('toolregistry', 'requeue', 1.5);
    metrics.setLeader(true);

    const response = await fetch(url);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    for (const name of Object.values(METRIC_NAMES)) {
      assert.match(text, new RegExp(`^# TYPE ${name} `, 'm'), name);
    }
    assert.match(
      text,
      /^paddock_operator_reconcile_total\{controller="workspace",result="success"\} 1$/m,
    );
    assert.match(
      text,
      /^paddock_operator_reconcile_total\{controller="toolregistry",result="requeue"\} 1$/m,
    );
    assert.match(text, /^paddock_operator_reconcile_errors_total\{controller="workspace"\} 1$/m);
    assert.match(
      text,
      /^paddock_operator_reconcile_duration_seconds_count\{controller="workspace"\} 2$/m,
    );
    assert.match(text, /^paddock_operator_workqueue_depth\{controller="workspace"\} 2$/m);
    assert.match(text, /^paddock_operator_leader 1$/m);
    assert.match(text, /^paddock_operator_process_resident_memory_bytes /m);
  });

  it('names every metric as Prometheus’ rules want, process metrics included', async () => {
    const text = (await metrics.exposition()).body;
    const described = metricsOfExposition(text);
    assert.ok(described.length > 10, 'the process metrics are served');
    assert.deepEqual(metricNameProblems(described), []);
    // prom-client's gauges named *_total go; the gauges by type they sum up stay.
    for (const gauge of ['active_handles', 'active_requests', 'active_resources']) {
      assert.doesNotMatch(text, new RegExp(`nodejs_${gauge}_total`));
    }
    assert.match(text, /^# TYPE paddock_operator_nodejs_active_handles gauge$/m);
  });
});
