import { compileRule } from './cel-rule.js';
import { ruleFieldPath } from './field-path.js';
import { isJsonObject, itemSchema, valueSchema, type Schema } from './schema.js';

/**
 * What Kubernetes refuses in a CRD version's schema, each problem as `<path>: <what>` in its words:
 * the schema must be structural (a type on every specified node, no $ref, properties and
 * additionalProperties not together, logical junctors only restating fields specified outside them,
 * metadata restricted to name and generateName), its x-kubernetes-* extensions consistent, its
 * patterns regular expressions and its CEL rules compilable. Empty when the schema is acceptable.
 */
export function checkStructural(schema: object, path = 'openAPIV3Schema'): string[] {
  const problems: string[] = [];
  if (!isJsonObject(schema)) return [`${path}: Required value: must be a schema object`];
  checkNode(schema, path, 'root', true, problems);
  return problems;
}

type Place = 'root' | 'field' | 'item';

const SUPPORTED_LIST_TYPES = ['atomic', 'set', 'map'];
const RULE_REASONS = [
  'FieldValueDuplicate',
  'FieldValueForbidden',
  'FieldValueInvalid',
  'FieldValueRequired',
];
const JUNCTORS = ['allOf', 'anyOf', 'oneOf'] as const;
const NOT_IN_JUNCTORS = ['description', 'type', 'default', 'additionalProperties', 'nullable'];

const quote = (value: unknown) => JSON.stringify(value);

