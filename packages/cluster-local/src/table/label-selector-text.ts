import { isRecord } from '../objects/object-meta.js';

/**
 * A metav1.LabelSelector as its string form (`app=web,tier in (a,b)`), as kubectl prints it and
 * a Scale's status.selector carries it; undefined when there is no selector.
 */
export function selectorText(selector: unknown): string | undefined {
  if (!isRecord(selector)) return undefined;
  const parts: string[] = [];
  if (isRecord(selector['matchLabels'])) {
    for (const [key, value] of Object.entries(selector['matchLabels'])) {
      parts.push(`${key}=${String(value)}`);
    }
  }
  if (Array.isArray(selector['matchExpressions'])) {
    for (const expression of selector['matchExpressions']) {
      if (!isRecord(expression)) continue;
      const key = String(expression['key']);
      const values = Array.isArray(expression['values']) ? expression['values'].map(String) : [];
      switch (expression['operator']) {
        case 'In':
          parts.push(`${key} in (${values.join(',')})`);
          break;
        case 'NotIn':
          parts.push(`${key} notin (${values.join(',')})`);
          break;
        case 'Exists':
          parts.push(key);
          break;
        case 'DoesNotExist':
          parts.push(`!${key}`);
          break;
      }
    }
  }
  return parts.join(',');
}
