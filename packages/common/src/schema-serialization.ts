import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify, { type Schema } from 'fast-json-stringify';

/**
 * Arrays of this many items or more are written by JSON.stringify as they are: fast-json-stringify
 * builds its output piece by piece, and the string it makes of a long list costs more to send than
 * the native one (a list of 500 workspaces answered 15% fewer requests a second). The views the
 * routes answer with hold only their schema's fields, so nothing is lost.
 */
export const LARGE_ARRAY_ITEMS = 100;

/**
 * The services' response serializer: fast-json-stringify, as fastify's default, of each route's
 * schema as forSerialization rewrites it, long arrays excepted (LARGE_ARRAY_ITEMS).
 */
export const serializerCompiler: FastifySerializerCompiler<unknown> = ({ schema }) =>
  fastJsonStringify(forSerialization(schema) as Schema, {
    largeArrayMechanism: 'json-stringify',
    largeArraySize: LARGE_ARRAY_ITEMS,
  });

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether a key only describes a schema (changes nothing of the JSON written). */
const isAnnotation = (key: string) =>
  key.startsWith('x-') || key === 'description' || key === 'title' || key === '$comment';

/** The keys of a node that are not annotations. */
const keywords = (node: Node) => Object.keys(node).filter((key) => !isAnnotation(key));

/** Whether a node allows only null (`{"type": "null"}`). */
const isNull = (node: Node) => node.type === 'null' && keywords(node).length === 1;

/**
 * The values a node allows when it is only a list of them, else undefined: a `const` or an `enum`
 * (with or without the type of its values, as TypeBox writes literals), or null.
 */
function valuesOf(node: Node): unknown[] | undefined {
  if (isNull(node)) return [null];
  const rest = keywords(node).filter((key) => key !== 'type');
  if (rest.length === 0) return undefined;
  if (rest.length > 1 || (node.type !== undefined && typeof node.type !== 'string'))
    return undefined;
  if (rest[0] === 'const') return [node.const];
  if (rest[0] === 'enum' && Array.isArray(node.enum)) return node.enum as unknown[];
  return undefined;
}

/** Keywords that only constrain values: a union beside them is still written as its alternatives. */
const CONSTRAINTS = new Set([
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);

/** The type of a node that says nothing but its type (`{"type": "integer"}`), else undefined. */
function plainType(node: Node): string | undefined {
  const [keyword, ...more] = keywords(node);
  return keyword === 'type' && more.length === 0 && typeof node.type === 'string'
    ? node.type
    : undefined;
}

/**
 * A union as one schema when it can be: values only (`const`, `enum`, null) become one `enum`;
 * bare types (integer or string) become a type list; one schema of a type, or null, becomes that
 * schema with the type list `[type, "null"]`. Anything else (two object shapes, say) stays.
 */
function flatUnion(alternatives: unknown[]): Node | undefined {
  if (!alternatives.every(isNode)) return undefined;
  const values = alternatives.map(valuesOf);
  if (values.every((v) => v !== undefined)) return { enum: values.flat() };
  const types = alternatives.map(plainType);
  if (types.every((t) => t !== undefined)) return { type: [...new Set(types)] };
  const [schema, ...others] = alternatives.filter((node) => !isNull(node));
  if (alternatives.length !== 2 || schema === undefined || others.length > 0) return undefined;
  if (typeof schema.type !== 'string' || schema.anyOf !== undefined || schema.oneOf !== undefined)
    return undefined;
  return { ...schema, type: [schema.type, 'null'] };
}

/** Keywords whose value is a schema, a list of schemas, or a map of names to schemas. */
const ONE_SCHEMA = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
]);
const SCHEMA_LIST = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions']);

/**
 * The schema as the serializer reads it; the JSON written for a value is the value's own fields as
 * the schema keeps them, as with the schema itself, but faster:
 * - each union that can be is written flat (see flatUnion): fast-json-stringify checks a value
 *   against every alternative of an anyOf at run time, which made a list of 500 workspaces a third
 *   slower to write than JSON.stringify; an `enum` or a type list says the same and is written
 *   directly;
 * - `default` is dropped: an answer says what is stored, not what a missing field would mean (and
 *   long arrays, written natively, could not fill it in).
 */
export function forSerialization(schema: unknown): unknown {
  if (!isNode(schema)) return schema;
  const node: Node = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'default') continue;
    if (ONE_SCHEMA.has(key)) node[key] = forSerialization(value);
    else if (SCHEMA_LIST.has(key) && Array.isArray(value)) node[key] = value.map(forSerialization);
    else if (SCHEMA_MAP.has(key) && isNode(value))
      node[key] = Object.fromEntries(
        Object.entries(value).map(([name, property]) => [name, forSerialization(property)]),
      );
    else node[key] = value;
  }
  const unionKey = Array.isArray(node.anyOf) ? 'anyOf' : Array.isArray(node.oneOf) ? 'oneOf' : '';
  if (unionKey === '') return node;
  const { [unionKey]: alternatives, ...rest } = node;
  // A union beside other keywords (a type, properties) means more than its alternatives.
  const beside = keywords(rest).filter((key) => !CONSTRAINTS.has(key));
  const flat = beside.length === 0 ? flatUnion(alternatives as unknown[]) : undefined;
  return flat === undefined ? node : { ...flat, ...rest };
}
