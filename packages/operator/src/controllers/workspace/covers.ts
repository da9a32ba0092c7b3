/**
 * Whether `actual` already holds everything `desired` says: every key of a desired object with an
 * equal value, arrays of the same length matched element by element. Extra keys in `actual` are
 * what the API server adds (defaults, metadata), so they never count as a difference.
 */
export function covers(actual: unknown, desired: unknown): boolean {
  if (desired === undefined) return true;
  if (Array.isArray(desired)) {
    return (
      Array.isArray(actual) &&
      actual.length === desired.length &&
      desired.every((item, i) => covers(actual[i], item))
    );
  }
  if (desired !== null && typeof desired === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
    const have = actual as Record<string, unknown>;
    return Object.entries(desired).every(([key, value]) => covers(have[key], value));
  }
  return actual === desired;
}
