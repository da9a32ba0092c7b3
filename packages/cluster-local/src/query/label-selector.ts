import { isRecord } from '../objects/object-meta.js';

/** One requirement of a label selector, as Kubernetes' labels.Requirement. */
export interface LabelRequirement {
  key: string;
  operator: '=' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';
  values: string[];
}

export type LabelSelector = LabelRequirement[];

/** A selector that cannot be parsed, reported as 400 BadRequest. */
export class SelectorError extends Error {}

const KEY = /^(?:[a-z0-9A-Z.-]+\/)?[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?$/;
const VALUE = /^(?:[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?)?$/;

/**
 * Parses the `labelSelector` query parameter: `a=b,c!=d,e in (x,y),f notin (z),g,!h` (and `==`,
 * `>`, `<`). The empty string selects everything.
 */
export function parseLabelSelector(text: string): LabelSelector {
  const requirements: LabelSelector = [];
  for (const part of splitTopLevel(text)) {
    const item = part.trim();
    if (item === '') {
      if (text.trim() === '') continue;
      throw new SelectorError(`unable to parse requirement: found '', expected: identifier`);
    }
    requirements.push(parseRequirement(item));
  }
  return requirements;
}

function parseRequirement(item: string): LabelRequirement {
  let match: RegExpExecArray | null;
  if ((match = /^!\s*(\S+)$/.exec(item))) return requirement(match[1]!, '!', []);
  if ((match = /^(\S+?)\s+(in|notin)\s*\((.*)\)$/.exec(item))) {
    const values = match[3]!.split(',').map((v) => v.trim());
    if (match[3]!.trim() === '')
      throw new SelectorError(`for '${match[2]}' operator, values set can't be empty`);
    return requirement(match[1]!, match[2] as 'in' | 'notin', values);
  }
  if ((match = /^([^=!<>\s]+)\s*(==|=|!=|<|>)\s*(.*)$/.exec(item))) {
    const op =
      match[2] === '==' ? '=' : match[2] === '<' ? 'lt' : match[2] === '>' ? 'gt' : match[2];
    return requirement(match[1]!, op as LabelRequirement['operator'], [match[3]!.trim()]);
  }
  if (/^\S+$/.test(item)) return requirement(item, 'exists', []);
  throw new SelectorError(`unable to parse requirement: found '${item}'`);
}

function requirement(
  key: string,
  operator: LabelRequirement['operator'],
  values: string[],
): LabelRequirement {
  if (!KEY.test(key) || key.length > 317) {
    throw new SelectorError(`unable to parse requirement: invalid label key "${key}"`);
  }
  for (const value of values) {
    if ((operator === 'gt' || operator === 'lt') && !/^-?\d+$/.test(value)) {
      throw new SelectorError(
        `unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer`,
      );
    }
    if (!VALUE.test(value) || value.length > 63) {
      throw new SelectorError(`unable to parse requirement: invalid label value: "${value}"`);
    }
  }
  return { key, operator, values };
}

/** Splits on commas outside parentheses. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const EXPRESSION_OPERATORS: Record<string, LabelRequirement['operator']> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!',
};

/**
 * The requirements of a metav1.LabelSelector object (matchLabels and matchExpressions, ANDed), as
 * an aggregated ClusterRole or a workload names them; undefined when it is malformed (a value that
 * is not a string, In or NotIn without values, Exists or DoesNotExist with some, an unknown
 * operator), which Kubernetes refuses to use.
 */
export function labelSelectorOf(selector: unknown): LabelSelector | undefined {
  if (!isRecord(selector)) return undefined;
  const matchLabels = selector['matchLabels'] ?? {};
  const expressions = selector['matchExpressions'] ?? [];
  if (!isRecord(matchLabels) || !Array.isArray(expressions)) return undefined;
  const requirements: LabelSelector = [];
  for (const [key, value] of Object.entries(matchLabels)) {
    if (typeof value !== 'string') return undefined;
    requirements.push({ key, operator: '=', values: [value] });
  }
  for (const expression of expressions) {
    if (!isRecord(expression) || typeof expression['key'] !== 'string') return undefined;
    const values: unknown = expression['values'] ?? [];
    if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) return undefined;
    const operator = EXPRESSION_OPERATORS[String(expression['operator'])];
    if (operator === undefined) return undefined;
    const needsValues = operator === 'in' || operator === 'notin';
    if (needsValues !== values.length > 0) return undefined;
    requirements.push({ key: expression['key'], operator, values });
  }
  return requirements;
}

/**
 * Whether labels match a metav1.LabelSelector object. An empty selector matches everything; a
 * malformed one matches nothing.
 */
export function matchesLabelSelector(
  selector: unknown,
  labels: Readonly<Record<string, unknown>> | undefined,
): boolean {
  const requirements = labelSelectorOf(selector);
  return requirements !== undefined && matchesLabels(requirements, labels);
}

/** Whether labels meet every requirement (the parsed `labelSelector` of a list or watch). */
export function matchesLabels(
  selector: LabelSelector,
  labels: Readonly<Record<string, unknown>> | undefined,
): boolean {
  return selector.every(({ key, operator, values }) => {
    const has = labels !== undefined && Object.hasOwn(labels, key);
    const value = has ? labels[key] : undefined;
    const listed = typeof value === 'string' && values.includes(value);
    switch (operator) {
      case '=':
      case 'in':
        return has && listed;
      case '!=':
      case 'notin':
        return !has || !listed;
      case 'exists':
        return has;
      case '!':
        return !has;
      case 'gt':
      case 'lt': {
        if (!has || typeof value !== 'string' || !/^-?\d+$/.test(value)) return false;
        const n = Number(value);
        const bound = Number(values[0]);
        return operator === 'gt' ? n > bound : n < bound;
      }
    }
  });
}
