import { Fragment, useEffect } from 'react';
import { formatTime } from '../../ui/format';
import { spendingOf } from './budget-rules';
import { ConditionList, FocusHeading, Meter, PhaseBadge, When, yesNo } from './parts';
import type { BudgetAction, ComputeAmounts, Quotas } from './types';
import type { WorkspaceViewProps } from './workspace-view';

const BUDGET_ACTIONS: Record<BudgetAction, string> = {
  warn: 'Warn: log warnings, change nothing',
  pauseJobs: 'Pause jobs: pause Arena jobs',
  block: 'Block: suspend the workspace, blocking changes',
};

/** How often the overview reads the workspace again, so that its cost follows what runs spend. */
const COST_REFRESH_MS = 30_000;

/** The workspace's state at a glance: phase, conditions, members, quotas, network, cost. */
export function OverviewTab({ workspace, reloadWorkspace }: WorkspaceViewProps) {
  const { members, networkPolicy: net } = workspace;
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') reloadWorkspace();
    }, COST_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reloadWorkspace]);
  return (
    <section aria-labelledby="overview-title">
      <FocusHeading level={2} id="overview-title" className="ws-visually-hidden">
        Overview
      </FocusHeading>
      <div className="ws-overview">
        <section className="card ws-wide" aria-labelledby="status-title">
          <h3 id="status-title">Status</h3>
          <p>
            Phase: <PhaseBadge phase={workspace.phase} />
            {workspace.createdAt !== null && (
              <span className="muted"> · created {formatTime(workspace.createdAt)}</span>
            )}
          </p>
          <ConditionList conditions={workspace.conditions} caption="Conditions of the workspace" />
        </section>

        <section className="card" aria-labelledby="cost-title">
          <h3 id="cost-title">Cost</h3>
          <CostView {...workspace} />
        </section>

        <section className="card" aria-labelledby="members-count-title">
          <h3 id="members-count-title">Members</h3>
          <dl className="facts">
            <dt>Owners</dt>
            <dd>{members.owners ?? 0}</dd>
            <dt>Editors</dt>
            <dd>{members.editors ?? 0}</dd>
            <dt>Viewers</dt>
            <dd>{members.viewers ?? 0}</dd>
          </dl>
          <p className="muted ws-small">Counted from role bindings and unexpired grants.</p>
        </section>

        <section className="card" aria-labelledby="namespace-title">
          <h3 id="namespace-title">Namespace</h3>
          <dl className="facts">
            <dt>Name</dt>
            <dd>
              <code>{workspace.namespace}</code>
            </dd>
            <dt>Environment</dt>
            <dd>{workspace.environment ?? '—'}</dd>
          </dl>
        </section>

        <section className="card" aria-labelledby="network-title">
          <h3 id="network-title">Network isolation</h3>
          <dl className="facts">
            <dt>Isolated</dt>
            <dd>{yesNo(net.isolate)}</dd>
            <dt>External APIs</dt>
            <dd>{net.allowExternalAPIs ? 'Allowed' : 'Blocked'}</dd>
            <dt>Shared namespaces</dt>
            <dd>{net.allowSharedNamespaces ? 'Allowed' : 'Blocked'}</dd>
            <dt>Private networks</dt>
            <dd>{net.allowPrivateNetworks ? 'Allowed' : 'Blocked'}</dd>
            <dt>Policy</dt>
            <dd>
              {net.status?.name !== undefined ? <code>{net.status.name}</code> : 'None'}
              {net.status?.enabled !== undefined && (
                <>
                  {' '}
                  <span className={`badge ${net.status.enabled ? 'ok' : 'warn'}`}>
                    {net.status.enabled ? 'active' : 'inactive'}
                  </span>
                </>
              )}
            </dd>
            <dt>Rules</dt>
            <dd>{net.status?.rulesCount ?? '—'}</dd>
          </dl>
          {!net.isolate && (
            <p className="muted ws-small">
              Not isolated: no NetworkPolicy limits the namespace’s traffic.
            </p>
          )}
        </section>

        <section className="card ws-wide" aria-labelledby="quotas-title">
          <h3 id="quotas-title">Quotas</h3>
          <QuotaView quotas={workspace.quotas} />
        </section>
      </div>
    </section>
  );
}

