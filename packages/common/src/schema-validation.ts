import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

/**
 * The services' request validator: each route's TypeBox schema, checked by TypeBox itself. Unlike
 * fastify's default (ajv with removeAdditional), a value the schema does not allow is refused
 * rather than dropped, so `additionalProperties: false` means what it says. Query, path and header
 * values arrive as text; fromText says which of them become numbers and booleans. A subpath of its
 * own, so that what does not serve HTTP never loads the compiler.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  return (value) => {
    const converted: unknown = httpPart === 'body' ? value : fromText(schema, value);
    if (check.Check(converted)) return { value: converted };
    return { error: ajvShaped(check.Errors(converted)) };
  };
};

/** A compiled check of one schema, kept for the schema's lifetime. */
const compiled = new WeakMap<TSchema, ReturnType<typeof Compile>>();

/**
 * Text parameters checked against their schema outside a route (a WebSocket's query, read again
 * once the socket is open): the converted value, or the errors in ajv's shape.
 */
export function checkText(
  schema: TSchema,
  parameters: Record<string, unknown>,
): { ok: true; value: unknown } | { ok: false; errors: FastifySchemaValidationError[] } {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = Compile(schema);
    compiled.set(schema, check);
  }
  const converted = fromText(schema, parameters);
  if (check.Check(converted)) return { ok: true, value: converted };
  return { ok: false, errors: ajvShaped(check.Errors(converted)) };
}

/**
 * TypeBox's errors in the shape fastify's ajv gives, so that the shared error formatting names the
 * field the same way everywhere: an unknown parameter is one `additionalProperties` error naming
 * it (`params.additionalProperty`), without TypeBox's extra "schema is false" entry.
 */
export function ajvShaped(errors: FastifySchemaValidationError[]): FastifySchemaValidationError[] {
  const shaped = errors.flatMap((error) => {
    if (error.keyword === 'boolean') return [];
    const extra = (error.params as { additionalProperties?: unknown }).additionalProperties;
    if (error.keyword !== 'additionalProperties' || !Array.isArray(extra)) return [error];
    return extra.map((name) => ({
      ...error,
      params: { additionalProperty: String(name) },
      message: 'must NOT have additional properties',
    }));
  });
  return shaped.length > 0 ? shaped : errors;
}

/** Longest run of digits read as an integer: beyond it a number loses precision. */
const MAX_INTEGER_DIGITS = 15;
const WHOLE_NUMBER = new RegExp(`^\\d{1,${MAX_INTEGER_DIGITS}}$`);
/** The texts a boolean parameter is given as. */
const BOOLEANS: Readonly<Record<string, boolean>> = {
  true: true,
  '1': true,
  false: false,
  '0': false,
};

interface PropertySchema {
  type?: unknown;
  anyOf?: PropertySchema[];
}

/** Whether a property (or one branch of its union) takes values of a JSON type. */
function takes(property: PropertySchema, type: string): boolean {
  return property.type === type || (property.anyOf ?? []).some((branch) => takes(branch, type));
}

/**
 * A text value becomes a number only when an integer is asked for and it is plain digits (`1.5`,
 * `+1`, `1e3` and the empty string stay text and fail the check, where a general conversion would
 * read `1.5` as 1), and a boolean only from `true`, `1`, `false` or `0`. A parameter given twice
 * stays a list.
 */
export function fromText(schema: TSchema, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const properties = (schema as { properties?: Record<string, PropertySchema> }).properties;
  if (properties === undefined) return value;
  const converted: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [name, property] of Object.entries(properties)) {
    const text = converted[name];
    if (typeof text !== 'string') continue;
    if (takes(property, 'integer') && WHOLE_NUMBER.test(text)) converted[name] = Number(text);
    else if (takes(property, 'boolean') && text in BOOLEANS) converted[name] = BOOLEANS[text];
  }
  return converted;
}
