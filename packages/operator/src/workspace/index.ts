// What the Workspace controller must make exist, computed from the Workspace alone.
export type * from './kube-objects.js';
export type { IgnoredKey, KeySource } from './reserved-keys.js';
export {
  LABEL_WORKSPACE,
  LABEL_MANAGED_BY,
  MANAGED_BY,
  ANNOTATION_OWNER_WORKSPACE,
  ANNOTATION_OWNER_UID,
  workspaceLabelValue,
  ownedSelector,
  isOwnedBy,
} from './ownership.js';
export {
  LABEL_ENVIRONMENT,
  ANNOTATION_NAMESPACE_CREATED,
  ANNOTATION_SPEC_KEYS,
  withoutStaleSpecKeys,
  desiredNamespace,
  namespaceOwnership,
  namespaceCreatedByWorkspace,
  planNamespace,
  type ObservedNamespace,
  type NamespacePlan,
} from './namespace.js';
export { clusterRoleName } from './roles.js';
export { workspaceClusterRole, WORKSPACE_CLUSTER_ROLES } from './cluster-roles.js';
export {
  serviceAccountName,
  serviceAccountNames,
  desiredServiceAccounts,
} from './service-accounts.js';
export {
  LABEL_BINDING_SOURCE,
  ANNOTATION_EXPIRES,
  desiredRoleBindings,
  pruneBindings,
  type DesiredRoleBindings,
} from './role-bindings.js';
export { memberCounts, type MemberCounts } from './members.js';
export { QUOTA_NAME, desiredResourceQuota } from './quota.js';
export {
  DEFAULT_PLATFORM_NAMESPACE,
  SYSTEM_NAMESPACE,
  LABEL_NAMESPACE_NAME,
  PRIVATE_IPV4_RANGES,
  PRIVATE_IPV6_RANGES,
  isolationPolicyName,
  desiredNetworkPolicy,
  agentPodsPolicyName,
  desiredAgentPodsPolicy,
  type DesiredNetworkPolicy,
  type IgnoredPeer,
} from './network-policy.js';
export {
  workspaceConditions,
  type WorkspaceFacts,
  type NamespaceState,
  type StepState,
  type WorkspacePhase,
} from './phase.js';
export {
  ANNOTATION_ALERTS_SENT,
  budgetActions,
  costUsage,
  crossedThresholds,
  exceededBudgets,
  exceededMessage,
  formatAlertsSent,
  formatCents,
  msUntilUtcMidnight,
  parseAlertsSent,
  parseCents,
  planAlerts,
  alertText,
  sumSpend,
  utcDay,
  utcMonth,
  type AgentCostReport,
  type BudgetAction,
  type BudgetPeriod,
  type CostControls,
  type CostUsage,
  type CrossedThreshold,
  type SpendTotals,
} from './cost.js';
