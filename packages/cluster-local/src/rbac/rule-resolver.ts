import type { KubeObject, RbacSource, UserInfo } from '../contracts.js';
import { goQuote } from './go-format.js';
import { matchesLabelSelector } from '../query/label-selector.js';
import {
  isRecord,
  policyRulesOf,
  roleRefOf,
  subjectsOf,
  type PolicyRule,
  type RoleRef,
  type Subject,
} from './policy-rule.js';

/**
 * Which rules apply to a user in a namespace: Kubernetes' DefaultRuleResolver. ClusterRoleBindings
 * count everywhere; RoleBindings only in their own namespace (so never for cluster-scoped or
 * non-resource requests).
 */

/** The rules a roleRef stands for, seen from a binding in `bindingNamespace` ('' for cluster bindings); undefined when the role does not exist. */
export type RoleRulesResolver = (
  roleRef: RoleRef,
  bindingNamespace: string,
) => PolicyRule[] | undefined;

/**
 * Called with each applicable rule and a lazy description of the binding it came from, or with the
 * error of a binding whose role is missing; returning false stops the walk.
 */
export type RuleVisitor = (
  visit: { rule: PolicyRule; source: () => string } | { error: string },
) => boolean;

export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** Kubernetes resolves roles from informers in the authorizer and from storage in its escalation checks, whose not-found errors name the resource differently. */
export type NotFoundStyle = 'authorizer' | 'registry';

export function visitRulesFor(
  user: UserInfo,
  namespace: string,
  rbac: RbacSource,
  visitor: RuleVisitor,
  resolve: RoleRulesResolver = roleRulesResolver(rbac),
  notFoundStyle: NotFoundStyle = 'authorizer',
): void {
  const walk = (kind: string, binding: KubeObject, bindingNamespace: string): boolean => {
    const subject = subjectsOf(binding).find((s) => appliesTo(user, s, bindingNamespace));
    if (!subject) return true;
    const roleRef = roleRefOf(binding);
    const rules = roleRef && resolve(roleRef, bindingNamespace);
    if (!roleRef || !rules) return visitor({ error: roleRefError(roleRef, notFoundStyle) });
    const source = () => describeBinding(kind, binding, roleRef, subject, bindingNamespace);
    return rules.every((rule) => visitor({ rule, source }));
  };
  for (const binding of rbac.clusterRoleBindings()) {
    if (!walk('ClusterRoleBinding', binding, '')) return;
  }
  if (namespace === '') return;
  for (const binding of rbac.roleBindings(namespace)) {
    if (!walk('RoleBinding', binding, namespace)) return;
  }
}

/** Every rule that applies, and the errors of bindings whose roles are missing. */
export function rulesFor(
  user: UserInfo,
  namespace: string,
  rbac: RbacSource,
  resolve: RoleRulesResolver = roleRulesResolver(rbac),
  notFoundStyle: NotFoundStyle = 'authorizer',
): { rules: PolicyRule[]; errors: string[] } {
  const rules: PolicyRule[] = [];
  const errors: string[] = [];
  const collect: RuleVisitor = (visit) => {
    if ('rule' in visit) rules.push(visit.rule);
    else errors.push(visit.error);
    return true;
  };
  visitRulesFor(user, namespace, rbac, collect, resolve, notFoundStyle);
  return { rules, errors };
}

function appliesTo(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
  switch (subject.kind) {
    case 'User':
      return user.username === subject.name;
    case 'Group':
      return user.groups.includes(subject.name);
    case 'ServiceAccount': {
      // A RoleBinding may leave out the namespace of a ServiceAccount of its own namespace.
      const namespace = subject.namespace || bindingNamespace;
      return namespace !== '' && user.username === serviceAccountUsername(namespace, subject.name);
    }
    default:
      return false;
  }
}

export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

function describeBinding(
  kind: string,
  binding: KubeObject,
  roleRef: RoleRef,
  subject: Subject,
  bindingNamespace: string,
): string {
  const name = nameOf(binding);
  const bindingName = kind === 'RoleBinding' ? `${name}/${bindingNamespace}` : name;
  const subjectName =
    subject.kind === 'ServiceAccount'
      ? `${subject.name}/${subject.namespace || bindingNamespace}`
      : subject.name;
  return `${kind} ${goQuote(bindingName)} of ${roleRef.kind} ${goQuote(roleRef.name)} to ${subject.kind} ${goQuote(subjectName)}`;
}

