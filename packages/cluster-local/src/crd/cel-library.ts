import {
  celEnv,
  celFunc,
  celMethod,
  CelScalar,
  isCelList,
  isCelMap,
  listType,
  type CelEnv,
  type CelList,
  type CelValue,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';

/**
 * The CEL environment of x-kubernetes-validations: the standard library with its macros (has, all,
 * exists, exists_one, map, filter), the strings extension, and the parts of Kubernetes' own libraries
 * (lists, regex, sets) that resource rules use.
 */

const { BOOL, DYN, INT, STRING } = CelScalar;
const LIST = listType(DYN);
const STRING_LIST = listType(STRING);

/** CEL equality for the values these functions compare (numbers compare across int and double). */
function celEquals(left: CelValue, right: CelValue): boolean {
  if (isNumber(left) && isNumber(right)) return compareNumbers(left, right) === 0;
  if (isCelList(left) && isCelList(right)) {
    if (left.size !== right.size) return false;
    for (let index = 0; index < left.size; index++) {
      if (!celEquals(left.get(index) as CelValue, right.get(index) as CelValue)) return false;
    }
    return true;
  }
  if (isCelMap(left) && isCelMap(right)) {
    if (left.size !== right.size) return false;
    for (const [key, value] of left) {
      const other = right.get(key);
      if (other === undefined || !celEquals(value, other)) return false;
    }
    return true;
  }
  return left === right;
}

function isNumber(value: unknown): value is bigint | number {
  return typeof value === 'bigint' || typeof value === 'number';
}

function compareNumbers(left: bigint | number, right: bigint | number): number {
  if (typeof left === 'bigint' && typeof right === 'bigint')
    return left < right ? -1 : left > right ? 1 : 0;
  const l = Number(left);
  const r = Number(right);
  return l < r ? -1 : l > r ? 1 : 0;
}

/** Kubernetes' ordering for isSorted, min and max: numbers, strings or booleans, not mixed. */
function compare(left: CelValue, right: CelValue): number {
  if (isNumber(left) && isNumber(right)) return compareNumbers(left, right);
  if (typeof left === 'string' && typeof right === 'string')
    return left < right ? -1 : left > right ? 1 : 0;
  if (typeof left === 'boolean' && typeof right === 'boolean') return Number(left) - Number(right);
  throw new Error(
    `no such overload: values of types ${typeof left} and ${typeof right} cannot be ordered`,
  );
}

function extreme(list: CelList, sign: 1 | -1): CelValue {
  let best: CelValue | undefined;
  for (const item of list) {
    if (best === undefined || compare(item, best) * sign > 0) best = item;
  }
  if (best === undefined) throw new Error(`${sign > 0 ? 'max' : 'min'} of an empty list`);
  return best;
}

function indexOf(list: CelList, value: CelValue): bigint {
  for (let index = 0; index < list.size; index++) {
    if (celEquals(list.get(index) as CelValue, value)) return BigInt(index);
  }
  return -1n;
}

function contains(list: CelList, value: CelValue): boolean {
  return indexOf(list, value) >= 0n;
}

function regex(pattern: string, flags = 'u'): RegExp {
  return new RegExp(pattern, flags);
}

function findAll(text: string, pattern: string, limit: bigint): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(regex(pattern, 'gu'))) {
    if (limit >= 0n && BigInt(found.length) >= limit) break;
    found.push(match[0]);
  }
  return found;
}

const LISTS = [
  celMethod('isSorted', LIST, [], BOOL, function () {
    let previous: CelValue | undefined;
    for (const item of this) {
      if (previous !== undefined && compare(previous, item) > 0) return false;
      previous = item;
    }
    return true;
  }),
  celMethod('sum', LIST, [], DYN, function () {
    let total: bigint | number = 0n;
    for (const item of this) {
      if (!isNumber(item)) throw new Error('no such overload: sum of a list of non-numbers');
      total =
        typeof total === 'bigint' && typeof item === 'bigint'
          ? total + item
          : Number(total) + Number(item);
    }
    return total;
  }),
  celMethod('min', LIST, [], DYN, function () {
    return extreme(this, -1);
  }),
  celMethod('max', LIST, [], DYN, function () {
    return extreme(this, 1);
  }),
  celMethod('indexOf', LIST, [DYN], INT, function (value) {
    return indexOf(this, value);
  }),
  celMethod('lastIndexOf', LIST, [DYN], INT, function (value) {
    for (let index = this.size - 1; index >= 0; index--) {
      if (celEquals(this.get(index) as CelValue, value)) return BigInt(index);
    }
    return -1n;
  }),
];

const REGEX = [
  celMethod('find', STRING, [STRING], STRING, function (pattern) {
    return regex(pattern).exec(this)?.[0] ?? '';
  }),
  celMethod('findAll', STRING, [STRING], STRING_LIST, function (pattern) {
    return findAll(this, pattern, -1n);
  }),
  celMethod('findAll', STRING, [STRING, INT], STRING_LIST, function (pattern, limit) {
    return findAll(this, pattern, limit);
  }),
];

const SETS = [
  celFunc('sets.contains', [LIST, LIST], BOOL, (list, sublist) =>
    [...sublist].every((item) => contains(list, item)),
  ),
  celFunc(
    'sets.equivalent',
    [LIST, LIST],
    BOOL,
    (left, right) =>
      [...left].every((item) => contains(right, item)) &&
      [...right].every((item) => contains(left, item)),
  ),
  celFunc('sets.intersects', [LIST, LIST], BOOL, (left, right) =>
    [...left].some((item) => contains(right, item)),
  ),
];

/** Built once: an environment only holds the function table, shared by every rule. */
export const KUBERNETES_CEL: CelEnv = celEnv({ funcs: [...strings, ...LISTS, ...REGEX, ...SETS] });
