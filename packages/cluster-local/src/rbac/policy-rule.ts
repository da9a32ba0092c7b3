import type { KubeObject, RequestAttributes } from '../contracts.js';

/** One rule of a Role or ClusterRole (rbac.authorization.k8s.io/v1 PolicyRule). */
export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** What a binding grants (rbac.authorization.k8s.io/v1 RoleRef). */
export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** Who a binding grants it to (rbac.authorization.k8s.io/v1 Subject). */
export interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

const RULE_LISTS = ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const;

/** The rules of a Role or ClusterRole object; malformed entries are left out rather than trusted. */
export function policyRulesOf(role: KubeObject): PolicyRule[] {
  const rules = role['rules'];
  if (!Array.isArray(rules)) return [];
  return rules.filter(isRecord).map((raw) => {
    const rule: PolicyRule = { verbs: stringsOf(raw['verbs']) };
    for (const list of RULE_LISTS) {
      const values = stringsOf(raw[list]);
      if (values.length > 0) rule[list] = values;
    }
    return rule;
  });
}

/** The roleRef of a RoleBinding or ClusterRoleBinding object, if it has a usable one. */
export function roleRefOf(binding: KubeObject): RoleRef | undefined {
  const ref = binding['roleRef'];
  if (!isRecord(ref) || typeof ref['kind'] !== 'string' || typeof ref['name'] !== 'string') {
    return undefined;
  }
  const apiGroup = typeof ref['apiGroup'] === 'string' ? ref['apiGroup'] : '';
  return { apiGroup, kind: ref['kind'], name: ref['name'] };
}

export function subjectsOf(binding: KubeObject): Subject[] {
  const subjects = binding['subjects'];
  if (!Array.isArray(subjects)) return [];
  return subjects.filter(isRecord).flatMap((raw): Subject[] => {
    if (typeof raw['kind'] !== 'string' || typeof raw['name'] !== 'string') return [];
    const subject: Subject = { kind: raw['kind'], name: raw['name'] };
    if (typeof raw['namespace'] === 'string') subject.namespace = raw['namespace'];
    return [subject];
  });
}

/** Whether one rule allows a request: Kubernetes' RuleAllows. */
export function ruleAllows(attributes: RequestAttributes, rule: PolicyRule): boolean {
  if (!verbMatches(rule, attributes.verb)) return false;
  if (attributes.nonResourcePath !== undefined) {
    return nonResourceURLMatches(rule, attributes.nonResourcePath);
  }
  const subresource = attributes.subresource ?? '';
  const combined = subresource ? `${attributes.resource}/${subresource}` : attributes.resource;
  return (
    apiGroupMatches(rule, attributes.apiGroup) &&
    resourceMatches(rule, combined, subresource) &&
    resourceNameMatches(rule, attributes.name ?? '')
  );
}

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === '*' || v === verb);
}

function apiGroupMatches(rule: PolicyRule, group: string): boolean {
  return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  return (rule.resources ?? []).some(
    (r) => r === '*' || r === combined || (subresource !== '' && r === `*/${subresource}`),
  );
}

/** Rules with resourceNames never match a request without a name (list, watch, create). */
function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  return (rule.nonResourceURLs ?? []).some((url) => nonResourceURLCovers(url, path));
}

/** An exact path, or a prefix when the rule's URL ends in `*` (so `*` alone matches every path). */
export function nonResourceURLCovers(ruleURL: string, path: string): boolean {
  if (ruleURL === path) return true;
  return ruleURL.endsWith('*') && path.startsWith(ruleURL.replace(/\*+$/, ''));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
