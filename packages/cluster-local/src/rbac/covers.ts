import { goQuoteList } from './go-format.js';
import { nonResourceURLCovers, type PolicyRule } from './policy-rule.js';

/**
 * Whether one set of rules holds every permission of another (Kubernetes' validation.Covers): each
 * servant rule is broken into single verb/group/resource/name tuples, and each tuple must be covered
 * by one owner rule. Returns the tuples left uncovered.
 */
export function uncoveredRules(
  ownerRules: readonly PolicyRule[],
  servantRules: readonly PolicyRule[],
): PolicyRule[] {
  return servantRules
    .flatMap(breakdownRule)
    .filter((subrule) => !ownerRules.some((owner) => ruleCovers(owner, subrule)));
}

function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const subrules: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const base = { apiGroups: [group], resources: [resource], verbs: [verb] };
        const names = rule.resourceNames ?? [];
        if (names.length === 0) subrules.push(base);
        for (const name of names) subrules.push({ ...base, resourceNames: [name] });
      }
    }
  }
  // Non-resource URLs only combine with verbs.
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs) subrules.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return subrules;
}

function ruleCovers(owner: PolicyRule, subrule: PolicyRule): boolean {
  const ownerNames = owner.resourceNames ?? [];
  const subNames = subrule.resourceNames ?? [];
  return (
    hasAllOrStar(owner.verbs, subrule.verbs) &&
    hasAllOrStar(owner.apiGroups ?? [], subrule.apiGroups ?? []) &&
    resourcesCover(owner.resources ?? [], subrule.resources ?? []) &&
    (subrule.nonResourceURLs ?? []).every((path) =>
      (owner.nonResourceURLs ?? []).some((url) => nonResourceURLCovers(url, path)),
    ) &&
    (ownerNames.length === 0 || (subNames.length > 0 && hasAll(ownerNames, subNames)))
  );
}

function hasAllOrStar(set: readonly string[], wanted: readonly string[]): boolean {
  return set.includes('*') || hasAll(set, wanted);
}

function hasAll(set: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((value) => set.includes(value));
}

function resourcesCover(set: readonly string[], wanted: readonly string[]): boolean {
  if (hasAllOrStar(set, wanted)) return true;
  return wanted.every((path) => {
    if (set.includes(path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && set.includes(`*${path.slice(slash)}`);
  });
}

/**
 * Kubernetes' CompactRules: tuples of one group, one resource and at most one name that differ
 * only by verb become one rule, so a missing `get, list, watch` reads as one line.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const compacted: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const key = simpleResourceKey(rule);
    if (key === undefined) {
      compacted.push(rule);
      continue;
    }
    const existing = simple.get(key);
    if (existing) existing.verbs.push(...rule.verbs);
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...compacted, ...simple.values()];
}

function simpleResourceKey(rule: PolicyRule): string | undefined {
  const names = rule.resourceNames ?? [];
  if (names.length > 1 || (rule.nonResourceURLs ?? []).length > 0) return undefined;
  if (rule.apiGroups?.length !== 1 || rule.resources?.length !== 1) return undefined;
  return JSON.stringify([rule.apiGroups[0], rule.resources[0], names[0] ?? null]);
}

/** Kubernetes' CompactString of a rule, as listed in escalation errors. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  const add = (label: string, values: readonly string[] | undefined) => {
    if (values && values.length > 0) parts.push(`${label}:${goQuoteList(values)}`);
  };
  add('APIGroups', rule.apiGroups);
  add('Resources', rule.resources);
  add('NonResourceURLs', rule.nonResourceURLs);
  add('ResourceNames', rule.resourceNames);
  add('Verbs', rule.verbs);
  return `{${parts.join(', ')}}`;
}
