import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { silentLogger, smtpMailer } from '@paddock/common';
import {
  CORE_KINDS,
  KINDS,
  type AgentRuntime,
  type KubeEvent,
  type Kube,
  type Workspace,
  type WorkspaceSpec,
  installCrds,
} from '@paddock/kube';
import { startSmtp, type RunningSmtp } from '@paddock/testing';
import { WorkspaceController } from '../src/controllers/workspace-controller.js';
import { operatorEventRecorder } from '../src/runtime/events.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import {
  costUsage,
  crossedThresholds,
  exceededBudgets,
  msUntilUtcMidnight,
  planAlerts,
  sumSpend,
  type CostControls,
} from '../src/workspace/index.js';
import {
  eventuallyOk as eventually,
  startEmbeddedCluster,
  type EmbeddedCluster,
} from '@paddock/testing';

const NOW = new Date('2026-11-23T15:00:00Z');
const today = (now: Date) => now.toISOString().slice(0, 10);
const thisMonth = (now: Date) => now.toISOString().slice(0, 7);

function report(daily: string, monthly: string, now = NOW) {
  return { day: today(now), dailySpend: daily, month: thisMonth(now), monthlySpend: monthly };
}

describe('cost controls, decided from the reports', () => {
  it('sums the reports of the current UTC day and month only', () => {
    const cases: [string, Parameters<typeof sumSpend>[0], number, number][] = [
      ['nothing reported', [undefined], 0, 0],
      ['two agents', [report('1.50', '10.25'), report('2.5', '0.75')], 400, 1100],
      [
        'yesterday counts for the month only',
        [{ day: '2026-11-22', dailySpend: '9.00', month: '2026-11', monthlySpend: '30.00' }],
        0,
        3000,
      ],
      [
        'last month counts for nothing',
        [{ day: '2026-10-31', dailySpend: '9.00', month: '2026-10', monthlySpend: '30.00' }],
        0,
        0,
      ],
      ['malformed figures count as zero', [report('abc', '-1')], 0, 0],
    ];
    for (const [name, reports, daily, monthly] of cases) {
      const totals = sumSpend(reports, NOW);
      assert.deepEqual([totals.dailyCents, totals.monthlyCents], [daily, monthly], name);
    }
  });

  it('reports the sums as USD strings and keeps lastUpdated while nothing changes', () => {
    const controls: CostControls = { dailyBudget: '10.00', monthlyBudget: '100.00' };
    const totals = sumSpend([report('1.5', '20')], NOW);
    const first = costUsage(controls, totals, NOW);
    assert.deepEqual(first, {
      dailySpend: '1.50',
      dailyBudget: '10.00',
      monthlySpend: '20.00',
      monthlyBudget: '100.00',
      lastUpdated: '2026-11-23T15:00:00Z',
    });
    const later = new Date('2026-11-23T16:00:00Z');
    assert.equal(costUsage(controls, totals, later, first).lastUpdated, '2026-11-23T15:00:00Z');
    const more = sumSpend([report('2', '20')], later);
    assert.equal(costUsage(controls, more, later, first).lastUpdated, '2026-11-23T16:00:00Z');
  });

  it('says which budget is exceeded, strictly over it', () => {
    const controls: CostControls = { dailyBudget: '10', monthlyBudget: '100' };
    const cases: [string, string, string[]][] = [
      ['10.00', '50', []],
      ['10.01', '50', ['daily']],
      ['1', '100.01', ['monthly']],
      ['11', '101', ['daily', 'monthly']],
    ];
    for (const [daily, monthly, expected] of cases) {
      assert.deepEqual(
        exceededBudgets(controls, sumSpend([report(daily, monthly)], NOW)),
        expected,
      );
    }
    assert.deepEqual(exceededBudgets({}, sumSpend([report('999', '999')], NOW)), []);
  });

  it('finds the crossed thresholds per budget and notifies each once per period', () => {
    const controls: CostControls = {
      dailyBudget: '10',
      monthlyBudget: '100',
      alertThresholds: [{ percent: 80, notify: ['ops@example.com'] }, { percent: 100 }],
    };
    const totals = sumSpend([report('8', '50')], NOW);
    const crossed = crossedThresholds(controls, totals);
    assert.deepEqual(
      crossed.map((c) => [c.period, c.key, c.percent]),
      [['daily', '2026-11-23', 80]],
    );
    const first = planAlerts(crossed, undefined, totals);
    assert.deepEqual(
      first.due.map((c) => c.percent),
      [80],
    );
    assert.equal(first.annotation, '2026-11-23:80');
    const again = planAlerts(crossed, first.annotation, totals);
    assert.deepEqual(again.due, []);
    assert.equal(again.annotation, '2026-11-23:80');

    const worse = sumSpend([report('10', '85')], NOW);
    const next = planAlerts(crossedThresholds(controls, worse), first.annotation, worse);
    assert.deepEqual(
      next.due.map((c) => [c.period, c.percent]),
      [
        ['daily', 100],
        ['monthly', 80],
      ],
    );
    assert.equal(next.annotation, '2026-11-23:80,100;2026-11:80');
  });

  it('rolls over: a new day drops the day entries, a new month the month entries', () => {
    const controls: CostControls = {
      dailyBudget: '10',
      monthlyBudget: '100',
      alertThresholds: [{ percent: 80 }],
    };
    const sent = '2026-11-23:80;2026-11:80';
    const tomorrow = new Date('2026-11-24T00:00:01Z');
    const dayTotals = sumSpend([report('9', '90', tomorrow)], tomorrow);
    const day = planAlerts(crossedThresholds(controls, dayTotals), sent, dayTotals);
    assert.deepEqual(
      day.due.map((c) => [c.period, c.percent]),
      [['daily', 80]],
    );
    assert.equal(day.annotation, '2026-11-24:80;2026-11:80');

    const nextMonth = new Date('2026-12-01T00:00:01Z');
    const stale = sumSpend([report('9', '90')], nextMonth);
    assert.deepEqual([stale.dailyCents, stale.monthlyCents], [0, 0]);
    assert.deepEqual(exceededBudgets(controls, stale), []);
    assert.equal(planAlerts([], sent, stale).annotation, '');
    assert.equal(msUntilUtcMidnight(NOW), 9 * 3600_000);
  });
});

