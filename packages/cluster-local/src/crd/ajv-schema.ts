import { CHECKED_FORMATS } from './formats.js';
import { isJsonObject, type Schema } from './schema.js';

/**
 * A CRD's OpenAPI v3 schema rewritten as the JSON Schema ajv checks the same way Kubernetes does:
 * OpenAPI's boolean exclusiveMinimum/Maximum become numbers, int-or-string becomes a union type,
 * unchecked formats and what a CRD schema may not hold ($ref, definitions...) are left out.
 */

/** The x-kubernetes-* extensions: ajv is told they are keywords, with no JSON Schema meaning. */
export const KUBERNETES_KEYWORDS = [
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
] as const;

const COPIED = new Set<string>([
  'type',
  'enum',
  'pattern',
  'required',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'multipleOf',
  'uniqueItems',
  'nullable',
  ...KUBERNETES_KEYWORDS,
]);

type AjvSchema = Record<string, unknown>;

export function toAjvSchema(schema: Schema): AjvSchema {
  const out: AjvSchema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (COPIED.has(keyword)) out[keyword] = structuredClone(value);
  }
  if (typeof schema.format === 'string' && CHECKED_FORMATS.has(schema.format)) {
    out.format = schema.format;
  }
  exclusiveBound(out, schema, 'exclusiveMinimum', 'minimum');
  exclusiveBound(out, schema, 'exclusiveMaximum', 'maximum');

  if (isJsonObject(schema.properties)) {
    const properties: AjvSchema = {};
    for (const [name, property] of Object.entries(schema.properties)) {
      Object.defineProperty(properties, name, {
        value: toAjvSchema(property),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    out.properties = properties;
  }
  if (isJsonObject(schema.additionalProperties)) {
    out.additionalProperties = toAjvSchema(schema.additionalProperties);
  } else if (typeof schema.additionalProperties === 'boolean') {
    out.additionalProperties = schema.additionalProperties;
  }
  if (isJsonObject(schema.items)) out.items = toAjvSchema(schema.items);
  if (isJsonObject(schema.not)) out.not = toAjvSchema(schema.not);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = schema[junctor];
    if (Array.isArray(branches) && branches.length > 0) {
      out[junctor] = branches.map((branch) => toAjvSchema(branch));
    }
  }

  if (schema['x-kubernetes-int-or-string'] === true) intOrString(out);
  if (out.type === '' || out.type === undefined) {
    delete out.type;
    // Without a type any value, null too, is accepted already; ajv refuses nullable there.
    delete out.nullable;
  }
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) {
    out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}

/** OpenAPI 3.0 writes `exclusiveMinimum: true` next to `minimum`; JSON Schema wants the number. */
function exclusiveBound(
  out: AjvSchema,
  schema: Schema,
  keyword: 'exclusiveMinimum' | 'exclusiveMaximum',
  bound: 'minimum' | 'maximum',
): void {
  if (schema[keyword] === true && typeof schema[bound] === 'number') {
    out[keyword] = schema[bound];
    delete out[bound];
  }
}

function isIntOrStringBranches(branches: unknown): boolean {
  if (!Array.isArray(branches) || branches.length !== 2) return false;
  const types = branches.map((branch) => (isJsonObject(branch) ? branch.type : undefined)).sort();
  return (
    types[0] === 'integer' &&
    types[1] === 'string' &&
    branches.every((branch) => isJsonObject(branch) && Object.keys(branch).length === 1)
  );
}

/**
 * int-or-string as one union type, so a wrong value reads "must be of type integer,string" rather
 * than as a failed anyOf; the `anyOf: [{type: integer}, {type: string}]` Kubernetes asks for next
 * to it (also when wrapped in allOf) then says nothing more and is dropped.
 */
function intOrString(out: AjvSchema): void {
  if (out.type === undefined) out.type = ['integer', 'string'];
  if (isIntOrStringBranches(out.anyOf)) delete out.anyOf;
  if (Array.isArray(out.allOf)) {
    const rest = (out.allOf as AjvSchema[]).filter((branch) => {
      const keys = Object.keys(branch);
      return !(keys.length === 1 && keys[0] === 'anyOf' && isIntOrStringBranches(branch.anyOf));
    });
    if (rest.length > 0) out.allOf = rest;
    else delete out.allOf;
  }
}
