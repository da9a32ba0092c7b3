import { isRecord } from './object-meta.js';

/** The value at a dotted field path such as `spec.nodeName` (no list indexing). */
export function valueAt(object: unknown, path: string): unknown {
  let value = object;
  for (const part of path.split('.')) {
    if (!isRecord(value)) return undefined;
    value = value[part];
  }
  return value;
}

type Step =
  | { field: string }
  | { index: number }
  | { all: true }
  | { filter: string[]; op: '==' | '!='; value: string };

/**
 * The values a Kubernetes JSONPath expression of the simple kind printer columns use selects:
 * `.a.b`, `['a']`, `[0]`, `[*]` and `[?(@.type=="Ready")]`. Unsupported syntax selects nothing.
 */
export function jsonPathValues(object: unknown, expression: string): unknown[] {
  const steps = parseJsonPath(expression.replace(/^\{(.*)\}$/s, '$1').trim());
  if (!steps) return [];
  let values: unknown[] = [object];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const value of values) {
      if ('field' in step) {
        if (isRecord(value) && value[step.field] !== undefined) next.push(value[step.field]);
      } else if ('index' in step) {
        if (Array.isArray(value)) {
          const item: unknown = value.at(step.index);
          if (item !== undefined) next.push(item);
        }
      } else if ('all' in step) {
        if (Array.isArray(value)) next.push(...(value as unknown[]));
        else if (isRecord(value)) next.push(...Object.values(value));
      } else if (Array.isArray(value)) {
        for (const item of value as unknown[]) {
          let v: unknown = item;
          for (const f of step.filter) v = isRecord(v) ? v[f] : undefined;
          const text = v === undefined ? undefined : typeof v === 'string' ? v : JSON.stringify(v);
          if ((text === step.value) === (step.op === '==')) next.push(item);
        }
      }
    }
    values = next;
  }
  return values;
}

function parseJsonPath(text: string): Step[] | undefined {
  const steps: Step[] = [];
  let rest = text.startsWith('$') ? text.slice(1) : text;
  while (rest.length > 0) {
    let match: RegExpExecArray | null;
    if ((match = /^\.([A-Za-z0-9_$-]+)/.exec(rest))) {
      steps.push({ field: match[1]! });
    } else if ((match = /^\[\s*(-?\d+)\s*\]/.exec(rest))) {
      steps.push({ index: Number(match[1]) });
    } else if ((match = /^\[\s*\*\s*\]/.exec(rest)) || (match = /^\.\*/.exec(rest))) {
      steps.push({ all: true });
    } else if (
      (match = /^\[\s*'([^']*)'\s*\]/.exec(rest)) ||
      (match = /^\[\s*"([^"]*)"\s*\]/.exec(rest))
    ) {
      steps.push({ field: match[1]! });
    } else if (
      (match =
        /^\[\s*\?\(\s*@((?:\.[A-Za-z0-9_-]+)+)\s*(==|!=)\s*(?:"([^"]*)"|'([^']*)'|([^)\s]+))\s*\)\s*\]/.exec(
          rest,
        ))
    ) {
      steps.push({
        filter: match[1]!.slice(1).split('.'),
        op: match[2] as '==' | '!=',
        value: match[3] ?? match[4] ?? match[5]!,
      });
    } else {
      return undefined;
    }
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/** A value as text: strings as they are, other scalars printed, objects and lists as JSON. */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}
