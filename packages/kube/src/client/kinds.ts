/** Where the API serves a kind: what every request path is built from. */
export interface ApiResource {
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
}

export function apiVersionOf(kind: ApiResource): string {
  return kind.group === '' ? kind.version : `${kind.group}/${kind.version}`;
}

/** The path of a collection or, with a name, of one object (and a subresource of it). */
export function resourcePath(
  kind: ApiResource,
  options: { namespace?: string | undefined; name?: string; subresource?: string } = {},
): string {
  const prefix = kind.group === '' ? `/api/${kind.version}` : `/apis/${kind.group}/${kind.version}`;
  const scope =
    kind.namespaced && options.namespace !== undefined
      ? `/namespaces/${encodeURIComponent(options.namespace)}`
      : '';
  let path = `${prefix}${scope}/${kind.plural}`;
  if (options.name !== undefined) path += `/${encodeURIComponent(options.name)}`;
  if (options.subresource !== undefined) path += `/${options.subresource}`;
  return path;
}

const core = (kind: string, plural: string, namespaced = true): ApiResource => ({
  group: '',
  version: 'v1',
  kind,
  plural,
  namespaced,
});
const rbac = (kind: string, plural: string, namespaced: boolean): ApiResource => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind,
  plural,
  namespaced,
});

/** The built-in kinds Paddock reads or writes. */
export const CORE_KINDS = {
  namespace: core('Namespace', 'namespaces', false),
  serviceAccount: core('ServiceAccount', 'serviceaccounts'),
  pod: core('Pod', 'pods'),
  event: core('Event', 'events'),
  service: core('Service', 'services'),
  configMap: core('ConfigMap', 'configmaps'),
  secret: core('Secret', 'secrets'),
  resourceQuota: core('ResourceQuota', 'resourcequotas'),
  limitRange: core('LimitRange', 'limitranges'),
  role: rbac('Role', 'roles', true),
  roleBinding: rbac('RoleBinding', 'rolebindings', true),
  clusterRole: rbac('ClusterRole', 'clusterroles', false),
  clusterRoleBinding: rbac('ClusterRoleBinding', 'clusterrolebindings', false),
  networkPolicy: {
    group: 'networking.k8s.io',
    version: 'v1',
    kind: 'NetworkPolicy',
    plural: 'networkpolicies',
    namespaced: true,
  },
  lease: {
    group: 'coordination.k8s.io',
    version: 'v1',
    kind: 'Lease',
    plural: 'leases',
    namespaced: true,
  },
  customResourceDefinition: {
    group: 'apiextensions.k8s.io',
    version: 'v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
} as const satisfies Record<string, ApiResource>;
