/**
 * The shapes the workspace endpoints answer with (packages/dashboard/src/workspaces/views.ts; the
 * OpenAPI description at /api/openapi.yaml), as far as the workspace pages use them.
 */
import type { Condition, Page, WorkspaceRole, WorkspaceSummary } from '../../types.js';

export type { Condition, WorkspaceRole, WorkspaceSummary };

export type WorkspaceAction =
  | 'scaleAgents'
  | 'createAgents'
  | 'deleteAgents'
  | 'modifyPrompts'
  | 'modifyTools'
  | 'manageMembers'
  /** Read an agent's workspace: its files, its changes, the zip of it. */
  | 'viewFiles'
  /** Open a terminal, a tunnel or an SSH session in an agent's workspace. */
  | 'useTerminal'
  /** Call an agent's MCP server through the dashboard. */
  | 'useMcp';

/**
 * Actions on an agent's runs: read them (`viewRuns`), start and cancel them (`startRuns`).
 * Optional until every dashboard answers them; absent counts as not allowed.
 */
export type RunAction = 'viewRuns' | 'startRuns';

/** What the user may do in the workspace: only these actions are shown. */
export type Permissions = Record<WorkspaceAction, boolean> & Partial<Record<RunAction, boolean>>;
export type WorkspacePermissions = Permissions;

/** A CPU or memory amount: `500m`, `2`, `4Gi`. */
export type Quantity = string | number;

export interface ComputeAmounts {
  cpu?: Quantity;
  memory?: Quantity;
}

export interface Quotas {
  compute?: { requests?: ComputeAmounts; limits?: ComputeAmounts };
  objects?: { configmaps?: number; secrets?: number; persistentvolumeclaims?: number };
  arena?: { maxConcurrentJobs?: number; maxJobsPerDay?: number; maxWorkersPerJob?: number };
  agents?: { maxAgentRuntimes?: number; maxReplicasPerAgent?: number };
}

export interface NetworkPolicyView {
  isolate: boolean;
  allowExternalAPIs: boolean;
  allowSharedNamespaces: boolean;
  allowPrivateNetworks: boolean;
  /** What the operator made of it: the NetworkPolicy's name, whether it is active, its rules. */
  status: { name?: string; enabled?: boolean; rulesCount?: number } | null;
}

export type BudgetAction = 'warn' | 'pauseJobs' | 'block';

/** US dollars as decimal strings (`25`, `25.50`). */
export interface CostControls {
  dailyBudget?: string;
  monthlyBudget?: string;
  budgetExceededAction?: BudgetAction;
  alertThresholds?: { percent: number; notify?: string[] }[];
}

export interface CostUsage {
  dailySpend?: string;
  dailyBudget?: string;
  monthlySpend?: string;
  monthlyBudget?: string;
  lastUpdated?: string;
}

export interface Members {
  owners?: number;
  editors?: number;
  viewers?: number;
}

export interface ServiceAccountRef {
  name: string;
  namespace: string;
}

export interface RoleBinding {
  groups?: string[];
  serviceAccounts?: ServiceAccountRef[];
  role: WorkspaceRole;
}

export interface DirectGrant {
  user: string;
  role: WorkspaceRole;
  /** RFC 3339; absent: never. */
  expires?: string | null;
  /** Whether the grant is in force now (false once it expired). */
  active: boolean;
}

export interface AnonymousAccess {
  enabled: boolean;
  role?: WorkspaceRole;
}

/** Who has access: only owners receive it. */
export interface Access {
  /** Sent back with a change: one made meanwhile by someone else is then a conflict. */
  resourceVersion: string | null;
  roleBindings: RoleBinding[];
  directGrants: DirectGrant[];
  anonymousAccess: AnonymousAccess;
}

/** The body of PUT /api/workspaces/{name}/access: the fields to replace. */
export interface AccessChange {
  resourceVersion?: string;
  roleBindings?: RoleBinding[];
  directGrants?: Omit<DirectGrant, 'active'>[];
  anonymousAccess?: AnonymousAccess;
}

export interface WorkspaceDetails extends WorkspaceSummary {
  createdAt: string | null;
  permissions: Permissions;
  quotas: Quotas;
  networkPolicy: NetworkPolicyView;
  costControls: CostControls | null;
  costUsage: CostUsage | null;
  members: Members;
  access: Access | null;
  conditions: Condition[];
  observedGeneration: number | null;
}