/**
 * Whether a roleRef names a role of the RBAC group: the only group Kubernetes accepts there (an
 * empty group is what bindings read before defaulting, and defaults to it).
 */
export function isRbacRoleRef(roleRef: RoleRef): boolean {
  return roleRef.apiGroup === RBAC_GROUP || roleRef.apiGroup === '';
}

/** The error Kubernetes reports for a roleRef it cannot resolve. */
export function roleRefError(roleRef: RoleRef | undefined, style: NotFoundStyle): string {
  if (roleRef && !isRbacRoleRef(roleRef)) {
    return `unsupported role reference API group: ${goQuote(roleRef.apiGroup)}`;
  }
  if (!roleRef || (roleRef.kind !== 'Role' && roleRef.kind !== 'ClusterRole')) {
    return `unsupported role reference kind: ${goQuote(roleRef?.kind ?? '')}`;
  }
  const resource = roleRef.kind.toLowerCase() + (style === 'registry' ? 's' : '');
  return `${resource}.${RBAC_GROUP} ${goQuote(roleRef.name)} not found`;
}

/**
 * Resolves roleRefs against the current objects. An aggregated ClusterRole stands for the union of
 * the rules of the ClusterRoles its selectors match, as Kubernetes' aggregation controller keeps
 * it; resolving here means a change to a matched role applies at once.
 */
export function roleRulesResolver(rbac: RbacSource): RoleRulesResolver {
  let byName: Map<string, KubeObject> | undefined;
  const clusterRoles = () => {
    byName ??= new Map(
      [...rbac.clusterRoles()]
        .sort((a, b) => compareStrings(nameOf(a), nameOf(b)))
        .map((role) => [nameOf(role), role]),
    );
    return byName;
  };
  const aggregated = new Map<string, PolicyRule[]>();
  const rulesOfClusterRole = (role: KubeObject, resolving: Set<string>): PolicyRule[] => {
    const selectors = aggregationSelectors(role);
    if (!selectors) return policyRulesOf(role);
    const name = nameOf(role);
    const known = aggregated.get(name);
    if (known) return known;
    // A cycle adds nothing the outer walk does not already reach.
    if (resolving.has(name)) return [];
    resolving.add(name);
    const rules: PolicyRule[] = [];
    for (const selector of selectors) {
      for (const candidate of clusterRoles().values()) {
        if (nameOf(candidate) === name) continue;
        if (!matchesLabelSelector(selector, labelsOf(candidate))) continue;
        for (const rule of rulesOfClusterRole(candidate, resolving)) {
          if (!rules.some((known) => sameRule(known, rule))) rules.push(rule);
        }
      }
    }
    resolving.delete(name);
    if (resolving.size === 0) aggregated.set(name, rules);
    return rules;
  };
  return (roleRef, bindingNamespace) => {
    // Validation admits no other group; a binding stored without that check grants nothing.
    if (!isRbacRoleRef(roleRef)) return undefined;
    if (roleRef.kind === 'ClusterRole') {
      const role = clusterRoles().get(roleRef.name);
      return role && rulesOfClusterRole(role, new Set());
    }
    if (roleRef.kind !== 'Role' || bindingNamespace === '') return undefined;
    const role = rbac.roles(bindingNamespace).find((r) => nameOf(r) === roleRef.name);
    return role && policyRulesOf(role);
  };
}

/** The clusterRoleSelectors of an aggregated ClusterRole, undefined for a plain one. */
export function aggregationSelectors(role: KubeObject): unknown[] | undefined {
  const rule = role['aggregationRule'];
  if (!isRecord(rule)) return undefined;
  const selectors = rule['clusterRoleSelectors'];
  return Array.isArray(selectors) ? (selectors as unknown[]) : [];
}

function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(rule: PolicyRule): unknown[] {
  return [rule.verbs, rule.apiGroups, rule.resources, rule.resourceNames, rule.nonResourceURLs];
}

function nameOf(object: KubeObject): string {
  const name = object.metadata?.['name'];
  return typeof name === 'string' ? name : '';
}

function labelsOf(object: KubeObject): Record<string, unknown> {
  const labels = object.metadata?.['labels'];
  return isRecord(labels) ? labels : {};
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
