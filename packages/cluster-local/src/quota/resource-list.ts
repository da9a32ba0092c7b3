import {
  addQuantities,
  compareQuantities,
  formatQuantity,
  parseQuantity,
  subtractQuantities,
  ZERO,
  type Quantity,
} from './quantity.js';

/** corev1.ResourceList: an amount per resource name (`pods`, `requests.cpu`, `count/secrets`). */
export type ResourceList = Map<string, Quantity>;

/** The entries of a JSON ResourceList whose values are quantities (others are left out). */
export function parseResourceList(value: unknown): ResourceList {
  const list: ResourceList = new Map();
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return list;
  for (const [name, amount] of Object.entries(value)) {
    const quantity = parseQuantity(amount);
    if (quantity) list.set(name, quantity);
  }
  return list;
}

/** The JSON of a ResourceList, in canonical quantities, keys sorted as the API server writes maps. */
export function resourceListJson(list: ResourceList): Record<string, string> {
  return Object.fromEntries(
    [...list.keys()].sort().map((name) => [name, formatQuantity(list.get(name)!)]),
  );
}

/** a + b, name by name. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const sum = new Map(a);
  for (const [name, amount] of b) sum.set(name, addQuantities(sum.get(name) ?? ZERO, amount));
  return sum;
}

/** a - b, name by name, never below zero (quota's SubtractWithNonNegativeResult). */
export function subtractListsAtLeastZero(a: ResourceList, b: ResourceList): ResourceList {
  const difference: ResourceList = new Map();
  for (const [name, amount] of a) {
    const left = subtractQuantities(amount, b.get(name) ?? ZERO);
    difference.set(name, left.nanos < 0n ? { ...ZERO, format: left.format } : left);
  }
  return difference;
}

/** Only the entries named. */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const masked: ResourceList = new Map();
  for (const name of names) {
    const amount = list.get(name);
    if (amount) masked.set(name, amount);
  }
  return masked;
}

export function withoutZeros(list: ResourceList): ResourceList {
  return new Map([...list].filter(([, amount]) => amount.nanos !== 0n));
}

/** The names whose amount in `a` is more than in `limits` (names absent from limits are unlimited). */
export function exceededNames(a: ResourceList, limits: ResourceList): string[] {
  return [...a]
    .filter(([name, amount]) => {
      const limit = limits.get(name);
      return limit !== undefined && compareQuantities(amount, limit) > 0;
    })
    .map(([name]) => name);
}

/** `configmaps=1,requests.cpu=500m`: sorted by name, as quota messages print lists. */
export function listText(list: ResourceList): string {
  return [...list.keys()]
    .sort()
    .map((name) => `${name}=${formatQuantity(list.get(name)!)}`)
    .join(',');
}
