import { SelectorError } from './label-selector.js';

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

/** Requirements that must all hold; the empty selector selects everything. */
export type FieldSelector = FieldRequirement[];

/** Checked in this order at each position, so `==` is not read as `=` followed by a value `=…`. */
const OPERATORS = ['!=', '==', '='] as const;

/** The characters a value must escape with `\`, and the only ones `\` may escape. */
const ESCAPED = new Set(['\\', ',', '=']);

/**
 * Parses the `fieldSelector` query parameter as Kubernetes' fields.ParseSelector does: terms split
 * on commas that are not escaped; each term `field=value`, `field==value` or `field!=value`, split at
 * its first operator (a field has no escapes); a value may contain `,`, `=` and `\` only escaped as
 * `\,`, `\=` and `\\`. Empty terms are skipped; nothing is trimmed. This is the only parser: the
 * authorizer reads the name a list is narrowed to from its result and the store filters with it.
 */
export function parseFieldSelector(text: string): FieldSelector {
  const requirements: FieldSelector = [];
  for (const term of splitTerms(text)) {
    if (term === '') continue;
    const parts = splitTerm(term);
    if (!parts) throw new SelectorError(`invalid selector: '${text}'; can't understand '${term}'`);
    requirements.push({
      field: parts.field,
      operator: parts.operator === '!=' ? '!=' : '=',
      value: unescapeValue(parts.value),
    });
  }
  return requirements;
}

/** Splits on unescaped commas, keeping escapes (and their backslashes) inside the terms. */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let start = 0;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    if (escaped) escaped = false;
    else if (text[i] === '\\') escaped = true;
    else if (text[i] === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

function splitTerm(
  term: string,
): { field: string; operator: (typeof OPERATORS)[number]; value: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    const operator = OPERATORS.find((op) => term.startsWith(op, i));
    if (operator) {
      return { field: term.slice(0, i), operator, value: term.slice(i + operator.length) };
    }
  }
  return undefined;
}

function unescapeValue(raw: string): string {
  let value = '';
  let escaped = false;
  for (const c of raw) {
    if (escaped) {
      if (!ESCAPED.has(c)) {
        throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      }
      value += c;
      escaped = false;
    } else if (c === '\\') {
      escaped = true;
    } else if (c === ',' || c === '=') {
      throw new SelectorError(`invalid field selector: unescaped character in value: '${c}'`);
    } else {
      value += c;
    }
  }
  if (escaped) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return value;
}

/** The value written so that parseFieldSelector reads it back unchanged. */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (c) => `\\${c}`);
}

/**
 * The value `field` must equal for anything to match: the first `=` or `==` term on it. Every
 * object the selector matches has exactly this value, since all terms must hold.
 */
export function requiredFieldValue(selector: FieldSelector, field: string): string | undefined {
  return selector.find((r) => r.field === field && r.operator === '=')?.value;
}

/** Whether an object's field values (from `fieldsOf`) satisfy the selector. */
export function matchesFields(
  selector: FieldSelector,
  valueOf: (field: string) => string | undefined,
): boolean {
  return selector.every(({ field, operator, value }) => {
    const actual = valueOf(field) ?? '';
    return operator === '=' ? actual === value : actual !== value;
  });
}
