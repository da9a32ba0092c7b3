/**
 * Resource quantities as the API server compares them: it stores a canonical form (`0.5` CPU
 * becomes `500m`, `1024Mi` becomes `1Gi`), so a desired amount equals a stored one when their
 * values are equal, not their spelling.
 */

const SCALE: Record<string, number> = {
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  '': 1,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

const QUANTITY =
  /^([+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)(n|u|m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$/;

/** The value of a quantity, or undefined when it is none. */
export function quantityValue(quantity: unknown): number | undefined {
  if (typeof quantity === 'number') return Number.isFinite(quantity) ? quantity : undefined;
  if (typeof quantity !== 'string') return undefined;
  const match = QUANTITY.exec(quantity.trim());
  if (match === null) return undefined;
  return Number(match[1]) * (SCALE[match[2] ?? ''] ?? 1);
}

/** Whether two quantities have the same value (within float rounding). */
export function sameQuantity(a: unknown, b: unknown): boolean {
  const x = quantityValue(a);
  const y = quantityValue(b);
  if (x === undefined || y === undefined) return false;
  return x === y || Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
}

/**
 * `desired`'s amounts, each spelt as in `stored` where the two have the same value, so that a plain
 * comparison sees no difference the API server's canonical form made.
 */
export function spelledAs<T extends object>(desired: T, stored: unknown): T {
  if (stored === null || typeof stored !== 'object') return desired;
  const have = stored as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(desired).map(([key, value]) => [
      key,
      key in have && sameQuantity(have[key], value) ? have[key] : value,
    ]),
  ) as T;
}
