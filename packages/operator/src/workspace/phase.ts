import type { Condition, WorkspaceStatus } from '@paddock/kube';

/** What the controller found of the namespace this pass. */
export type NamespaceState =
  | 'created' // exists, made by this Workspace
  | 'adopted' // exists, made by someone else and taken over
  | 'pending' // being created (or creating it failed: see `error`)
  | 'missing' // absent while namespace.create is false
  | 'conflict' // held by another Workspace
  | 'terminating'; // being deleted

/** The outcome of one step of the pass: done, waiting, or failed with the error. */
export interface StepState {
  ready: boolean;
  error?: string;
}

export interface WorkspaceFacts {
  namespace: { name: string; state: NamespaceState; owner?: string; error?: string };
  serviceAccounts: StepState;
  roleBindings: StepState;
  /** Absent when isolation is off: NetworkPolicyReady is then not reported at all. */
  networkPolicy?: StepState;
  /** Why the workspace is suspended, when cost controls decided so. */
  suspended?: string;
  /** With cost controls: whether a budget is exceeded, reported as the BudgetExceeded condition. */
  budget?: { exceeded: boolean; message: string };
}

export type WorkspacePhase = NonNullable<WorkspaceStatus['phase']>;

type Verdict = Pick<Condition, 'type' | 'status' | 'reason' | 'message'>;

/**
 * The phase and conditions of a Workspace from this pass's facts. Suspended wins over every other
 * phase so that the dashboard's refusal holds whatever else is wrong; otherwise a missing or
 * conflicting namespace or a failed step is Error, anything unfinished Pending. A condition keeps
 * its lastTransitionTime while its status stays the same, so an unchanged pass writes nothing.
 */
export function workspaceConditions(
  facts: WorkspaceFacts,
  context: { now: Date; generation?: number; previous?: readonly Condition[] },
): { phase: WorkspacePhase; conditions: Condition[] } {
  const namespace = namespaceVerdict(facts.namespace);
  const namespaceReady = namespace.status === 'True';
  const steps: Verdict[] = [
    stepVerdict(
      'ServiceAccountsReady',
      'ServiceAccounts',
      'Created',
      facts.serviceAccounts,
      namespaceReady,
    ),
    stepVerdict('RoleBindingsReady', 'RoleBindings', 'Applied', facts.roleBindings, namespaceReady),
  ];
  if (facts.networkPolicy) {
    steps.push(
      stepVerdict(
        'NetworkPolicyReady',
        'NetworkPolicy',
        'Applied',
        facts.networkPolicy,
        namespaceReady,
      ),
    );
  }
  const parts = [namespace, ...steps];
  const failed = parts.find((v) => v.reason?.endsWith('Failed') || isNamespaceError(v));
  const waiting = parts.filter((v) => v.status !== 'True');

  let phase: WorkspacePhase;
  let ready: Verdict;
  if (facts.suspended !== undefined) {
    phase = 'Suspended';
    ready = { type: 'Ready', status: 'False', reason: 'Suspended', message: facts.suspended };
  } else if (failed) {
    phase = 'Error';
    ready = { type: 'Ready', status: 'False', reason: failed.reason, message: failed.message };
  } else if (waiting.length > 0) {
    phase = 'Pending';
    const names = waiting.map((v) => v.type).join(', ');
    ready = { type: 'Ready', status: 'False', reason: 'Pending', message: `Waiting for ${names}.` };
  } else {
    phase = 'Ready';
    ready = { type: 'Ready', status: 'True', reason: 'WorkspaceReady', message: 'Ready for use.' };
  }

  const verdicts = [ready, ...parts];
  if (facts.budget) {
    verdicts.push({
      type: 'BudgetExceeded',
      status: facts.budget.exceeded ? 'True' : 'False',
      reason: facts.budget.exceeded ? 'BudgetExceeded' : 'WithinBudget',
      message: facts.budget.message,
    });
  }
  const conditions = verdicts.map((verdict) => stamp(verdict, context));
  return { phase, conditions };
}

function namespaceVerdict(fact: WorkspaceFacts['namespace']): Verdict {
  const type = 'NamespaceReady';
  const { name } = fact;
  switch (fact.state) {
    case 'created':
      return {
        type,
        status: 'True',
        reason: 'NamespaceCreated',
        message: `Namespace ${name} was created by this Workspace.`,
      };
    case 'adopted':
      return {
        type,
        status: 'True',
        reason: 'NamespaceAdopted',
        message: `Namespace ${name} existed and was adopted; deleting the Workspace leaves it in place.`,
      };
    case 'missing':
      return {
        type,
        status: 'False',
        reason: 'NamespaceMissing',
        message: `Namespace ${name} does not exist and namespace.create is false.`,
      };
    case 'conflict':
      return {
        type,
        status: 'False',
        reason: 'NamespaceConflict',
        message: `Namespace ${name} belongs to Workspace ${fact.owner ?? 'another Workspace'}.`,
      };
    case 'terminating':
      return {
        type,
        status: 'False',
        reason: 'NamespaceTerminating',
        message: `Namespace ${name} is being deleted.`,
      };
    case 'pending':
      return fact.error === undefined
        ? {
            type,
            status: 'False',
            reason: 'NamespaceCreating',
            message: `Creating namespace ${name}.`,
          }
        : { type, status: 'False', reason: 'NamespaceFailed', message: fact.error };
  }
}

function isNamespaceError(verdict: Verdict): boolean {
  return verdict.reason === 'NamespaceMissing' || verdict.reason === 'NamespaceConflict';
}

function stepVerdict(
  type: string,
  subject: string,
  done: string,
  step: StepState,
  namespaceReady: boolean,
): Verdict {
  if (!namespaceReady) {
    return {
      type,
      status: 'False',
      reason: 'NamespaceNotReady',
      message: 'Waiting for the namespace.',
    };
  }
  if (step.error !== undefined) {
    return { type, status: 'False', reason: `${subject}Failed`, message: step.error };
  }
  return step.ready
    ? {
        type,
        status: 'True',
        reason: `${subject}${done}`,
        message: `${subject} ${done.toLowerCase()}.`,
      }
    : { type, status: 'False', reason: `${subject}Pending`, message: `${subject} not ready yet.` };
}

function stamp(
  verdict: Verdict,
  context: { now: Date; generation?: number; previous?: readonly Condition[] },
): Condition {
  const before = context.previous?.find((c) => c.type === verdict.type);
  const lastTransitionTime =
    before?.status === verdict.status && before.lastTransitionTime !== undefined
      ? before.lastTransitionTime
      : // Kubernetes writes condition times to the second.
        context.now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    ...verdict,
    lastTransitionTime,
    ...(context.generation === undefined ? {} : { observedGeneration: context.generation }),
  };
}
