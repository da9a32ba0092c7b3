import type { KubeObject } from '../contracts.js';
import { ApiError } from './api-error.js';
import type { RequestContext } from './request-context.js';
import type { Resources } from './resources.js';

const RBAC = 'rbac.authorization.k8s.io';
const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };

const clusterRole = (name: string, rules: object[]): KubeObject => ({
  metadata: { name, labels: LABELS },
  rules,
});

const clusterRoleBinding = (name: string, role: string, groups: string[]): KubeObject => ({
  metadata: { name, labels: LABELS },
  roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
  subjects: groups.map((group) => ({ apiGroup: RBAC, kind: 'Group', name: group })),
});

const VIEW = [
  {
    apiGroups: [''],
    resources: [
      'configmaps',
      'endpoints',
      'events',
      'limitranges',
      'namespaces',
      'namespaces/status',
      'pods',
      'pods/log',
      'pods/status',
      'resourcequotas',
      'resourcequotas/status',
      'serviceaccounts',
      'services',
      'services/status',
    ],
    verbs: READ,
  },
  { apiGroups: ['events.k8s.io'], resources: ['events'], verbs: READ },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: READ },
];

const EDIT = [
  ...VIEW,
  {
    apiGroups: [''],
    resources: ['configmaps', 'events', 'pods', 'secrets', 'serviceaccounts', 'services'],
    verbs: WRITE,
  },
  { apiGroups: [''], resources: ['secrets'], verbs: READ },
  { apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: WRITE },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: [...READ, ...WRITE] },
];

const ADMIN = [
  ...EDIT,
  { apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: [...READ, ...WRITE] },
  {
    apiGroups: ['authorization.k8s.io'],
    resources: ['localsubjectaccessreviews'],
    verbs: ['create'],
  },
];

/**
 * What a new Kubernetes cluster has: the standard namespaces, and the default roles and bindings
 * (cluster-admin for system:masters, discovery and self-reviews for every authenticated user, and
 * simplified admin, edit and view roles to bind in namespaces).
 */
export const BOOTSTRAP: Array<{ group: string; plural: string; object: KubeObject }> = [
  ...['default', 'kube-system', 'kube-public', 'kube-node-lease'].map((name) => ({
    group: '',
    plural: 'namespaces',
    object: { metadata: { name } },
  })),
  ...[
    clusterRole('cluster-admin', [
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]),
    clusterRole('system:discovery', [
      {
        nonResourceURLs: [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
        verbs: ['get'],
      },
    ]),
    clusterRole('system:basic-user', [
      {
        apiGroups: ['authorization.k8s.io'],
        resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
        verbs: ['create'],
      },
      {
        apiGroups: ['authentication.k8s.io'],
        resources: ['selfsubjectreviews'],
        verbs: ['create'],
      },
    ]),
    clusterRole('system:public-info-viewer', [
      {
        nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'],
        verbs: ['get'],
      },
    ]),
    clusterRole('admin', ADMIN),
    clusterRole('edit', EDIT),
    clusterRole('view', VIEW),
  ].map((object) => ({ group: RBAC, plural: 'clusterroles', object })),
  ...[
    clusterRoleBinding('cluster-admin', 'cluster-admin', ['system:masters']),
    clusterRoleBinding('system:discovery', 'system:discovery', ['system:authenticated']),
    clusterRoleBinding('system:basic-user', 'system:basic-user', ['system:authenticated']),
    clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', [
      'system:authenticated',
      'system:unauthenticated',
    ]),
  ].map((object) => ({ group: RBAC, plural: 'clusterrolebindings', object })),
];

/** Creates what is missing of BOOTSTRAP; what exists, maybe changed by an administrator, stays. */
export function bootstrap(resources: Resources, context: RequestContext): void {
  for (const { group, plural, object } of BOOTSTRAP) {
    const type = resources.registry.get(group, 'v1', plural)!;
    try {
      resources.create(type, '', structuredClone(object), context);
    } catch (err) {
      if (!(err instanceof ApiError && err.code === 409)) throw err;
    }
  }
}