export interface AgentCostUsage {
  day?: string;
  dailySpend?: string;
  month?: string;
  monthlySpend?: string;
}

export interface Agent {
  name: string;
  promptPack: string;
  /** Wanted. */
  replicas: number;
  /** Pods that exist. */
  currentReplicas: number;
  readyReplicas: number;
  phase: string;
  model: string | null;
  image: string | null;
  env: Record<string, string>;
  pausedForBudget: boolean;
  costUsage: AgentCostUsage | null;
  conditions: Condition[];
  createdAt: string | null;
  /** Where the agent loop reaches its model; null: the pods run the sandbox alone. */
  provider?: ModelProvider | null;
  /** The limits of each run as the AgentRuntime sets them (null: the defaults). */
  runLimits?: RunLimits | null;
}

export interface ModelProvider {
  type: 'openai' | 'anthropic';
  model?: string;
}

export interface RunLimits {
  maxTurns?: number;
  maxTokens?: number;
  /** A duration: `30m`, `2h`. */
  maxWallTime?: string;
}

export interface Pod {
  name: string;
  phase: string;
  containers: string[];
  startedAt: string | null;
}

export interface AgentDetails extends Agent {
  pods: Pod[];
}

export interface NewAgent {
  name: string;
  promptPack: string;
  replicas?: number;
  model?: string;
}

export interface Prompt {
  name: string;
  content: string;
}

export interface PromptPack {
  name: string;
  description: string | null;
  systemPrompt: string;
  prompts: Prompt[];
  createdAt: string | null;
}

/** The body of PUT …/promptpacks/{pack}. */
export interface PromptPackSpec {
  systemPrompt: string;
  description?: string;
  prompts?: Prompt[];
}

export interface DiscoveredTool {
  handlerName: string;
  name: string;
  status: 'Available' | 'Unavailable' | 'Unknown';
  endpoint?: string;
  error?: string;
}

export interface ToolRegistry {
  name: string;
  /** The ToolRegistry spec as the cluster's resource definition has it. */
  spec: Record<string, unknown>;
  phase: string;
  discoveredToolsCount: number;
  availableToolsCount: number;
  discoveredTools: DiscoveredTool[];
  conditions: Condition[];
}

export interface WorkspaceEvent {
  type: string;
  reason: string;
  message: string;
  object: { kind: string; name: string };
  count: number;
  firstSeen: string | null;
  lastSeen: string | null;
  source: string | null;
}

export type WorkspaceList = Page & { workspaces: WorkspaceSummary[] };
export type AgentList = Page & { agents: Agent[] };
export type PromptPackList = Page & { promptPacks: PromptPack[] };
export type ToolRegistryList = Page & { toolRegistries: ToolRegistry[] };
export type EventList = Page & { events: WorkspaceEvent[] };

/** Tokens of a run or of one model call, and what they cost in US dollars. */
export interface RunUsage {
  input: number;
  output: number;
  usd: number;
}

export type OutcomeStatus =
  'completed' | 'failed' | 'cancelled' | 'limit' | 'blocked' | 'interrupted';

/** How a run ended (packages/agent/src/transcript.ts). */
export interface RunOutcome {
  status: OutcomeStatus;
  reason?: string;
  /** For a failed model call: what failed (`model_unauthorized`, …). */
  code?: string;
}

/** One run of an agent's replica (the runs API's `Run`). */
export interface Run {
  id: string;
  task: string;
  prompt?: { name: string; variables: Record<string, string> };
  startedBy?: string;
  createdAt: string;
  /** The number of its last transcript event. */
  lastSeq: number;
  usage: RunUsage;
  outcome?: RunOutcome;
}

export interface RunList {
  runs: Run[];
  /** The run under way, if any. */
  running: string | null;
  /** The runs waiting, first in line first. */
  queued: string[];
}

/** The body of POST …/runs: free text, or a prompt of the pack with its variables. */
export type StartRun =
  { task: string } | { prompt: { name: string; variables?: Record<string, string> } };

/** POST …/runs answers 202 with the run and how many runs are ahead of it (0: it started). */
export interface StartedRun {
  run: Run;
  position: number;
}