function CostView({ costControls, costUsage }: WorkspaceViewProps['workspace']) {
  const daily = costUsage?.dailyBudget ?? costControls?.dailyBudget;
  const monthly = costUsage?.monthlyBudget ?? costControls?.monthlyBudget;
  if (costControls === null && costUsage === null) {
    return <p className="muted">No budget is set and no spending has been reported.</p>;
  }
  const action = costControls?.budgetExceededAction ?? 'warn';
  const thresholds = costControls?.alertThresholds ?? [];
  return (
    <>
      <Spend label="Today" spend={costUsage?.dailySpend} budget={daily} period="daily" />
      <Spend label="This month" spend={costUsage?.monthlySpend} budget={monthly} period="monthly" />
      <dl className="facts">
        <dt>When exceeded</dt>
        <dd>{BUDGET_ACTIONS[action] ?? action}</dd>
        {thresholds.length > 0 && (
          <>
            <dt>Alerts at</dt>
            <dd>{thresholds.map((t) => `${t.percent} %`).join(', ')} of a budget</dd>
          </>
        )}
        <dt>Updated</dt>
        <dd>
          <When value={costUsage?.lastUpdated} />
        </dd>
      </dl>
    </>
  );
}

/** Spending against a budget: figures, and a meter when there is a budget. */
function Spend({
  label,
  spend,
  budget,
  period,
}: {
  label: string;
  spend: string | undefined;
  budget: string | undefined;
  period: 'daily' | 'monthly';
}) {
  const { spent, limit, text, over } = spendingOf(spend, budget, period);
  return (
    <div className="ws-spend">
      <p className="ws-spend-line">
        <span className="ws-label">{label}</span>
        <span>{text}</span>
      </p>
      {limit !== undefined && (
        <Meter
          label={`${period === 'daily' ? 'Daily' : 'Monthly'} spend against budget`}
          value={spent}
          max={limit}
          valueText={text}
        />
      )}
      {over && <p className="ws-over-budget">Over the {period} budget.</p>}
    </div>
  );
}

function amount(value: ComputeAmounts | undefined, key: keyof ComputeAmounts): string {
  const v = value?.[key];
  return v === undefined ? '—' : String(v);
}

function QuotaView({ quotas }: { quotas: Quotas }) {
  const rows: [string, string | number | undefined][] = [
    ['Agent runtimes', quotas.agents?.maxAgentRuntimes],
    ['Replicas per agent', quotas.agents?.maxReplicasPerAgent],
    ['Arena jobs at once', quotas.arena?.maxConcurrentJobs],
    ['Arena jobs per day', quotas.arena?.maxJobsPerDay],
    ['Workers per Arena job', quotas.arena?.maxWorkersPerJob],
    ['ConfigMaps', quotas.objects?.configmaps],
    ['Secrets', quotas.objects?.secrets],
    ['Persistent volume claims', quotas.objects?.persistentvolumeclaims],
  ];
  const compute = quotas.compute;
  const set = rows.filter(([, v]) => v !== undefined);
  if (set.length === 0 && compute === undefined) {
    return <p className="muted">No quotas: the workspace is limited only by the cluster.</p>;
  }
  return (
    <div className="ws-quotas">
      {compute !== undefined && (
        <div className="table-wrap">
          <table>
            <caption className="ws-caption">Compute</caption>
            <thead>
              <tr>
                <td />
                <th scope="col">CPU</th>
                <th scope="col">Memory</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row">Requests</th>
                <td>{amount(compute.requests, 'cpu')}</td>
                <td>{amount(compute.requests, 'memory')}</td>
              </tr>
              <tr>
                <th scope="row">Limits</th>
                <td>{amount(compute.limits, 'cpu')}</td>
                <td>{amount(compute.limits, 'memory')}</td>
              </tr>
            </tbody>
          </table>
        </div>
      )}
      {set.length > 0 && (
        <dl className="facts">
          {set.map(([name, value]) => (
            <Fragment key={name}>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
        </dl>
      )}
    </div>
  );
}
