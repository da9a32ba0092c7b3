import { GROUP, KINDS, type WorkspaceRole } from '@paddock/kube';
import type { ClusterRoleObject, PolicyRule } from './kube-objects.js';
import { clusterRoleName } from './roles.js';

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'update', 'patch', 'delete', 'deletecollection'];

type Resources = Omit<PolicyRule, 'verbs'>;

/** What members work with: the platform's namespaced kinds and the usual workload objects. */
const WORKLOADS: Resources[] = [
  { apiGroups: [GROUP], resources: KINDS.filter((kind) => kind.namespaced).map((k) => k.plural) },
  {
    apiGroups: [''],
    resources: ['pods', 'services', 'configmaps', 'persistentvolumeclaims', 'serviceaccounts'],
  },
  {
    apiGroups: ['apps'],
    resources: [
      'deployments',
      'deployments/scale',
      'statefulsets',
      'statefulsets/scale',
      'replicasets',
      'daemonsets',
    ],
  },
  { apiGroups: ['batch'], resources: ['jobs', 'cronjobs'] },
  { apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'] },
  { apiGroups: ['policy'], resources: ['poddisruptionbudgets'] },
  { apiGroups: ['networking.k8s.io'], resources: ['ingresses'] },
];

const SECRETS: Resources = { apiGroups: [''], resources: ['secrets'] };

/**
 * Readable by every member, writable by none: the quota and the isolation policy are the
 * platform's, so no member may loosen them.
 */
const OBSERVED: Resources[] = [
  {
    apiGroups: [''],
    resources: ['pods/log', 'events', 'endpoints', 'resourcequotas', 'limitranges'],
  },
  { apiGroups: ['events.k8s.io'], resources: ['events'] },
  { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'] },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'] },
];

const POD_ACCESS: Resources = {
  apiGroups: [''],
  resources: ['pods/exec', 'pods/attach', 'pods/portforward'],
};

/** Member management: the owner binds roles in the namespace (only roles it holds itself). */
const MEMBERS: Resources = {
  apiGroups: ['rbac.authorization.k8s.io'],
  resources: ['roles', 'rolebindings'],
};

function allow(resources: Resources, verbs: string[]): PolicyRule {
  return { ...resources, verbs };
}

const RULES: Record<WorkspaceRole, PolicyRule[]> = {
  owner: [
    ...WORKLOADS.map((r) => allow(r, [...READ, ...WRITE])),
    allow(SECRETS, [...READ, ...WRITE]),
    allow(POD_ACCESS, ['get', 'create']),
    ...OBSERVED.map((r) => allow(r, READ)),
    allow(MEMBERS, [...READ, ...WRITE]),
  ],
  editor: [
    ...WORKLOADS.map((r) => allow(r, [...READ, ...WRITE])),
    allow(SECRETS, [...READ, ...WRITE]),
    allow(POD_ACCESS, ['get', 'create']),
    ...OBSERVED.map((r) => allow(r, READ)),
  ],
  viewer: [...WORKLOADS.map((r) => allow(r, READ)), ...OBSERVED.map((r) => allow(r, READ))],
};

/** The ClusterRole of one workspace role; RoleBindings grant it inside a workspace's namespace. */
export function workspaceClusterRole(role: WorkspaceRole): ClusterRoleObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: clusterRoleName(role), labels: { 'app.kubernetes.io/part-of': 'paddock' } },
    rules: RULES[role].map((rule) => ({ ...rule, resources: [...rule.resources] })),
  };
}

/** The three ClusterRoles, owner first, as shipped with the platform's manifests. */
export const WORKSPACE_CLUSTER_ROLES: readonly ClusterRoleObject[] = (
  ['owner', 'editor', 'viewer'] as const
).map(workspaceClusterRole);
