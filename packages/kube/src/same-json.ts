/**
 * Whether two JSON values are the same once serialized: key order and keys whose value is
 * undefined (JSON drops them) do not count; array order does. Status is written only when it is
 * not the same (by the operator and the local agents), so a steady state costs no write.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isRecord(a) || !isRecord(b)) return false;
  const keysA = definedKeys(a);
  const keysB = definedKeys(b);
  return (
    keysA.length === keysB.length &&
    keysA.every((key) => b[key] !== undefined && sameJson(a[key], b[key]))
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function definedKeys(record: Record<string, unknown>): string[] {
  return Object.keys(record).filter((key) => record[key] !== undefined);
}