/** Keywords no CRD schema may hold, wherever they appear. */
function checkForbidden(schema: Schema, path: string, problems: string[]): void {
  const unsupported: Record<string, string> = {
    $ref: '$ref is not supported',
    id: 'id is not supported',
    definitions: 'definitions are not supported',
    dependencies: 'dependencies are not supported',
    additionalItems: 'additionalItems is not supported',
    patternProperties: 'patternProperties is not supported',
  };
  for (const [keyword, why] of Object.entries(unsupported)) {
    if (schema[keyword] !== undefined) problems.push(`${path}.${keyword}: Forbidden: ${why}`);
  }
  if (schema.type === 'null') {
    problems.push(
      `${path}.type: Forbidden: type cannot be set to null, use nullable as an alternative`,
    );
  }
  if (Array.isArray(schema.items)) {
    problems.push(`${path}.items: Forbidden: items must be a schema object and not an array`);
  }
  if (schema.uniqueItems === true) {
    problems.push(
      `${path}.uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
    );
  }
  if (typeof schema.pattern === 'string') {
    try {
      new RegExp(schema.pattern, 'u');
    } catch (error) {
      problems.push(
        `${path}.pattern: Invalid value: ${quote(schema.pattern)}: must be a valid regular expression: ${(error as Error).message}`,
      );
    }
  }
}

function checkNode(
  schema: Schema,
  path: string,
  place: Place,
  correlatable: boolean,
  problems: string[],
): void {
  checkForbidden(schema, path, problems);
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'];
  const type = schema.type;

  if (type === undefined || type === '') {
    if (place === 'root')
      problems.push(`${path}.type: Required value: must not be empty at the root`);
    else if (!intOrString && preserve !== true) {
      const what = place === 'item' ? 'specified array items' : 'specified object fields';
      problems.push(`${path}.type: Required value: must not be empty for ${what}`);
    }
  } else if (place === 'root' && type !== 'object') {
    problems.push(`${path}.type: Invalid value: ${quote(type)}: must be object at the root`);
  }
  if (intOrString && type !== undefined && type !== '') {
    problems.push(
      `${path}.type: Invalid value: ${quote(type)}: must be empty if x-kubernetes-int-or-string is true`,
    );
  }
  if (preserve === false) {
    problems.push(
      `${path}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined`,
    );
  }
  if (schema['x-kubernetes-embedded-resource'] === true) {
    if (type !== 'object') {
      problems.push(
        `${path}.type: Invalid value: ${quote(type ?? '')}: must be object if x-kubernetes-embedded-resource is true`,
      );
    }
    if (preserve !== true && Object.keys(schema.properties ?? {}).length === 0) {
      problems.push(
        `${path}.x-kubernetes-preserve-unknown-fields: Required value: must be true if x-kubernetes-embedded-resource is true and properties is empty`,
      );
    }
  }

  const hasProperties = Object.keys(schema.properties ?? {}).length > 0;
  if (schema.additionalProperties === false) {
    problems.push(
      `${path}.additionalProperties: Forbidden: additionalProperties cannot be set to false`,
    );
  } else if (hasProperties && isJsonObject(schema.additionalProperties)) {
    problems.push(
      `${path}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive`,
    );
  }
  if (type === 'array' && schema.items === undefined) {
    problems.push(`${path}.items: Required value: must be specified`);
  }

  checkListType(schema, path, problems);
  checkRules(schema, path, correlatable, problems);
  if (place === 'root') checkRootMetadata(schema, path, problems);

  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (isJsonObject(property)) {
      checkNode(property, `${path}.properties[${name}]`, 'field', correlatable, problems);
    }
  }
  const values = valueSchema(schema);
  if (values) checkNode(values, `${path}.additionalProperties`, 'field', correlatable, problems);
  const items = itemSchema(schema);
  if (items) {
    // Only the items of map lists correspond to old items, so only there may rules use oldSelf.
    const mapList = schema['x-kubernetes-list-type'] === 'map';
    checkNode(items, `${path}.items`, 'item', correlatable && mapList, problems);
  }
  checkJunctors(schema, schema, path, intOrString, problems);
}

function checkListType(schema: Schema, path: string, problems: string[]): void {
  const listType = schema['x-kubernetes-list-type'];
  const keys = schema['x-kubernetes-list-map-keys'];
  if (listType !== undefined) {
    if (!SUPPORTED_LIST_TYPES.includes(listType)) {
      problems.push(
        `${path}.x-kubernetes-list-type: Unsupported value: ${quote(listType)}: supported values: "atomic", "set", "map"`,
      );
    } else if (schema.type !== 'array') {
      problems.push(
        `${path}.x-kubernetes-list-type: Invalid value: ${quote(listType)}: must only be used if type is array`,
      );
    }
  }
  if (listType !== 'map') {
    if (keys !== undefined) {
      problems.push(
        `${path}.x-kubernetes-list-map-keys: Forbidden: must only be used if x-kubernetes-list-type is "map"`,
      );
    }
    return;
  }
  if (!Array.isArray(keys) || keys.length === 0) {
    problems.push(
      `${path}.x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is "map"`,
    );
    return;
  }
  const items = itemSchema(schema);
  if (items?.type !== 'object') {
    problems.push(
      `${path}.items.type: Invalid value: ${quote(items?.type ?? '')}: must be object if parent array's x-kubernetes-list-type is "map"`,
    );
    return;
  }
  for (const key of keys) {
    const property = items.properties?.[key];
    if (!property || !['string', 'integer', 'number', 'boolean'].includes(property.type ?? '')) {
      problems.push(
        `${path}.x-kubernetes-list-map-keys: Invalid value: ${quote(key)}: entries must all be names of scalar item properties`,
      );
    } else if (!items.required?.includes(key) && property.default === undefined) {
      problems.push(
        `${path}.items.properties[${key}]: Required value: map list keys must be required or have a default`,
      );
    }
  }
}

function checkRules(schema: Schema, path: string, correlatable: boolean, problems: string[]): void {
  const rules = schema['x-kubernetes-validations'];
  if (rules === undefined) return;
  if (!Array.isArray(rules)) {
    problems.push(`${path}.x-kubernetes-validations: Invalid value: must be a list of rules`);
    return;
  }
  rules.forEach((rule, index) => {
    const at = `${path}.x-kubernetes-validations[${index}]`;
    if (!isJsonObject(rule) || typeof rule.rule !== 'string' || rule.rule.trim() === '') {
      problems.push(`${at}.rule: Required value: rule is not specified`);
      return;
    }
    const compiled = compileRule(rule);
    if (compiled.problem !== undefined) {
      const field = compiled.problem.startsWith('messageExpression') ? 'messageExpression' : 'rule';
      problems.push(`${at}.${field}: Invalid value: ${quote(rule[field])}: ${compiled.problem}`);
    }
    if (compiled.transition && !correlatable) {
      problems.push(
        `${at}.rule: Invalid value: ${quote(rule.rule)}: oldSelf cannot be used on the uncorrelatable portion of the schema within ${path}`,
      );
    }
    if (rule.reason !== undefined && !RULE_REASONS.includes(rule.reason)) {
      problems.push(
        `${at}.reason: Unsupported value: ${quote(rule.reason)}: supported values: ${RULE_REASONS.map(quote).join(', ')}`,
      );
    }
    if (
      rule.fieldPath !== undefined &&
      (typeof rule.fieldPath !== 'string' || ruleFieldPath('', rule.fieldPath) === undefined)
    ) {
      problems.push(
        `${at}.fieldPath: Invalid value: ${quote(rule.fieldPath)}: must be a valid path such as .spec.name or ['key']`,
      );
    }
  });
}

