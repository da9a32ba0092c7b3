import type { FieldError } from '../contracts.js';
import { compileRule, type CompiledRule } from './cel-rule.js';
import { toCelValue, type CelCache } from './cel-value.js';
import { required } from './field-errors.js';
import { childPath, indexPath, keyPath } from './field-path.js';
import { canonicalJson, listTypeErrors, mapKey } from './list-type.js';
import {
  isJsonObject,
  itemSchema,
  ownField,
  propertySchema,
  valueSchema,
  type Schema,
} from './schema.js';

/**
 * The checks Kubernetes makes besides OpenAPI validation, compiled into a tree that only holds the
 * parts of the schema that have some, so validating walks no further than it must: embedded
 * resources' apiVersion and kind, list-type invariants, and the CEL rules of each node.
 */
export interface CheckNode {
  readonly schema: Schema;
  readonly rules: readonly CompiledRule[];
  /** Whether this subtree holds embedded-resource or list-type invariants. */
  readonly invariants: boolean;
  /** Whether this subtree holds CEL rules. */
  readonly hasRules: boolean;
  readonly properties: ReadonlyMap<string, CheckNode>;
  readonly values?: CheckNode;
  readonly items?: CheckNode;
}

export function compileChecks(schema: Schema): CheckNode | undefined {
  const rules = Array.isArray(schema['x-kubernetes-validations'])
    ? schema['x-kubernetes-validations'].map(compileRule)
    : [];
  const properties = new Map<string, CheckNode>();
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const child = isJsonObject(property) ? compileChecks(property) : undefined;
    if (child) properties.set(name, child);
  }
  const valuesSchema = valueSchema(schema);
  const itemsSchema = itemSchema(schema);
  const values = valuesSchema && compileChecks(valuesSchema);
  const items = itemsSchema && compileChecks(itemsSchema);
  const children = [...properties.values(), values, items].filter((child) => child !== undefined);
  const listType = schema['x-kubernetes-list-type'];
  const invariants =
    schema['x-kubernetes-embedded-resource'] === true ||
    listType === 'set' ||
    listType === 'map' ||
    children.some((child) => child.invariants);
  const hasRules = rules.length > 0 || children.some((child) => child.hasRules);
  if (!invariants && !hasRules) return undefined;
  return {
    schema,
    rules,
    invariants,
    hasRules,
    properties,
    ...(values ? { values } : {}),
    ...(items ? { items } : {}),
  };
}

/** The children of an object or list value that have checks, with their paths. */
function* children(
  node: CheckNode,
  value: unknown,
  path: string,
): Generator<[CheckNode, unknown, string, string | number]> {
  if (Array.isArray(value)) {
    if (node.items) {
      for (const [index, item] of value.entries()) {
        yield [node.items, item, indexPath(path, index), index];
      }
    }
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [name, child] of node.properties) {
    if (Object.hasOwn(value, name)) yield [child, value[name], childPath(path, name), name];
  }
  if (node.values) {
    for (const [name, child] of Object.entries(value)) {
      if (propertySchema(node.schema, name) === undefined) {
        yield [node.values, child, keyPath(path, name), name];
      }
    }
  }
}

export function invariantErrors(node: CheckNode, value: unknown, path: string): FieldError[] {
  if (!node.invariants) return [];
  const errors: FieldError[] = [];
  if (node.schema['x-kubernetes-embedded-resource'] === true && isJsonObject(value)) {
    for (const name of ['apiVersion', 'kind']) {
      const field = ownField(value, name);
      if (field === undefined || field === '') {
        errors.push(required(childPath(path, name), 'must not be empty'));
      }
    }
  }
  if (Array.isArray(value)) errors.push(...listTypeErrors(value, node.schema, path));
  for (const [child, childValue, childPath] of children(node, value, path)) {
    errors.push(...invariantErrors(child, childValue, childPath));
  }
  return errors;
}

/**
 * The failed rules of `value` and below. `old` is the value at the same place before the update
 * (undefined on create, or where Kubernetes cannot tell which old value corresponds): transition
 * rules are checked only where it is known. Null values are not checked, as in Kubernetes.
 */
export function ruleErrors(
  node: CheckNode,
  value: unknown,
  old: unknown,
  path: string,
  cache: CelCache,
  resource = false,
): FieldError[] {
  if (!node.hasRules || value === null || value === undefined) return [];
  const errors: FieldError[] = [];
  if (node.rules.length > 0) {
    const self = toCelValue(value, node.schema, cache, resource);
    const oldSelf =
      old === undefined || old === null ? undefined : toCelValue(old, node.schema, cache, resource);
    const type = node.schema.type ?? '';
    for (const rule of node.rules) {
      if (rule.transition && oldSelf === undefined) continue;
      const error = rule.check(self, rule.transition ? oldSelf : undefined, path, type);
      if (error) errors.push(error);
    }
  }
  const oldItems = correlatedOldItems(node, old);
  for (const [child, childValue, childPath, key] of children(node, value, path)) {
    const childOld =
      typeof key === 'number'
        ? oldItems?.get(canonicalJson(mapKey(childValue, listMapKeys(node))))
        : isJsonObject(old)
          ? ownField(old, key)
          : undefined;
    errors.push(...ruleErrors(child, childValue, childOld, childPath, cache));
  }
  return errors;
}

function listMapKeys(node: CheckNode): readonly string[] {
  return node.schema['x-kubernetes-list-map-keys'] ?? [];
}

/** Old items by their keys: only the items of map lists correspond to old ones, as in Kubernetes. */
function correlatedOldItems(node: CheckNode, old: unknown): Map<string, unknown> | undefined {
  if (node.schema['x-kubernetes-list-type'] !== 'map' || !Array.isArray(old)) return undefined;
  const keys = listMapKeys(node);
  return new Map(old.map((item) => [canonicalJson(mapKey(item, keys)), item]));
}
