import type { Logger, Mailer } from '@paddock/common';
import type { Workspace } from '@paddock/kube';
import type { EventRecorder } from '../../runtime/events.js';
import {
  ANNOTATION_ALERTS_SENT,
  alertText,
  budgetActions,
  costUsage,
  crossedThresholds,
  exceededBudgets,
  exceededMessage,
  msUntilUtcMidnight,
  planAlerts,
  sumSpend,
  type CostUsage,
} from '../../workspace/index.js';
import type { WorkspaceClients } from './clients.js';

/** Past midnight, so that the pass reads the new day. */
const MIDNIGHT_MARGIN_MS = 1_000;

export interface AgentControlsContext {
  clients: WorkspaceClients;
  recorder: EventRecorder;
  logger: Logger;
  /** Sends the alert thresholds' notifications (to the log when no relay is configured). */
  mailer: Mailer;
}

/** What the cost controls decided this pass, for the Workspace's status. */
export interface AgentControlsOutcome {
  /** The Workspace, as rewritten when the alerts annotation changed. */
  workspace: Workspace;
  costUsage?: CostUsage;
  budget?: { exceeded: boolean; message: string };
  suspended?: string;
  /** When the budget's day ends and the controls must be looked at again. */
  resyncAfterMs?: number;
}

/**
 * Applies cost controls to the AgentRuntimes of the workspace's namespace: sums their reported
 * spend and notifies crossed alert thresholds once per period. The BudgetExceeded condition it
 * decides is what pauses the agents: the AgentRuntime controller runs them at 0 replicas while it
 * is True under pauseJobs or block, and applies maxReplicasPerAgent (one place for both).
 */
export async function applyAgentControls(
  context: AgentControlsContext,
  initial: Workspace,
  now: Date,
): Promise<AgentControlsOutcome> {
  const { clients, recorder, logger, mailer } = context;
  let workspace = initial;
  const namespace = workspace.spec.namespace.name;
  const agents = (await clients.agentRuntimes.listAll({ namespace })).items;
  const controls = workspace.spec.costControls;
  const outcome: AgentControlsOutcome = { workspace };

  if (controls !== undefined) {
    const totals = sumSpend(
      agents.map((a) => a.status?.costUsage),
      now,
    );
    const over = exceededBudgets(controls, totals);
    const exceeded = over.length > 0;
    const message = exceeded
      ? exceededMessage(controls, totals, over)
      : 'Spend is within the budgets.';
    const actions = budgetActions(controls.budgetExceededAction);
    const wasExceeded = workspace.status?.conditions?.some(
      (c) => c.type === 'BudgetExceeded' && c.status === 'True',
    );
    if (exceeded && wasExceeded !== true) {
      await recorder.warning(workspace, 'BudgetExceeded', message);
    } else if (!exceeded && wasExceeded === true) {
      await recorder.normal(workspace, 'WithinBudget', message);
    }

    const sent = workspace.metadata.annotations?.[ANNOTATION_ALERTS_SENT];
    const alerts = planAlerts(crossedThresholds(controls, totals), sent, totals);
    // Remembered before sending, so that a failed write cannot notify twice.
    if ((sent ?? '') !== alerts.annotation) {
      const annotations = Object.fromEntries(
        Object.entries(workspace.metadata.annotations ?? {}).filter(
          ([key]) => key !== ANNOTATION_ALERTS_SENT,
        ),
      );
      if (alerts.annotation !== '') annotations[ANNOTATION_ALERTS_SENT] = alerts.annotation;
      workspace = await clients.workspaces.replace({
        ...workspace,
        metadata: { ...workspace.metadata, annotations },
      });
      outcome.workspace = workspace;
    }

    for (const alert of alerts.due) {
      const name = workspace.metadata.name;
      const { subject, text } = alertText(name, alert, controls, totals);
      logger.warn(
        { workspace: name, recipients: alert.notify, ...alert },
        'budget alert threshold reached',
      );
      const notified = alert.notify.length === 0 ? '.' : `; notifying ${alert.notify.join(', ')}.`;
      await recorder.warning(workspace, 'BudgetAlert', `${subject}${notified}`);
      if (alert.notify.length === 0) continue;
      // At most once: the annotation above is already written, so a failed mail is reported, not retried.
      await mailer.send({ to: alert.notify, subject, text }).catch(async (err: unknown) => {
        logger.error(
          { err, workspace: name, recipients: alert.notify },
          'budget alert mail failed',
        );
        await recorder.warning(
          workspace,
          'BudgetAlertNotSent',
          `The alert mail to ${alert.notify.join(', ')} could not be sent: ${String(err)}`,
        );
      });
    }

    outcome.costUsage = costUsage(controls, totals, now, workspace.status?.costUsage);
    outcome.budget = { exceeded, message };
    if (exceeded && actions.suspend) outcome.suspended = message;
    outcome.resyncAfterMs = msUntilUtcMidnight(now) + MIDNIGHT_MARGIN_MS;
  }

  return outcome;
}