/** At the root, Kubernetes owns metadata: a schema may only restrict name and generateName. */
function checkRootMetadata(schema: Schema, path: string, problems: string[]): void {
  const metadata = schema.properties?.metadata;
  if (!isJsonObject(metadata)) return;
  const at = `${path}.properties[metadata]`;
  const allowedKeys = ['type', 'description', 'properties'];
  const names = Object.keys(metadata.properties ?? {});
  if (
    (metadata.type !== undefined && metadata.type !== 'object') ||
    Object.keys(metadata).some((key) => !allowedKeys.includes(key)) ||
    names.some((name) => name !== 'name' && name !== 'generateName')
  ) {
    problems.push(
      `${at}: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified`,
    );
  }
  for (const name of names.filter((each) => each === 'name' || each === 'generateName')) {
    const type = metadata.properties?.[name]?.type;
    if (type !== undefined && type !== 'string') {
      problems.push(
        `${at}.properties[${name}].type: Invalid value: ${quote(type)}: must be string`,
      );
    }
  }
}

/** Whether a junctor is the `anyOf: [{type: integer}, {type: string}]` int-or-string asks for. */
function isIntOrStringBranch(branch: Schema): boolean {
  const keys = Object.keys(branch);
  return keys.length === 1 && (branch.type === 'integer' || branch.type === 'string');
}

/**
 * Logical junctors may only add value validations to what the schema outside specifies: no types,
 * defaults or descriptions of their own, and no field or item the outside does not have.
 */
function checkJunctors(
  schema: Schema,
  outside: Schema | undefined,
  path: string,
  intOrString: boolean,
  problems: string[],
): void {
  const parts: [Schema, string][] = [];
  for (const junctor of JUNCTORS) {
    const branches = schema[junctor];
    if (!Array.isArray(branches)) continue;
    branches.forEach((branch, index) => {
      if (isJsonObject(branch)) parts.push([branch, `${path}.${junctor}[${index}]`]);
    });
  }
  if (isJsonObject(schema.not)) parts.push([schema.not, `${path}.not`]);
  for (const [branch, at] of parts) checkJunction(branch, outside, at, intOrString, problems);
}

function checkJunction(
  branch: Schema,
  outside: Schema | undefined,
  path: string,
  intOrString: boolean,
  problems: string[],
): void {
  checkForbidden(branch, path, problems);
  if (!(intOrString && isIntOrStringBranch(branch))) {
    for (const keyword of NOT_IN_JUNCTORS) {
      if (branch[keyword] !== undefined) {
        problems.push(`${path}.${keyword}: Forbidden: must be empty to be structural`);
      }
    }
  }
  for (const keyword of Object.keys(branch).filter((key) => key.startsWith('x-kubernetes-'))) {
    problems.push(`${path}.${keyword}: Forbidden: must be empty to be structural`);
  }
  for (const [name, property] of Object.entries(branch.properties ?? {})) {
    const specified = outside?.properties?.[name];
    const at = `${path}.properties[${name}]`;
    if (specified === undefined) {
      problems.push(`${at}: Forbidden: must be specified outside of the logical junctors too`);
    }
    if (isJsonObject(property)) {
      const nestedIntOrString = specified?.['x-kubernetes-int-or-string'] === true;
      checkJunction(property, specified, at, nestedIntOrString, problems);
    }
  }
  const items = itemSchema(branch);
  if (items) {
    const specified = outside === undefined ? undefined : itemSchema(outside);
    if (specified === undefined) {
      problems.push(
        `${path}.items: Forbidden: must be specified outside of the logical junctors too`,
      );
    }
    const nestedIntOrString = specified?.['x-kubernetes-int-or-string'] === true;
    checkJunction(items, specified, `${path}.items`, nestedIntOrString, problems);
  }
  checkJunctors(branch, outside, path, intOrString, problems);
}
