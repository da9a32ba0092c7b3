import type { Condition, KubeObject, Workspace } from '@paddock/kube';

type WorkspaceSpec = Workspace['spec'];

/**
 * The conditions an agent's placement reads, and what it reads of them: a NamespaceConflict on
 * NamespaceReady (which of two Workspaces naming a namespace holds it) and a BudgetExceeded that
 * holds (a pause or block, and why). Any other condition reads as absent, so none other is kept.
 */
function readCondition(
  condition: Condition,
): Pick<Condition, 'type' | 'status' | 'reason' | 'message'> | undefined {
  const { type, status, reason, message } = condition;
  if (type === 'NamespaceReady' && reason === 'NamespaceConflict') return { type, status, reason };
  if (type === 'BudgetExceeded' && status === 'True') {
    return { type, status, ...(message === undefined ? {} : { message }) };
  }
  return undefined;
}

/**
 * What the AgentRuntime controller reads of a Workspace, and all its informer keeps of one: which
 * namespace it names and since when, its isolation settings, its per-agent replica limit, its
 * budget action, and the conditions above. A full Workspace is one too, so the functions
 * taking this take either.
 */
export interface WorkspaceForAgents extends KubeObject {
  metadata: { name: string; resourceVersion?: string; creationTimestamp?: string };
  spec: {
    namespace: { name: string };
    networkPolicy?: WorkspaceSpec['networkPolicy'];
    quotas?: { agents?: { maxReplicasPerAgent?: number } };
    costControls?: {
      budgetExceededAction?: NonNullable<WorkspaceSpec['costControls']>['budgetExceededAction'];
    };
  };
  status?: { conditions?: Pick<Condition, 'type' | 'status' | 'reason' | 'message'>[] };
}

/**
 * The projection of a Workspace to what its agents read (see WorkspaceForAgents); `intern` gives
 * the one copy of a name kept by whoever keeps many.
 */
export function workspaceForAgents(
  workspace: Workspace,
  intern: (value: string) => string = (value) => value,
): WorkspaceForAgents {
  const { name, resourceVersion, creationTimestamp } = workspace.metadata;
  const { namespace, networkPolicy, quotas, costControls } = workspace.spec;
  const limit = quotas?.agents?.maxReplicasPerAgent;
  const action = costControls?.budgetExceededAction;
  const conditions = (workspace.status?.conditions ?? []).flatMap((c) => readCondition(c) ?? []);
  return {
    metadata: {
      name: intern(name),
      ...(resourceVersion === undefined ? {} : { resourceVersion }),
      ...(creationTimestamp === undefined ? {} : { creationTimestamp }),
    },
    spec: {
      namespace: { name: intern(namespace.name) },
      ...(networkPolicy === undefined ? {} : { networkPolicy }),
      ...(limit === undefined ? {} : { quotas: { agents: { maxReplicasPerAgent: limit } } }),
      // Present even when empty: a Workspace with cost controls acts on an exceeded budget.
      ...(costControls === undefined
        ? {}
        : { costControls: action === undefined ? {} : { budgetExceededAction: action } }),
    },
    ...(conditions.length === 0 ? {} : { status: { conditions } }),
  };
}
