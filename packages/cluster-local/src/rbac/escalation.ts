import type { Decision, RbacSource, UserInfo } from '../contracts.js';
import { authorize, isPrivileged, PRIVILEGED_GROUP } from './authorize.js';
import { compactRules, compactString, uncoveredRules } from './covers.js';
import { aggregateMessage, goQuote, goQuoteList } from './go-format.js';
import type { PolicyRule, RoleRef } from './policy-rule.js';
import {
  isRbacRoleRef,
  RBAC_GROUP,
  roleRefError,
  roleRulesResolver,
  rulesFor,
  type RoleRulesResolver,
} from './rule-resolver.js';

/**
 * Kubernetes' privilege-escalation prevention for RBAC objects: nobody may grant, through a role or
 * a binding, a permission they do not hold, unless explicitly allowed to (`escalate` on roles,
 * `bind` on the referenced role). A denial's reason is the text of the 403 after
 * `<resource> "<name>" is forbidden: ` (see forbiddenStatusMessage).
 */

/** Setting or changing an aggregationRule can gather anything, so it takes every permission. */
const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

const PRIVILEGED: Decision = {
  allowed: true,
  reason: `allowed as a member of ${goQuote(PRIVILEGED_GROUP)}`,
};

export interface RoleChange {
  /** The role's name on update; Kubernetes does not know it when checking `escalate` on create. */
  name?: string;
  /** Whether the new or (on update) the old ClusterRole has an aggregationRule. */
  aggregationRule?: boolean;
}

/**
 * May the user create or update a Role in `namespace` (a ClusterRole when undefined) with these
 * rules? Yes with `escalate` on roles/clusterroles, or when holding every permission the rules grant
 * in that scope.
 */
export function mayCreateRole(
  user: UserInfo,
  namespace: string | undefined,
  rules: readonly PolicyRule[],
  rbac: RbacSource,
  change: RoleChange = {},
): Decision {
  if (isPrivileged(user)) return PRIVILEGED;
  const escalate = authorize(
    user,
    {
      verb: 'escalate',
      apiGroup: RBAC_GROUP,
      resource: namespace ? 'roles' : 'clusterroles',
      namespace: namespace || undefined,
      name: change.name,
    },
    rbac,
  );
  if (escalate.allowed) return { allowed: true, reason: `may escalate: ${escalate.reason}` };
  const resolve = roleRulesResolver(rbac);
  const missing = missingPermissions(user, namespace ?? '', rules, rbac, resolve);
  if (missing) return { allowed: false, reason: missing };
  if (change.aggregationRule && missingPermissions(user, '', FULL_AUTHORITY, rbac, resolve)) {
    return {
      allowed: false,
      reason: 'must have cluster-admin privileges to use the aggregationRule',
    };
  }
  return { allowed: true, reason: 'holds every permission the rules grant' };
}

export interface BindDecision extends Decision {
  /** The referenced role does not exist: Kubernetes answers 404 NotFound with the reason. */
  roleNotFound?: boolean;
}

/**
 * May the user create or update a RoleBinding in `bindingNamespace` (a ClusterRoleBinding when
 * undefined) referring to roleRef? Yes with `bind` on that role (resourceNames may name it), or when
 * holding every permission of the role in the binding's scope.
 */
export function mayBind(
  user: UserInfo,
  bindingNamespace: string | undefined,
  roleRef: RoleRef,
  rbac: RbacSource,
  resolveRoleRules: RoleRulesResolver = roleRulesResolver(rbac),
): BindDecision {
  if (isPrivileged(user)) return PRIVILEGED;
  const namespace = bindingNamespace ?? '';
  // `bind` is a permission on roles of the RBAC group: one on another group's resources never
  // stands in for it, whatever group the roleRef claims.
  const resource = !isRbacRoleRef(roleRef)
    ? undefined
    : roleRef.kind === 'Role'
      ? 'roles'
      : roleRef.kind === 'ClusterRole'
        ? 'clusterroles'
        : undefined;
  if (resource !== undefined) {
    const bind = authorize(
      user,
      {
        verb: 'bind',
        apiGroup: RBAC_GROUP,
        resource,
        namespace: namespace || undefined,
        name: roleRef.name,
      },
      rbac,
    );
    if (bind.allowed) return { allowed: true, reason: `may bind: ${bind.reason}` };
  }
  const rules = resolveRoleRules(roleRef, namespace);
  if (!rules) {
    const reason = roleRefError(roleRef, 'registry');
    return { allowed: false, reason, roleNotFound: resource !== undefined };
  }
  const missing = missingPermissions(user, namespace, rules, rbac, resolveRoleRules);
  if (missing) return { allowed: false, reason: missing };
  return { allowed: true, reason: 'holds every permission of the role' };
}

/** Kubernetes' ConfirmNoEscalation: the error listing what the user lacks, undefined when nothing. */
function missingPermissions(
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
  rbac: RbacSource,
  resolve: RoleRulesResolver,
): string | undefined {
  const held = rulesFor(user, namespace, rbac, resolve, 'registry');
  const missing = uncoveredRules(held.rules, rules);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compactRules(missing).map(compactString))].sort();
  const message =
    `user ${goQuote(user.username)} (groups=${goQuoteList(user.groups)}) is attempting to grant ` +
    `RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (held.errors.length === 0) return message;
  return `${message}; resolution errors: [${aggregateMessage(held.errors)}]`;
}
