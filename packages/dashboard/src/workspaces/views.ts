import {
  isGrantActive,
  type AgentRuntime,
  type KubeEvent,
  type KubeObject,
  type PromptPack,
  type ToolRegistry,
  type Workspace,
  type WorkspaceRole,
  WORKSPACE_ROLES,
} from '@paddock/kube';
import { can, type Action } from '../auth/permissions.js';
import { ROLES, type Role } from '../auth/user.js';

/**
 * The response shapes of the workspace endpoints, made from cluster objects by pure functions:
 * what a client sees does not change when the objects gain fields.
 */

export function workspaceSummary(workspace: Workspace, role: WorkspaceRole) {
  return {
    name: workspace.metadata.name,
    displayName: workspace.spec.displayName ?? workspace.metadata.name,
    description: workspace.spec.description ?? null,
    environment: workspace.spec.environment ?? null,
    namespace: workspace.spec.namespace.name,
    phase: workspace.status?.phase ?? 'Pending',
    role,
  };
}

/** Which workspace actions need which workspace role, beside the global permission table. */
const WORKSPACE_ACTIONS = {
  scaleAgents: ['owner', 'editor'],
  createAgents: ['owner', 'editor'],
  deleteAgents: ['owner', 'editor'],
  modifyPrompts: ['owner', 'editor'],
  modifyTools: ['owner', 'editor'],
  viewFiles: ['owner', 'editor', 'viewer'],
  useTerminal: ['owner', 'editor'],
  useMcp: ['owner', 'editor'],
  viewRuns: ['owner', 'editor', 'viewer'],
  startRuns: ['owner', 'editor'],
} as const satisfies Partial<Record<Action, readonly WorkspaceRole[]>>;

export type WorkspaceAction = keyof typeof WORKSPACE_ACTIONS;

/** Whether a user of a global role holding a workspace role may take the action there. */
export function mayAct(global: Role, role: WorkspaceRole, action: WorkspaceAction): boolean {
  return can(global, action) && (WORKSPACE_ACTIONS[action] as readonly string[]).includes(role);
}

export type Permissions = Readonly<Record<WorkspaceAction | 'manageMembers', boolean>>;

function permissionsOf(global: Role, role: WorkspaceRole): Permissions {
  const actions = Object.keys(WORKSPACE_ACTIONS) as WorkspaceAction[];
  return Object.freeze({
    ...Object.fromEntries(actions.map((action) => [action, mayAct(global, role, action)])),
    manageMembers: role === 'owner',
  } as Record<WorkspaceAction | 'manageMembers', boolean>);
}

/** Every pair of roles' permissions, made once: a workspace's details are read per request. */
const PERMISSIONS = new Map(
  ROLES.flatMap((global) =>
    WORKSPACE_ROLES.map((role) => [`${global}/${role}`, permissionsOf(global, role)] as const),
  ),
);

/** What the user may do in the workspace: the client shows only these actions. */
export function permissionsIn(global: Role, role: WorkspaceRole): Permissions {
  return PERMISSIONS.get(`${global}/${role}`) ?? permissionsOf(global, role);
}

/** Members as owners manage them: bindings, grants (with whether each is in force) and anonymous access. */
export function accessView(workspace: Workspace, now: Date) {
  return {
    // Sent back with a change, so that one made meanwhile by someone else is a conflict.
    resourceVersion: workspace.metadata.resourceVersion ?? null,
    roleBindings: workspace.spec.roleBindings ?? [],
    directGrants: (workspace.spec.directGrants ?? []).map((grant) => ({
      ...grant,
      active: isGrantActive(grant, now),
    })),
    anonymousAccess: workspace.spec.anonymousAccess ?? { enabled: false },
  };
}

