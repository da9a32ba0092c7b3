import {
  CORE_KINDS,
  KINDS,
  type AgentRuntime,
  type ApiResource,
  type Kube,
  type KubeObject,
  type PromptPack,
  type ResourceClient,
  type Workspace,
} from '@paddock/kube';
import type { SecretObject } from '../../agentruntime/index.js';
import type { StoredObject } from './owned-objects.js';

function paddockKind(kind: string): ApiResource {
  const found = KINDS.find((k) => k.kind === kind);
  if (found === undefined) throw new Error(`the ${kind} kind is not defined`);
  return found;
}

export const STATEFULSET_KIND: ApiResource = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
};

/** One typed client per kind the AgentRuntime controller reads or writes. */
export interface AgentClients {
  agentRuntimes: ResourceClient<AgentRuntime>;
  workspaces: ResourceClient<Workspace>;
  promptPacks: ResourceClient<PromptPack>;
  statefulSets: ResourceClient<StoredObject>;
  services: ResourceClient<StoredObject>;
  networkPolicies: ResourceClient<StoredObject>;
  /** Only watched: the informer keeps what the agents' status is computed from (leanPod). */
  pods: ResourceClient<KubeObject>;
  secrets: ResourceClient<SecretObject & KubeObject>;
  /** The agent loop's identity (agent-access.ts). */
  serviceAccounts: ResourceClient<StoredObject>;
  roles: ResourceClient<StoredObject>;
  roleBindings: ResourceClient<StoredObject>;
}

export function agentClients(kube: Kube): AgentClients {
  return {
    agentRuntimes: kube.resource<AgentRuntime>(paddockKind('AgentRuntime')),
    workspaces: kube.resource<Workspace>(paddockKind('Workspace')),
    promptPacks: kube.resource<PromptPack>(paddockKind('PromptPack')),
    statefulSets: kube.resource<StoredObject>(STATEFULSET_KIND),
    services: kube.resource<StoredObject>(CORE_KINDS.service),
    networkPolicies: kube.resource<StoredObject>(CORE_KINDS.networkPolicy),
    pods: kube.resource<KubeObject>(CORE_KINDS.pod),
    secrets: kube.resource<SecretObject & KubeObject>(CORE_KINDS.secret),
    serviceAccounts: kube.resource<StoredObject>(CORE_KINDS.serviceAccount),
    roles: kube.resource<StoredObject>(CORE_KINDS.role),
    roleBindings: kube.resource<StoredObject>(CORE_KINDS.roleBinding),
  };
}
