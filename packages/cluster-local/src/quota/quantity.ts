/**
 * Kubernetes' resource.Quantity, exact: a value in nano units (the smallest Kubernetes keeps; finer
 * amounts round up, away from zero) and the format its text was written in, which the canonical
 * text keeps (`1536Mi` stays binary, `0.5` becomes `500m`, `1e3` stays an exponent).
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** The value times 10^9. */
  nanos: bigint;
  format: QuantityFormat;
}

const NANOS_PER_UNIT = 1_000_000_000n;
const BINARY_STEP = 1024n;

const DECIMAL_EXPONENTS: Record<string, number> = {
  n: -9,
  u: -6,
  m: -3,
  '': 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];
const DECIMAL_SUFFIXES = new Map(Object.entries(DECIMAL_EXPONENTS).map(([s, e]) => [e, s]));

/** Exponents beyond this are no quantity anyone means; refusing them bounds the arithmetic. */
const MAX_EXPONENT = 64;

const QUANTITY =
  /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei)|([numkMGTPE])|[eE]([+-]?\d+))?$/;

export const ZERO: Quantity = { nanos: 0n, format: 'DecimalSI' };

/** A quantity from its text (or a JSON number), or undefined when it is none. */
export function parseQuantity(value: unknown): Quantity | undefined {
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== 'string') return undefined;
  const match = QUANTITY.exec(text);
  if (!match) return undefined;
  const [, sign, number, binary, decimal, exponent] = match;
  const [whole = '', fraction = ''] = number!.split('.');
  const digits = BigInt(`${whole}${fraction}` || '0');
  let numerator = digits;
  let power = 9 - fraction.length;
  let format: QuantityFormat = 'DecimalSI';
  if (binary) {
    numerator *= BINARY_STEP ** BigInt(BINARY_SUFFIXES.indexOf(binary));
    format = 'BinarySI';
  } else if (exponent !== undefined) {
    const e = Number(exponent);
    if (Math.abs(e) > MAX_EXPONENT) return undefined;
    power += e;
    format = 'DecimalExponent';
  } else {
    power += DECIMAL_EXPONENTS[decimal ?? '']!;
  }
  const magnitude =
    power >= 0 ? numerator * 10n ** BigInt(power) : ceilDivide(numerator, 10n ** BigInt(-power));
  return { nanos: sign === '-' ? -magnitude : magnitude, format };
}

/** The canonical text the API server writes back, e.g. in status.used and quota messages. */
export function formatQuantity(quantity: Quantity): string {
  const { nanos } = quantity;
  if (nanos === 0n) return '0';
  const sign = nanos < 0n ? '-' : '';
  const magnitude = nanos < 0n ? -nanos : nanos;
  if (
    quantity.format === 'BinarySI' &&
    magnitude >= BINARY_STEP * NANOS_PER_UNIT &&
    magnitude % NANOS_PER_UNIT === 0n
  ) {
    let amount = magnitude / NANOS_PER_UNIT;
    let step = 0;
    while (step < BINARY_SUFFIXES.length - 1 && amount % BINARY_STEP === 0n) {
      amount /= BINARY_STEP;
      step++;
    }
    return `${sign}${amount}${BINARY_SUFFIXES[step]}`;
  }
  // The smallest integer mantissa whose exponent is a multiple of three.
  let amount = magnitude;
  let exponent = -9;
  while (amount % 10n === 0n) {
    amount /= 10n;
    exponent++;
  }
  const extra = ((exponent % 3) + 3) % 3;
  amount *= 10n ** BigInt(extra);
  exponent -= extra;
  const suffix =
    quantity.format === 'DecimalExponent'
      ? exponent === 0
        ? ''
        : `e${exponent}`
      : (DECIMAL_SUFFIXES.get(exponent) ?? `e${exponent}`);
  return `${sign}${amount}${suffix}`;
}

/** The canonical text of a quantity's text, or undefined when it is none. */
export function canonicalQuantity(value: unknown): string | undefined {
  const quantity = parseQuantity(value);
  return quantity && formatQuantity(quantity);
}

/** a + b, in a's format unless a is zero (as Quantity.Add keeps it). */
export function addQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos + b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

/** a - b, in a's format unless a is zero. */
export function subtractQuantities(a: Quantity, b: Quantity): Quantity {
  return { nanos: a.nanos - b.nanos, format: a.nanos === 0n ? b.format : a.format };
}

export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
  return a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0;
}

/** The larger of two quantities (the first when equal). */
export function maxQuantity(a: Quantity, b: Quantity): Quantity {
  return compareQuantities(b, a) > 0 ? b : a;
}

/** A count, as the API server writes object counts. */
export function countQuantity(count: number): Quantity {
  return { nanos: BigInt(count) * NANOS_PER_UNIT, format: 'DecimalSI' };
}

function ceilDivide(numerator: bigint, denominator: bigint): bigint {
  return (numerator + denominator - 1n) / denominator;
}
