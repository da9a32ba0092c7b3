import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { PassThrough } from 'node:stream';
import { createLogger } from '@paddock/common';
import { CORE_KINDS, EventRecorder, type KubeEvent, type KubeObject } from '@paddock/kube';
import { EVENT_COMPONENT, operatorEventRecorder } from '../../src/runtime/events.js';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';

describe('the event recorder', () => {
  let cluster: EmbeddedCluster;

  before(async () => {
    cluster = await startEmbeddedCluster();
  });
  after(async () => {
    await cluster.stop();
  });

  it('creates an Event about an object, then counts repeats of it on the same Event', async () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const recorder = new EventRecorder({
      kube: cluster.kube,
      component: EVENT_COMPONENT,
      now: () => clock,
    });
    const workspace: KubeObject = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'alpha', uid: 'uid-alpha' },
    };

    await recorder.normal(workspace, 'NamespaceCreated', 'created namespace alpha');
    let events = await cluster.kube.eventsFor('default', { name: 'alpha', kind: 'Workspace' });
    assert.equal(events.length, 1);
    const [created] = events as [KubeEvent];
    assert.equal(created.type, 'Normal');
    assert.equal(created.reason, 'NamespaceCreated');
    assert.equal(created.message, 'created namespace alpha');
    assert.equal(created.count, 1);
    assert.deepEqual(created.source, { component: 'paddock-operator' });
    assert.deepEqual(created.involvedObject, {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      name: 'alpha',
      uid: 'uid-alpha',
    });
    assert.equal(created.firstTimestamp, '2026-03-01T10:00:00Z');

    clock = new Date('2026-03-01T10:01:00Z');
    await Promise.all([
      recorder.normal(workspace, 'NamespaceCreated', 'created namespace alpha'),
      recorder.normal(workspace, 'NamespaceCreated', 'created namespace alpha'),
    ]);
    await recorder.warning(workspace, 'BudgetExceeded', 'daily budget exceeded');
    events = await cluster.kube.eventsFor('default', { name: 'alpha', kind: 'Workspace' });
    assert.equal(events.length, 2);
    const repeated = events.find((e) => e.reason === 'NamespaceCreated');
    assert.equal(repeated?.metadata?.name, created.metadata?.name);
    assert.equal(repeated?.count, 3);
    assert.equal(repeated?.firstTimestamp, '2026-03-01T10:00:00Z');
    assert.equal(repeated?.lastTimestamp, '2026-03-01T10:01:00Z');
    assert.equal(events.find((e) => e.reason === 'BudgetExceeded')?.type, 'Warning');
  });

  it('records a new Event once the aggregation window has passed', async () => {
    let clock = new Date('2026-03-01T10:00:00Z');
    const recorder = new EventRecorder({
      kube: cluster.kube,
      component: EVENT_COMPONENT,
      aggregationWindowMs: 60_000,
      now: () => clock,
    });
    const agent: KubeObject = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'ToolRegistry',
      metadata: { name: 'tools', namespace: 'team-a', uid: 'uid-tools' },
    };
    await cluster.kube
      .resource<KubeObject>(CORE_KINDS.namespace)
      .create({ metadata: { name: 'team-a' } });
    await recorder.warning(agent, 'HandlerUnavailable', 'search is down');
    clock = new Date('2026-03-01T10:05:00Z');
    await recorder.warning(agent, 'HandlerUnavailable', 'search is down');
    const events = await cluster.kube.eventsFor('team-a', { name: 'tools' });
    assert.deepEqual(
      events.map((e) => [e.metadata?.namespace, e.involvedObject.namespace, e.count]),
      [
        ['team-a', 'team-a', 1],
        ['team-a', 'team-a', 1],
      ],
    );
  });

  it('logs a failure to record instead of throwing it', async () => {
    const lines = new PassThrough();
    let logged = '';
    lines.on('data', (chunk: Buffer) => (logged += chunk.toString()));
    const logger = createLogger({ name: 'operator', destination: lines });
    const recorder = operatorEventRecorder(cluster.kube, logger);
    // A namespace that does not exist: the API server refuses the Event.
    await recorder.normal(
      { kind: 'Workspace', metadata: { name: 'ghost', namespace: 'missing-namespace' } },
      'Reconciled',
      'nothing to see',
    );
    logger.flush();
    const [line] = logged.trim().split('\n');
    const entry = JSON.parse(line ?? '{}') as { level?: number; msg?: string; reason?: string };
    assert.equal(entry.msg, 'could not record an event');
    assert.equal(entry.reason, 'Reconciled');
    assert.equal(entry.level, 40, 'a warning');
  });
});
