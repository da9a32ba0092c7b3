// What a model call cost: its token usage at the model's price.
import { PRICES, type ModelPrice, type PriceTable } from './prices.js';

export interface TokenUsage {
  input: number;
  output: number;
}

export interface Cost {
  usd: number;
  /** False when no price is known for the model: the call is counted as free. */
  priced: boolean;
}

const TOKENS_PER_PRICE_UNIT = 1_000_000;
/** A dated snapshot (`-20250929`, `-2024-08-06`) or `-latest` names the same model as its base. */
const VERSION_SUFFIX = /-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$/;

/** The price of `model`: from `overrides` first, then the table; exact names before base names. */
export function priceOf(
  model: string,
  overrides: PriceTable = {},
  table: PriceTable = PRICES,
): ModelPrice | undefined {
  const base = model.replace(VERSION_SUFFIX, '');
  for (const prices of [overrides, table]) {
    const price = own(prices, model) ?? own(prices, base);
    if (price) return price;
  }
  return undefined;
}

export function costOf(model: string, usage: TokenUsage, overrides?: PriceTable): Cost {
  const price = priceOf(model, overrides);
  if (!price) return { usd: 0, priced: false };
  const usd = (usage.input * price.input + usage.output * price.output) / TOKENS_PER_PRICE_UNIT;
  return { usd, priced: true };
}

/** A table's own entry (never something inherited, such as `constructor`). */
function own(table: PriceTable, name: string): ModelPrice | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}
