import type { RbacSource } from '../contracts.js';
import type { Store } from '../storage/store.js';

/** RBAC reads the current roles and bindings straight from the store. */
export function storeRbacSource(store: Store): RbacSource {
  return {
    roles: (namespace) => store.list('roles.rbac.authorization.k8s.io', namespace),
    roleBindings: (namespace) => store.list('rolebindings.rbac.authorization.k8s.io', namespace),
    clusterRoles: () => store.list('clusterroles.rbac.authorization.k8s.io'),
    clusterRoleBindings: () => store.list('clusterrolebindings.rbac.authorization.k8s.io'),
  };
}