const workspaceKind = KINDS.find((k) => k.kind === 'Workspace') as (typeof KINDS)[number];
const agentKind = KINDS.find((k) => k.kind === 'AgentRuntime') as (typeof KINDS)[number];

let cluster: EmbeddedCluster;
let kube: Kube;
let controller: WorkspaceController;
let smtp: RunningSmtp;

const workspaces = () => kube.resource<Workspace>(workspaceKind);
const agents = () => kube.resource<AgentRuntime>(agentKind);

async function createWorkspace(name: string, spec: Partial<WorkspaceSpec>): Promise<void> {
  await workspaces().create({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
    spec: { displayName: name, namespace: { name: `ns-${name}`, create: true }, ...spec },
  });
  await eventually(`${name} Ready`, async () =>
    (await workspaces().get(name)).status?.phase === 'Ready' ? true : undefined,
  );
}

async function createAgent(namespace: string, name: string, replicas: number): Promise<void> {
  await agents().create({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'AgentRuntime',
    metadata: { name, namespace },
    spec: { promptPackRef: { name: 'pack' }, replicas },
  });
}

/** What the agent itself does: report its spend of today and this month. */
async function reportSpend(namespace: string, name: string, daily: string, monthly: string) {
  await eventually(`${name} reported`, async () => {
    const agent = await agents().get(name, namespace);
    const now = new Date();
    await agents().replaceStatus({
      ...agent,
      status: { ...agent.status, costUsage: report(daily, monthly, now) },
    });
    return true;
  });
}

