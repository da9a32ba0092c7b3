import { isRecord } from './policy-rule.js';

/**
 * Whether labels match a metav1.LabelSelector (matchLabels and matchExpressions, ANDed). An empty
 * selector matches everything; a malformed one matches nothing, as Kubernetes refuses to use it.
 */
export function matchesLabelSelector(selector: unknown, labels: Record<string, unknown>): boolean {
  if (!isRecord(selector)) return false;
  const matchLabels = selector['matchLabels'] ?? {};
  const expressions = selector['matchExpressions'] ?? [];
  if (!isRecord(matchLabels) || !Array.isArray(expressions)) return false;
  for (const [key, value] of Object.entries(matchLabels)) {
    if (typeof value !== 'string' || labels[key] !== value) return false;
  }
  return expressions.every((expression) => expressionMatches(expression, labels));
}

function expressionMatches(expression: unknown, labels: Record<string, unknown>): boolean {
  if (!isRecord(expression) || typeof expression['key'] !== 'string') return false;
  const key = expression['key'];
  const values = expression['values'] ?? [];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return false;
  const present = Object.hasOwn(labels, key);
  const value = labels[key];
  const listed = typeof value === 'string' && values.includes(value);
  switch (expression['operator']) {
    case 'In':
      return values.length > 0 && present && listed;
    case 'NotIn':
      return values.length > 0 && (!present || !listed);
    case 'Exists':
      return values.length === 0 && present;
    case 'DoesNotExist':
      return values.length === 0 && !present;
    default:
      return false;
  }
}
