import {
  CORE_KINDS,
  type AgentRuntime,
  KINDS,
  type Kube,
  type KubeObject,
  type ResourceClient,
  type Workspace,
} from '@paddock/kube';
import type {
  ClusterRoleObject,
  NamespaceObject,
  NetworkPolicyObject,
  ResourceQuotaObject,
  RoleBindingObject,
  ServiceAccountObject,
} from '../../workspace/index.js';

const workspaceKind = KINDS.find((kind) => kind.kind === 'Workspace');
if (workspaceKind === undefined) throw new Error('the Workspace kind is not defined');
const agentRuntimeKind = KINDS.find((kind) => kind.kind === 'AgentRuntime');
if (agentRuntimeKind === undefined) throw new Error('the AgentRuntime kind is not defined');

/** One typed client per kind the Workspace controller reads or writes. */
export interface WorkspaceClients {
  workspaces: ResourceClient<Workspace>;
  namespaces: ResourceClient<NamespaceObject & KubeObject>;
  serviceAccounts: ResourceClient<ServiceAccountObject & KubeObject>;
  roleBindings: ResourceClient<RoleBindingObject & KubeObject>;
  resourceQuotas: ResourceClient<ResourceQuotaObject & KubeObject>;
  networkPolicies: ResourceClient<NetworkPolicyObject & KubeObject>;
  clusterRoles: ResourceClient<ClusterRoleObject & KubeObject>;
  agentRuntimes: ResourceClient<AgentRuntime>;
}

export function workspaceClients(kube: Kube): WorkspaceClients {
  return {
    workspaces: kube.resource<Workspace>(workspaceKind as NonNullable<typeof workspaceKind>),
    namespaces: kube.resource(CORE_KINDS.namespace),
    serviceAccounts: kube.resource(CORE_KINDS.serviceAccount),
    roleBindings: kube.resource(CORE_KINDS.roleBinding),
    resourceQuotas: kube.resource(CORE_KINDS.resourceQuota),
    networkPolicies: kube.resource(CORE_KINDS.networkPolicy),
    clusterRoles: kube.resource(CORE_KINDS.clusterRole),
    agentRuntimes: kube.resource<AgentRuntime>(
      agentRuntimeKind as NonNullable<typeof agentRuntimeKind>,
    ),
  };
}