async function updateSpec(name: string, change: (spec: WorkspaceSpec) => WorkspaceSpec) {
  await eventually(`${name} updated`, async () => {
    const found = await workspaces().get(name);
    await workspaces().replace({ ...found, spec: change(found.spec) });
    return true;
  });
}

async function workspaceWhere(name: string, what: string, test: (w: Workspace) => boolean) {
  return eventually(what, async () => {
    const found = await workspaces().get(name);
    return test(found) ? found : undefined;
  });
}

const condition = (w: Workspace, type: string) =>
  w.status?.conditions?.find((c) => c.type === type);

async function eventsOf(namespace: string, name: string, reason: string): Promise<KubeEvent[]> {
  const events = await kube.resource<KubeEvent>(CORE_KINDS.event).list({ namespace });
  return events.items.filter((e) => e.involvedObject.name === name && e.reason === reason);
}

before(async () => {
  smtp = await startSmtp();
  cluster = await startEmbeddedCluster();
  kube = cluster.kube;
  await installCrds(kube);
  controller = new WorkspaceController({
    kube,
    recorder: operatorEventRecorder(kube),
    metrics: new OperatorMetrics({ processMetrics: false }),
    logger: silentLogger(),
    mailer: smtpMailer(smtp.url, 'Paddock <operator@paddock.invalid>'),
    platformNamespace: 'paddock-system',
  });
  await controller.start();
});

after(async () => {
  await controller.stop();
  await cluster.stop();
  await smtp.stop();
});

