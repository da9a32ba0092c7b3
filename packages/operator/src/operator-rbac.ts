import { GROUP } from '@paddock/kube';
import { PROOF_SECRET_NAME } from './agentruntime/desired-statefulset.js';
import { DEFAULT_PLATFORM_NAMESPACE, WORKSPACE_CLUSTER_ROLES } from './workspace/index.js';
import type { Metadata } from './workspace/index.js';

/** The operator's name: its ClusterRole, its ServiceAccount and its leader-election Lease. */
export const OPERATOR_NAME = 'paddock-operator';

/** The Role that lets the operator hold its Lease in the platform namespace. */
export const LEADER_ELECTION_ROLE = 'paddock-operator-leader-election';

/** One RBAC rule; `resourceNames` narrows it to the objects named. */
export interface RbacRule {
  apiGroups: string[];
  resources: string[];
  resourceNames?: string[];
  verbs: string[];
}

export interface RbacRoleObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole' | 'Role';
  metadata: Metadata;
  rules: RbacRule[];
}

const OWNED = ['get', 'list', 'watch', 'create', 'update', 'delete'];
const labels = { 'app.kubernetes.io/part-of': 'paddock', 'app.kubernetes.io/name': OPERATOR_NAME };

/**
 * What the controllers do, verb by verb, and nothing more. Reads go through informers (list and
 * watch) and single reads (get); writes are whole-object replaces (update), never patches, except
 * for Events, whose repeats are counted with a patch.
 */
const CLUSTER_RULES: RbacRule[] = [
  // Workspaces: watched, read before each pass, their finalizer and alert annotation written.
  { apiGroups: [GROUP], resources: ['workspaces'], verbs: ['get', 'list', 'watch', 'update'] },
  // AgentRuntimes: watched (their spend, their workloads) and read before each pass. update only
  // removes the pause earlier versions wrote into spec.replicas (paddock.dev/paused-replicas).
  {
    apiGroups: [GROUP],
    resources: ['agentruntimes'],
    verbs: ['get', 'list', 'watch', 'update'],
  },
  // ToolRegistries: watched and read before each discovery.
  { apiGroups: [GROUP], resources: ['toolregistries'], verbs: ['get', 'list', 'watch'] },
  // PromptPacks: watched, so that a changed pack rolls the pods of the agents following it. get
  // only so that the agents' Roles may grant it (Kubernetes lets a Role grant only what its
  // maker holds).
  { apiGroups: [GROUP], resources: ['promptpacks'], verbs: ['get', 'list', 'watch'] },
  // Status of the three: the Workspace's, the agents', the discovered tools.
  {
    apiGroups: [GROUP],
    resources: ['workspaces/status', 'agentruntimes/status', 'toolregistries/status'],
    verbs: ['update'],
  },
  // The agent loop's Role patches its own AgentRuntime's status (its spend): granted, so held.
  { apiGroups: [GROUP], resources: ['agentruntimes/status'], verbs: ['get', 'patch'] },
  // What a Workspace makes exist: created, kept as declared, removed at deletion.
  {
    apiGroups: [''],
    resources: ['namespaces', 'serviceaccounts', 'resourcequotas'],
    verbs: OWNED,
  },
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['rolebindings'], verbs: OWNED },
  // Each agent loop's Role (agentruntime/agent-access.ts).
  { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: OWNED },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: OWNED },
  // What an AgentRuntime makes exist: its StatefulSet and headless Service (the Services are also
  // watched for tool discovery).
  { apiGroups: ['apps'], resources: ['statefulsets'], verbs: OWNED },
  { apiGroups: [''], resources: ['services'], verbs: OWNED },
  // The agents' pods, watched for their status: never written.
  { apiGroups: [''], resources: ['pods'], verbs: ['list', 'watch'] },
  // The identity-proof Secrets: the key pair in the platform namespace and its public key in each
  // agent namespace. A create cannot be narrowed to a name; reads and updates are, and no Secret
  // is ever listed or watched.
  { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
  {
    apiGroups: [''],
    resources: ['secrets'],
    resourceNames: [PROOF_SECRET_NAME],
    verbs: ['get', 'update'],
  },
  // Events on Workspaces (in the default namespace), AgentRuntimes and ToolRegistries.
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
  // The workspace roles: bound in every workspace (instead of holding their rules), and read at
  // start to check that the install shipped them.
  {
    apiGroups: ['rbac.authorization.k8s.io'],
    resources: ['clusterroles'],
    resourceNames: WORKSPACE_CLUSTER_ROLES.map((role) => role.metadata.name),
    verbs: ['get', 'bind'],
  },
];

/** The operator's ClusterRole: exactly the verbs and resources its controllers use. */
export const OPERATOR_CLUSTER_ROLE: RbacRoleObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: OPERATOR_NAME, labels },
  rules: CLUSTER_RULES,
};

/**
 * Leader election in the platform namespace: the Lease is created once (a create cannot be
 * narrowed to a name), then read and renewed by name.
 */
export const OPERATOR_LEADER_ELECTION_ROLE: RbacRoleObject = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: LEADER_ELECTION_ROLE, namespace: DEFAULT_PLATFORM_NAMESPACE, labels },
  rules: [
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
    {
      apiGroups: ['coordination.k8s.io'],
      resources: ['leases'],
      resourceNames: [OPERATOR_NAME],
      verbs: ['get', 'update'],
    },
  ],
};
