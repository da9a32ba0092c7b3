import { GROUP, type AgentRuntime } from '@paddock/kube';
import type { RbacRule } from '../operator-rbac.js';
import { agentAccountName } from './agent-container.js';
import { agentOwnedMetadata } from './agent-labels.js';
import type { OwnedMetadata } from './workload-objects.js';

/**
 * The identity of the agent loop (docs/decisions/0031): a ServiceAccount, and a Role bound to it
 * that reads this agent and its PromptPack, patches this agent's status (its spend) and nothing
 * else, and lists the workspace's ToolRegistries and Services (the tools it may offer the model).
 * All three are named `<agent>-agent` and owned by the agent.
 */

export interface AgentServiceAccountObject {
  apiVersion: 'v1';
  kind: 'ServiceAccount';
  metadata: OwnedMetadata;
  /** Only the agent container mounts a token, and only by its own projected volume. */
  automountServiceAccountToken: false;
}

export interface AgentRoleObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'Role';
  metadata: OwnedMetadata;
  rules: RbacRule[];
}

export interface AgentRoleBindingObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'RoleBinding';
  metadata: OwnedMetadata;
  roleRef: { apiGroup: 'rbac.authorization.k8s.io'; kind: 'Role'; name: string };
  subjects: { kind: 'ServiceAccount'; name: string; namespace: string }[];
}

export interface AgentAccess {
  serviceAccount: AgentServiceAccountObject;
  role: AgentRoleObject;
  roleBinding: AgentRoleBindingObject;
}

/** The rules of the agent loop's Role. */
export function agentRules(agent: AgentRuntime): RbacRule[] {
  const self = [agent.metadata.name];
  return [
    // Its settings and the budget's verdict, watched by name (a field selector on metadata.name).
    {
      apiGroups: [GROUP],
      resources: ['agentruntimes'],
      resourceNames: self,
      verbs: ['get', 'list', 'watch'],
    },
    {
      apiGroups: [GROUP],
      resources: ['agentruntimes/status'],
      resourceNames: self,
      verbs: ['get', 'patch'],
    },
    {
      apiGroups: [GROUP],
      resources: ['promptpacks'],
      resourceNames: [agent.spec.promptPackRef.name],
      verbs: ['get'],
    },
    // The workspace's tools: the registries' status says which are Available; Services resolve
    // their serviceRefs and selectors.
    { apiGroups: [GROUP], resources: ['toolregistries'], verbs: ['get', 'list'] },
    { apiGroups: [''], resources: ['services'], verbs: ['get', 'list'] },
  ];
}

export function desiredAgentAccess(agent: AgentRuntime, workspace: string): AgentAccess {
  const name = agentAccountName(agent);
  const metadata = { ...agentOwnedMetadata(agent, workspace), name };
  return {
    serviceAccount: {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata,
      automountServiceAccountToken: false,
    },
    role: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata,
      rules: agentRules(agent),
    },
    roleBinding: {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace: metadata.namespace }],
    },
  };
}