describe('cost controls in the Workspace controller', () => {
  it('warns with a BudgetExceeded condition and event when the daily budget is crossed', async () => {
    await createWorkspace('warned', {
      costControls: { dailyBudget: '5.00', monthlyBudget: '100' },
    });
    await createAgent('ns-warned', 'agent', 1);
    await reportSpend('ns-warned', 'agent', '2.00', '20.00');
    const within = await workspaceWhere('warned', 'spend summed', (w) =>
      w.status?.costUsage?.dailySpend === '2.00' ? true : false,
    );
    assert.equal(condition(within, 'BudgetExceeded')?.status, 'False');
    assert.equal(within.status?.costUsage?.monthlySpend, '20.00');
    assert.equal(within.status?.costUsage?.dailyBudget, '5.00');
    assert.match(within.status?.costUsage?.lastUpdated ?? '', /Z$/);

    await reportSpend('ns-warned', 'agent', '6.50', '24.50');
    const over = await workspaceWhere(
      'warned',
      'budget exceeded',
      (w) => condition(w, 'BudgetExceeded')?.status === 'True',
    );
    assert.equal(over.status?.phase, 'Ready');
    assert.match(condition(over, 'BudgetExceeded')?.message ?? '', /daily spend 6\.50 USD/i);
    const events = await eventually('the warning', async () => {
      const found = await eventsOf('default', 'warned', 'BudgetExceeded');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(events[0]?.type, 'Warning');
    assert.equal((await agents().get('agent', 'ns-warned')).spec.replicas, 1);
  });

  it('blocks: phase Suspended while exceeded, Ready again once the budget is raised', async () => {
    await createWorkspace('blocked', {
      costControls: { dailyBudget: '1.00', budgetExceededAction: 'block' },
    });
    await createAgent('ns-blocked', 'agent', 2);
    await reportSpend('ns-blocked', 'agent', '3.00', '3.00');
    const suspended = await workspaceWhere(
      'blocked',
      'suspended',
      (w) => w.status?.phase === 'Suspended',
    );
    assert.equal(condition(suspended, 'Ready')?.reason, 'Suspended');
    // The AgentRuntime controller blocks the agent's runs from this condition; the spec stays.
    assert.equal(condition(suspended, 'BudgetExceeded')?.status, 'True');
    assert.equal((await agents().get('agent', 'ns-blocked')).spec.replicas, 2);
    await updateSpec('blocked', (spec) => ({
      ...spec,
      costControls: { ...spec.costControls, dailyBudget: '10.00' },
    }));
    const ready = await workspaceWhere(
      'blocked',
      'ready again',
      (w) => w.status?.phase === 'Ready',
    );
    assert.equal(condition(ready, 'BudgetExceeded')?.status, 'False');
    const agent = await agents().get('agent', 'ns-blocked');
    assert.equal(agent.spec.replicas, 2);
    assert.equal(agent.metadata.annotations?.['paddock.dev/paused-replicas'], undefined);
  });

  it('pauseJobs: reports the exceeded budget and leaves every spec.replicas as it is', async () => {
    await createWorkspace('paused', {
      costControls: { monthlyBudget: '50', budgetExceededAction: 'pauseJobs' },
    });
    await createAgent('ns-paused', 'one', 3);
    await createAgent('ns-paused', 'two', 1);
    await reportSpend('ns-paused', 'one', '10', '30');
    await reportSpend('ns-paused', 'two', '10', '30');
    const over = await workspaceWhere(
      'paused',
      'budget exceeded',
      (w) => condition(w, 'BudgetExceeded')?.status === 'True',
    );
    assert.equal(over.status?.phase, 'Ready');
    await controller.reconcile('paused');
    const one = await agents().get('one', 'ns-paused');
    assert.equal(one.spec.replicas, 3);
    assert.equal(one.metadata.annotations?.['paddock.dev/paused-replicas'], undefined);
    assert.equal((await agents().get('two', 'ns-paused')).spec.replicas, 1);
  });

  it('notifies a crossed threshold once per period, remembered on the Workspace', async () => {
    await createWorkspace('alerted', {
      costControls: {
        dailyBudget: '10',
        alertThresholds: [{ percent: 50, notify: ['ops@example.com'] }, { percent: 90 }],
      },
    });
    await createAgent('ns-alerted', 'agent', 1);
    await reportSpend('ns-alerted', 'agent', '6', '6');
    const day = new Date().toISOString().slice(0, 10);
    await workspaceWhere(
      'alerted',
      'alert remembered',
      (w) => w.metadata.annotations?.['paddock.dev/alerts-sent'] === `${day}:50`,
    );
    await reportSpend('ns-alerted', 'agent', '7', '7');
    await workspaceWhere(
      'alerted',
      'spend updated',
      (w) => w.status?.costUsage?.dailySpend === '7.00',
    );
    await controller.reconcile('alerted');
    const alerts = await eventsOf('default', 'alerted', 'BudgetAlert');
    assert.equal(alerts.length, 1);
    assert.equal(alerts[0]?.count ?? 1, 1);
    assert.match(alerts[0]?.message ?? '', /50% of the daily budget.*ops@example\.com/);
    const mail = await smtp.nextMailTo('ops@example.com');
    assert.match(mail.raw, /Subject: Workspace alerted: 50% of the daily budget reached/);
    assert.match(mail.raw, /spent \$6\.00 of its daily budget of \$10/);
    // The 90% threshold is not crossed, and the 50% one is not mailed twice.
    assert.equal(smtp.mails.length, 1);
    assert.equal(
      (await workspaces().get('alerted')).metadata.annotations?.['paddock.dev/alerts-sent'],
      `${day}:50`,
    );
  });

  it('leaves the replica limit to the AgentRuntime controller: it writes no agent', async () => {
    await createWorkspace('limited', { quotas: { agents: { maxReplicasPerAgent: 2 } } });
    await createAgent('ns-limited', 'big', 5);
    await controller.reconcile('limited');
    const big = await agents().get('big', 'ns-limited');
    assert.equal(big.spec.replicas, 5);
    assert.equal(big.status?.conditions, undefined);
  });
});
