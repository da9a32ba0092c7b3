import { Type, type TSchema } from 'typebox';
import { ERROR_STATUS } from '../errors.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../paging.js';

/**
 * The mark of a schema that the OpenAPI document shows once, under components/schemas/<name>,
 * and refers to wherever it is used (openapi-document.ts hoists it). Validation and serialization
 * see the schema inline.
 */
export const COMPONENT = 'x-paddock-schema';

/** Options naming a schema's component. */
export function named(name: string, description?: string): { description?: string } {
  const options: Record<string, string> = { [COMPONENT]: name };
  if (description !== undefined) options.description = description;
  return options;
}

/** A value of the schema, or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A schema of the cluster's resource definitions, typed as `T`: the same fields without the
 * Kubernetes-only annotations. An object that keeps unknown fields says so with
 * additionalProperties, so that serialization passes them on as the cluster stored them.
 */
export function crd<T>(schema: unknown, options: Record<string, unknown> = {}) {
  const copy = JSON.parse(
    JSON.stringify(schema, (key, value: unknown) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        return key.startsWith('x-kubernetes-') ? undefined : value;
      }
      const node = value as Record<string, unknown>;
      const open =
        node['x-kubernetes-preserve-unknown-fields'] === true ||
        (node.type === 'object' &&
          node.properties === undefined &&
          node.additionalProperties === undefined);
      return open ? { ...node, additionalProperties: true } : value;
    }),
  ) as Record<string, unknown>;
  return Type.Unsafe<T>({ ...copy, ...options });
}

/** A Kubernetes object name (RFC 1123 subdomain). */
export const OBJECT_NAME_PATTERN = '^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$';
export const ObjectName = (description = 'A Kubernetes object name') =>
  Type.String({ pattern: OBJECT_NAME_PATTERN, maxLength: 253, description });

/** The one error body of every Paddock HTTP API. */
export const ErrorEnvelope = Type.Object(
  {
    error: Type.String({
      description: 'A stable code',
      enum: Object.keys(ERROR_STATUS),
      examples: ['not_found'],
    }),
    message: Type.String({ description: 'What went wrong, for people' }),
  },
  named(
    'Error',
    `The one error body of every Paddock HTTP API. Each code has one status: ${Object.entries(
      ERROR_STATUS,
    )
      .map(([code, status]) => `\`${code}\` ${status}`)
      .join(', ')}.`,
  ),
);

/** `true`, the one value of `success` (any boolean to the handlers' types, for brevity). */
export const True = Type.Unsafe<boolean>(Type.Literal(true));

export const Success = Type.Object({ success: True }, named('Success'));

/** `?limit=&offset=` of a list. */
export const Paging = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: MAX_PAGE_SIZE,
      default: DEFAULT_PAGE_SIZE,
      description: 'Items per page (0 counts as 1).',
    }),
  ),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'Items to skip.' }),
  ),
});

/** One page of a list: `{<key>: [...], total, limit, offset}`. */
export function page<K extends string, T extends TSchema>(key: K, item: T) {
  return Type.Object({
    ...({ [key]: Type.Array(item) } as { [P in K]: ReturnType<typeof Type.Array<T>> }),
    total: Type.Integer({ minimum: 0 }),
    limit: Type.Integer({ minimum: 1 }),
    offset: Type.Integer({ minimum: 0 }),
  });
}

/** `{<key>: <schema>}`: how single objects are answered. */
export function wrapped<K extends string, T extends TSchema>(key: K, schema: T) {
  return Type.Object({ [key]: schema } as { [P in K]: T });
}

/** A JSON answer with its description (and headers) for the OpenAPI document. */
export function answer<T extends TSchema>(
  description: string,
  schema: T,
  headers?: Record<string, { description: string; type: 'string' }>,
): T {
  return { ...schema, description, ...(headers ? { headers } : {}) };
}