export function workspaceDetails(
  workspace: Workspace,
  role: WorkspaceRole,
  global: Role,
  now: Date,
) {
  const { spec, status } = workspace;
  return {
    ...workspaceSummary(workspace, role),
    createdAt: workspace.metadata.creationTimestamp ?? null,
    permissions: permissionsIn(global, role),
    quotas: spec.quotas ?? {},
    networkPolicy: {
      isolate: spec.networkPolicy?.isolate ?? false,
      allowExternalAPIs: spec.networkPolicy?.allowExternalAPIs ?? true,
      allowSharedNamespaces: spec.networkPolicy?.allowSharedNamespaces ?? true,
      allowPrivateNetworks: spec.networkPolicy?.allowPrivateNetworks ?? false,
      status: status?.networkPolicy ?? null,
    },
    costControls: spec.costControls ?? null,
    costUsage: status?.costUsage ?? null,
    members: status?.members ?? { owners: 0, editors: 0, viewers: 0 },
    // Who exactly has access is for owners, who manage it.
    access: role === 'owner' ? accessView(workspace, now) : null,
    conditions: status?.conditions ?? [],
    observedGeneration: status?.observedGeneration ?? null,
  };
}

/** The agent's model provider as people may see it (its kind and model), or null without one. */
export function providerView(
  agent: AgentRuntime,
): { type: NonNullable<AgentRuntime['spec']['provider']>['type']; model?: string } | null {
  const provider = agent.spec.provider;
  if (provider === undefined) return null;
  return {
    type: provider.type,
    ...(agent.spec.model === undefined ? {} : { model: agent.spec.model }),
  };
}

export function agentView(agent: AgentRuntime) {
  // The operator runs 0 replicas while the workspace's budget pauses its agents, and says so.
  const paused = agent.status?.conditions?.some((c) => c.type === 'Paused' && c.status === 'True');
  return {
    name: agent.metadata.name,
    promptPack: agent.spec.promptPackRef.name,
    replicas: agent.spec.replicas ?? 1,
    currentReplicas: agent.status?.replicas ?? 0,
    readyReplicas: agent.status?.readyReplicas ?? 0,
    phase: agent.status?.phase ?? 'Pending',
    model: agent.spec.model ?? null,
    // Whether runs are possible, and with what: never the provider's secret reference.
    provider: providerView(agent),
    runLimits: agent.spec.runLimits ?? null,
    image: agent.spec.image ?? null,
    env: agent.spec.env ?? {},
    pausedForBudget: paused === true,
    costUsage: agent.status?.costUsage ?? null,
    conditions: agent.status?.conditions ?? [],
    createdAt: agent.metadata.creationTimestamp ?? null,
  };
}

/** A pod of an agent, as far as choosing whose logs to read needs. */
export interface PodObject extends KubeObject {
  metadata: KubeObject['metadata'] & { name: string };
  spec?: { containers?: { name: string }[] };
  status?: { phase?: string; startTime?: string };
}

export function podView(pod: PodObject) {
  return {
    name: pod.metadata.name,
    phase: pod.status?.phase ?? 'Pending',
    containers: (pod.spec?.containers ?? []).map((c) => c.name),
    startedAt: pod.status?.startTime ?? null,
  };
}

export function promptPackView(pack: PromptPack) {
  return {
    name: pack.metadata.name,
    description: pack.spec.description ?? null,
    systemPrompt: pack.spec.systemPrompt,
    prompts: pack.spec.prompts ?? [],
    createdAt: pack.metadata.creationTimestamp ?? null,
  };
}

export function toolRegistryView(registry: ToolRegistry) {
  return {
    name: registry.metadata.name,
    spec: registry.spec,
    phase: registry.status?.phase ?? 'Pending',
    discoveredToolsCount: registry.status?.discoveredToolsCount ?? 0,
    availableToolsCount: registry.status?.availableToolsCount ?? 0,
    discoveredTools: registry.status?.discoveredTools ?? [],
    conditions: registry.status?.conditions ?? [],
  };
}

export function eventView(event: KubeEvent) {
  return {
    type: event.type ?? 'Normal',
    reason: event.reason ?? '',
    message: event.message ?? '',
    object: { kind: event.involvedObject.kind ?? '', name: event.involvedObject.name ?? '' },
    count: event.count ?? 1,
    firstSeen: event.firstTimestamp ?? event.metadata?.creationTimestamp ?? null,
    lastSeen:
      event.lastTimestamp ?? event.firstTimestamp ?? event.metadata?.creationTimestamp ?? null,
    source: event.source?.component ?? null,
  };
}
