import { SelectorError } from './label-selector.js';

export interface FieldRequirement {
  field: string;
  operator: '=' | '!=';
  value: string;
}

export type FieldSelector = FieldRequirement[];

/** Parses the `fieldSelector` query parameter: `a=b,c!=d,e==f`, with `\` escaping `,`, `=`, `!`. */
export function parseFieldSelector(text: string): FieldSelector {
  if (text.trim() === '') return [];
  const requirements: FieldSelector = [];
  for (const part of splitUnescaped(text, ',')) {
    const match = /^(.*?)(!=|==|=)(.*)$/s.exec(part);
    if (!match) throw new SelectorError(`invalid selector: '${text}'; can't understand '${part}'`);
    requirements.push({
      field: unescape(match[1]!.trim()),
      operator: match[2] === '!=' ? '!=' : '=',
      value: unescape(match[3]!.trim()),
    });
  }
  return requirements;
}

function splitUnescaped(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && i + 1 < text.length) {
      current += c + text[i + 1]!;
      i++;
    } else if (c === separator) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, '$1');
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
