import { isCelError, parse, plan, type CelInput } from '@bufbuild/cel';
import { KUBERNETES_CEL } from './cel-library.js';
import { isJsonObject, itemSchema, propertySchema, valueSchema, type Schema } from './schema.js';

/**
 * A JSON value as CEL sees it in Kubernetes: integers (by the schema, or unknown whole numbers) are
 * CEL ints, `number` fields doubles, objects maps, and date-time and duration strings timestamps and
 * durations. The metadata of the root and of embedded resources shows only name and generateName.
 */

const timestamp = plan(KUBERNETES_CEL, parse('timestamp(text)'));
const duration = plan(KUBERNETES_CEL, parse('duration(text)'));

/** Converted values of one validation, so nested rules do not convert the same subtree again. */
export type CelCache = WeakMap<object, CelInput>;

export function toCelValue(
  value: unknown,
  schema: Schema | undefined,
  cache: CelCache,
  resource = false,
): CelInput {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      if (schema?.type === 'number' || !Number.isSafeInteger(value)) return value;
      return BigInt(value);
    case 'string':
      return formatted(value, schema?.format);
    case 'object':
      break;
    default:
      return null;
  }
  const cached = cache.get(value);
  if (cached !== undefined) return cached;
  let converted: CelInput;
  if (Array.isArray(value)) {
    const items = schema === undefined ? undefined : itemSchema(schema);
    converted = value.map((item) => toCelValue(item, items, cache));
  } else {
    const entries = new Map<string, CelInput>();
    const embedded = resource || schema?.['x-kubernetes-embedded-resource'] === true;
    const values = schema === undefined ? undefined : valueSchema(schema);
    for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
      if (embedded && name === 'metadata' && isJsonObject(child)) {
        entries.set(name, visibleMetadata(child));
        continue;
      }
      const childSchema =
        schema === undefined ? undefined : (propertySchema(schema, name) ?? values);
      entries.set(name, toCelValue(child, childSchema, cache));
    }
    converted = entries;
  }
  cache.set(value, converted);
  return converted;
}

function visibleMetadata(metadata: Record<string, unknown>): Map<string, CelInput> {
  const visible = new Map<string, CelInput>();
  for (const name of ['name', 'generateName']) {
    const value = metadata[name];
    if (typeof value === 'string') visible.set(name, value);
  }
  return visible;
}

function formatted(text: string, format: string | undefined): CelInput {
  const convert =
    format === 'date-time' || format === 'datetime'
      ? timestamp
      : format === 'duration'
        ? duration
        : undefined;
  if (convert === undefined) return text;
  const result = convert({ text });
  // An unreadable value fails its format check already; rules see the text.
  return isCelError(result) ? text : result;
}
