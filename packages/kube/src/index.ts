export { GROUP, VERSION, API_VERSION } from './api-group.js';
export {
  RESERVED_PREFIX,
  LABEL_SHARED,
  LABEL_TOOL,
  LABEL_AGENT,
  ANNOTATION_TOOL_PATH,
  ANNOTATION_TOOL_DESCRIPTION,
  ANNOTATION_TOOL_TYPE,
} from './labels.js';
export type { ManagedFieldsEntry, ObjectMeta, OwnerReference } from './object-meta.js';
export { agentOwnerReference } from './object-meta.js';
export type { FromSchema } from './from-schema.js';
export type { SchemaNode, ValidationRule } from './schema-node.js';
export type {
  CustomResourceDefinition,
  KindDefinition,
  PrinterColumn,
} from './custom-resource-definition.js';
export { KINDS, type PaddockKind } from './resources/index.js';
export { customResourceDefinitions } from './crds.js';
export { crdFiles, GENERATE_COMMAND, KUSTOMIZATION_FILE, type GeneratedFile } from './crd-files.js';
export { conditionSchema, type Condition } from './resources/condition.js';
export {
  workspaceDefinition,
  workspaceSpecSchema,
  workspaceStatusSchema,
  type Workspace,
  type WorkspaceSpec,
  type WorkspaceStatus,
  type WorkspaceRole,
  type WorkspaceRoleBinding,
  type WorkspaceDirectGrant,
  type WorkspaceNetworkRule,
} from './resources/workspace.js';
export {
  toolRegistryDefinition,
  toolRegistrySpecSchema,
  toolRegistryStatusSchema,
  type ToolRegistry,
  type ToolRegistrySpec,
  type ToolRegistryStatus,
  type ToolHandler,
  type DiscoveredTool,
} from './resources/tool-registry.js';
export {
  agentRuntimeDefinition,
  agentRuntimeSpecSchema,
  agentRuntimeStatusSchema,
  DEFAULT_AGENT_IMAGE,
  DEFAULT_AGENT_STORAGE_SIZE,
  AGENT_MCP_PORT,
  AGENT_API_PORT,
  AGENT_MCP_PORT_NAME,
  AGENT_API_PORT_NAME,
  AGENT_RUNS_PORT,
  AGENT_RUNS_PORT_NAME,
  MAX_AGENT_PORTS,
  AGENT_PROVIDER_TYPES,
  DEFAULT_API_KEY_SECRET_KEY,
  DEFAULT_RUN_LIMITS,
  PRICE_PATTERN,
  MAX_PRICED_MODELS,
  type AgentRuntime,
  type AgentRuntimeSpec,
  type AgentRuntimeStatus,
} from './resources/agent-runtime.js';
export {
  promptPackDefinition,
  promptPackSpecSchema,
  promptPackStatusSchema,
  type PromptPack,
  type PromptPackSpec,
  type PromptPackStatus,
} from './resources/prompt-pack.js';
export { formatCents, parseCents, utcDay, utcMonth } from './resources/cost-usage.js';
export { parseDuration } from './resources/durations.js';
export {
  CIDR_PATTERN,
  USD_PATTERN,
  DURATION_PATTERN,
  QUANTITY_PATTERN,
} from './resources/field-schemas.js';
export * from './client/index.js';
export * from './workspace-access.js';
export { sameJson } from './same-json.js';
export {
  podDnsName,
  agentPodAudience,
  podEndpoint,
  type EndpointPod,
  type NamedPod,
  type PodEndpoint,
} from './pod-endpoint.js';
export {
  PROOF_SECRET_NAME,
  PROOF_SECRET_KEY,
  PROOF_SIGNING_KEY,
  proofKeysOf,
  type ProofKeyPair,
} from './sandbox-proof-secret.js';
