/** The schema of a tool that declares none: any object. */
export const ANY_OBJECT: Readonly<Record<string, unknown>> = Object.freeze({ type: 'object' });

/** How deep a schema is copied; deeper parts are left open (any value). */
export const MAX_SCHEMA_DEPTH = 32;

/** A JSON Schema given as text; an empty or malformed one, or one that is not an object, is any object. */
export function schemaFromJson(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return { ...ANY_OBJECT };
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : { ...ANY_OBJECT };
  } catch {
    return { ...ANY_OBJECT };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A plain copy of a dereferenced schema that can be sent as JSON: a recursive schema (which
 * dereferencing turns into a cycle) is cut where it loops, as is anything deeper than
 * MAX_SCHEMA_DEPTH, the cut part accepting any value.
 */
export function acyclicSchema(schema: unknown): unknown {
  const path = new Set<object>();
  const copy = (value: unknown, depth: number): unknown => {
    if (typeof value !== 'object' || value === null) return value;
    if (path.has(value) || depth >= MAX_SCHEMA_DEPTH) return {};
    path.add(value);
    try {
      return Array.isArray(value)
        ? value.map((item) => copy(item, depth + 1))
        : Object.fromEntries(
            Object.entries(value).map(([key, item]) => [key, copy(item, depth + 1)]),
          );
    } finally {
      path.delete(value);
    }
  };
  return copy(schema, 0);
}
