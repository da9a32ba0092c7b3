// Imports end in .js: the unit tests type-check this module as Node code, outside the bundler.
import type { Checked } from './form-rules.js';

/** The spec typed as JSON, when it is a JSON object. */
export function registrySpecOf(text: string): Checked<Record<string, unknown>> {
  let spec: unknown;
  try {
    spec = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      problem: `The spec is not valid JSON: ${error instanceof Error ? error.message : ''}`,
    };
  }
  if (!isObject(spec)) {
    return { ok: false, problem: 'The spec must be a JSON object, such as {"handlers": […]}.' };
  }
  return { ok: true, value: spec };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A tool's input schema read for people and for the "try it" form: each property with its type,
 * whether it is required and its description; the kind of field it is filled in with.
 */

/** string, number, integer, boolean, a choice of values, a list of scalars one per line, or JSON. */
export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'list' | 'json';
type Scalar = 'string' | 'number' | 'integer' | 'boolean';

export interface SchemaField {
  name: string;
  /** The type as the schema says it, for people: `string`, `array of integer`, `object`. */
  type: string;
  required: boolean;
  description: string | null;
  kind: FieldKind;
  /** The values of an enum, as JSON values. */
  options: unknown[];
  /** The items' type of a list. */
  itemKind: Scalar | null;
}

/** Properties read from one schema at most: a form longer than this is better typed as JSON. */
export const MAX_FORM_FIELDS = 50;

const SCALARS = new Set<string>(['string', 'number', 'integer', 'boolean']);

/** The schema's properties, in its order; none when it has none (the form is then one JSON field). */
export function schemaFields(schema: Record<string, unknown> | null): SchemaField[] {
  if (schema === null || !isObject(schema.properties)) return [];
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r) => typeof r === 'string') : [],
  );
  return Object.entries(schema.properties)
    .slice(0, MAX_FORM_FIELDS)
    .map(([name, raw]) => fieldOf(name, isObject(raw) ? raw : {}, required.has(name)));
}

function fieldOf(name: string, property: Record<string, unknown>, required: boolean): SchemaField {
  const description = typeof property.description === 'string' ? property.description : null;
  const type = typeOf(property);
  const base = { name, required, description, options: [] as unknown[], itemKind: null };
  if (Array.isArray(property.enum) && property.enum.length > 0) {
    return { ...base, type: type ?? 'enum', kind: 'enum', options: property.enum };
  }
  if (type !== null && SCALARS.has(type)) return { ...base, type, kind: type as Scalar };
  if (type === 'array' && isObject(property.items)) {
    const itemType = typeOf(property.items);
    if (itemType !== null && SCALARS.has(itemType)) {
      return { ...base, type: `array of ${itemType}`, kind: 'list', itemKind: itemType as Scalar };
    }
  }
  return { ...base, type: type ?? 'any', kind: 'json' };
}

/** The one type a property names (`["string", "null"]` reads as string); null if none. */
function typeOf(property: Record<string, unknown>): string | null {
  const { type } = property;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) {
    const named = type.filter((t): t is string => typeof t === 'string' && t !== 'null');
    if (named.length === 1) return named[0]!;
  }
  return null;
}

/** What is typed in a field: text, or checked for a boolean. */
export type FieldValue = string | boolean;

/** The value a field starts with: the schema's default when it has one, else empty. */
export function initialValue(field: SchemaField, property: unknown): FieldValue {
  const fallback = isObject(property) ? property.default : undefined;
  if (field.kind === 'boolean') return fallback === true;
  if (fallback === undefined) return '';
  if (field.kind === 'enum') return JSON.stringify(fallback);
  if (field.kind === 'list' && Array.isArray(fallback)) return fallback.map(String).join('\n');
  if (typeof fallback === 'string') return fallback;
  // Numbers and booleans read the same as JSON; objects are shown as JSON.
  return JSON.stringify(fallback, null, 2);
}

export type ArgumentsChecked =
  { ok: true; value: Record<string, unknown> } | { ok: false; problems: Record<string, string> };

/**
 * The arguments the form's values make, or each field's problem. An empty optional field is left
 * out; an unchecked optional boolean too, unless it was typed as required.
 */
export function argumentsOf(
  fields: readonly SchemaField[],
  values: Readonly<Record<string, FieldValue>>,
): ArgumentsChecked {
  const value: Record<string, unknown> = {};
  const problems: Record<string, string> = {};
  for (const field of fields) {
    const typed = values[field.name] ?? (field.kind === 'boolean' ? false : '');
    if (field.kind === 'boolean') {
      if (typed === true || field.required) value[field.name] = typed === true;
      continue;
    }
    const text = String(typed);
    if (text.trim() === '') {
      if (field.required) problems[field.name] = `${field.name} is required.`;
      continue;
    }
    const read = readValue(field, text);
    if ('problem' in read) problems[field.name] = `${field.name}: ${read.problem}`;
    else value[field.name] = read.value;
  }
  return Object.keys(problems).length > 0 ? { ok: false, problems } : { ok: true, value };
}

function readValue(field: SchemaField, text: string): { value: unknown } | { problem: string } {
  switch (field.kind) {
    case 'string':
      return { value: text };
    case 'number':
    case 'integer':
      return scalarOf(field.kind, text.trim());
    case 'enum':
      try {
        return { value: JSON.parse(text) as unknown };
      } catch {
        return { problem: 'choose one of the values.' };
      }
    case 'list': {
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      const items: unknown[] = [];
      for (const [index, line] of lines.entries()) {
        const item = scalarOf(
          field.itemKind ?? 'string',
          field.itemKind === 'string' ? line : line.trim(),
        );
        if ('problem' in item) return { problem: `line ${index + 1}: ${item.problem}` };
        items.push(item.value);
      }
      return { value: items };
    }
    default:
      try {
        return { value: JSON.parse(text) as unknown };
      } catch (error) {
        return { problem: `not valid JSON (${error instanceof Error ? error.message : ''}).` };
      }
  }
}

function scalarOf(kind: Scalar, text: string): { value: unknown } | { problem: string } {
  if (kind === 'string') return { value: text };
  if (kind === 'boolean') {
    if (text === 'true' || text === 'false') return { value: text === 'true' };
    return { problem: 'write true or false.' };
  }
  const number = Number(text);
  if (text === '' || !Number.isFinite(number)) return { problem: 'not a number.' };
  if (kind === 'integer' && !Number.isInteger(number)) return { problem: 'not a whole number.' };
  return { value: number };
}

/** The arguments typed as one JSON object (a schema without properties). */
export function argumentsFromJson(text: string): Checked<Record<string, unknown>> {
  let value: unknown;
  try {
    value = JSON.parse(text.trim() === '' ? '{}' : text);
  } catch (error) {
    return {
      ok: false,
      problem: `The arguments are not valid JSON: ${error instanceof Error ? error.message : ''}`,
    };
  }
  if (!isObject(value)) return { ok: false, problem: 'The arguments must be a JSON object.' };
  return { ok: true, value };
}

/** A tool's answer for reading: pretty JSON when it is JSON, else the text as it came. */
export function resultText(text: string): { json: boolean; text: string } {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { json: true, text: JSON.stringify(JSON.parse(trimmed), null, 2) };
    } catch {
      // Not JSON after all: shown as text.
    }
  }
  return { json: false, text };
}

/** How long a call took, for people: `340 ms`, `2.5 s`. */
export function durationText(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
