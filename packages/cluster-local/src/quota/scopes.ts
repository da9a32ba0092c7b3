import type { KubeObject } from '../contracts.js';
import { isRecord } from '../objects/object-meta.js';
import { allContainersOf, containerResources } from './evaluators.js';
import type { ResourceList } from './resource-list.js';

/** One of a quota's scopes as a selector (spec.scopes become `Exists`). */
interface ScopeRequirement {
  scopeName: string;
  operator: string;
  values: string[];
}

/** A quota's scopes and scopeSelector, as one list of requirements. */
export function scopeRequirements(quota: KubeObject): ScopeRequirement[] {
  const spec = isRecord(quota['spec']) ? quota['spec'] : {};
  const scopes = Array.isArray(spec['scopes']) ? spec['scopes'] : [];
  const selector = isRecord(spec['scopeSelector']) ? spec['scopeSelector'] : {};
  const expressions = Array.isArray(selector['matchExpressions'])
    ? selector['matchExpressions']
    : [];
  return [
    ...scopes.map((scopeName) => ({
      scopeName: String(scopeName),
      operator: 'Exists',
      values: [],
    })),
    ...expressions.filter(isRecord).map((expression) => ({
      scopeName: String(expression['scopeName']),
      operator: String(expression['operator']),
      values: Array.isArray(expression['values']) ? expression['values'].map(String) : [],
    })),
  ];
}

/**
 * Whether a quota covers an object: an unscoped quota covers every object, a scoped one only pods
 * in all its scopes (Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass).
 */
export function quotaCovers(quota: KubeObject, storage: string, object: KubeObject): boolean {
  const requirements = scopeRequirements(quota);
  if (requirements.length === 0) return true;
  if (storage !== 'pods') return false;
  return requirements.every((requirement) => podInScope(object, requirement));
}

function podInScope(pod: KubeObject, { scopeName, operator, values }: ScopeRequirement): boolean {
  const spec = isRecord(pod['spec']) ? pod['spec'] : {};
  const deadline = spec['activeDeadlineSeconds'];
  const terminating = typeof deadline === 'number' && deadline >= 0;
  switch (scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return bestEffort(pod);
    case 'NotBestEffort':
      return !bestEffort(pod);
    case 'PriorityClass': {
      const priorityClass =
        typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
      switch (operator) {
        case 'Exists':
          return priorityClass !== '';
        case 'DoesNotExist':
          return priorityClass === '';
        case 'In':
          return priorityClass !== '' && values.includes(priorityClass);
        case 'NotIn':
          return priorityClass === '' || !values.includes(priorityClass);
        default:
          return false;
      }
    }
    default:
      return false;
  }
}

/** A pod none of whose containers asks for or is limited in cpu or memory (QoS BestEffort). */
function bestEffort(pod: KubeObject): boolean {
  const containers = allContainersOf(pod);
  const computes = (list: ResourceList) =>
    ['cpu', 'memory'].some((name) => (list.get(name)?.nanos ?? 0n) > 0n);
  return containers.every((container) => {
    const own = containerResources(container);
    return !computes(own.requests) && !computes(own.limits);
  });
}
