// What the AgentRuntime controller makes exist and reports, computed from the agent, its
// Workspace and its PromptPack (desired objects) or from its StatefulSet and pods (status).
export type * from './workload-objects.js';
export {
  AGENT_APP_NAME,
  MAX_AGENT_NAME_LENGTH,
  agentNameProblem,
  agentLabels,
  agentSelector,
  agentSelectorLabels,
} from './agent-labels.js';
export {
  CONDITION_PAUSED,
  CONDITION_REPLICAS_LIMITED,
  CONDITION_RUNS_BLOCKED,
  agentWorkspace,
  effectiveReplicas,
  type AgentWorkspace,
  type EffectiveReplicas,
} from './effective-replicas.js';
export {
  ANNOTATION_PROMPT_PACK,
  ANNOTATION_PROOF_KEY,
  DEFAULT_RESOURCES,
  ENV_MODEL,
  ENV_POD_NAME,
  PROOF_SECRET_KEY,
  PROOF_SECRET_NAME,
  SANDBOX_CONTAINER,
  SANDBOX_UID,
  HOME_MOUNT_PATH,
  HOME_SIZE_LIMIT,
  HOME_VOLUME,
  TMP_MOUNT_PATH,
  TMP_SIZE_LIMIT,
  WORKSPACE_MOUNT_PATH,
  WORKSPACE_VOLUME,
  agentResources,
  desiredStatefulSet,
  promptPackAnnotation,
  sandboxArgs,
  type AgentWorkloadInputs,
  type PromptPackVersion,
} from './desired-statefulset.js';
export { desiredService } from './desired-service.js';
export { workspaceForAgents, type WorkspaceForAgents } from './workspace-for-agents.js';
export {
  AGENT_COMMAND,
  AGENT_CONTAINER,
  AGENT_DATA_MOUNT_PATH,
  AGENT_DATA_SIZE,
  AGENT_DATA_VOLUME,
  AGENT_RESOURCES,
  KUBE_API_VOLUME,
  SERVICE_ACCOUNT_DIR,
  agentAccountName,
  agentContainer,
  runsAgentLoop,
} from './agent-container.js';
export {
  agentRules,
  desiredAgentAccess,
  type AgentAccess,
  type AgentRoleBindingObject,
  type AgentRoleObject,
  type AgentServiceAccountObject,
} from './agent-access.js';
export {
  CONDITION_AVAILABLE,
  CONDITION_PROGRESSING,
  FAILED_WAITING_REASONS,
  agentStatus,
  failingPod,
  type AgentPhase,
  type AgentStatusInputs,
  type ComputedAgentStatus,
} from './agent-status.js';
export { REASON_NO_WORKSPACE, noWorkspaceStatus } from './no-workspace-status.js';
export { ANNOTATION_PAUSED_REPLICAS, withoutOldPause } from './paused-replicas.js';
export {
  PROOF_SIGNING_KEY,
  namespaceProofSecret,
  newProofKeyPair,
  platformProofSecret,
  proofKeyFingerprint,
  proofKeysOf,
  type ProofKeyPair,
  type SecretObject,
} from './proof-key.js';
export {
  DASHBOARD_APP_NAME,
  agentNetworkPolicyName,
  desiredAgentNetworkPolicy,
  type AgentNetworkPolicyInputs,
  type AgentNetworkPolicyObject,
} from './desired-network-policy.js';
