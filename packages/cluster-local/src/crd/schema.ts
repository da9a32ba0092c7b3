/**
 * The OpenAPI v3 schema of a CustomResourceDefinition version (Kubernetes' JSONSchemaProps), as read
 * from JSON: every field optional, and anything else a CRD may carry kept but unused.
 */
export interface Schema {
  type?: string;
  format?: string;
  description?: string;
  nullable?: boolean;
  default?: unknown;
  enum?: unknown[];
  pattern?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  additionalProperties?: Schema | boolean;
  items?: Schema | Schema[];
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  $ref?: string;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-validations'?: ValidationRule[];
  [keyword: string]: unknown;
}

/** One `x-kubernetes-validations` entry. */
export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema of an object's property, as the structural schema defines it. */
export function propertySchema(schema: Schema, name: string): Schema | undefined {
  const properties = schema.properties;
  if (properties && Object.hasOwn(properties, name)) return properties[name];
  return undefined;
}

/** The schema of a map's values, when `additionalProperties` is a schema. */
export function valueSchema(schema: Schema): Schema | undefined {
  return isJsonObject(schema.additionalProperties) ? schema.additionalProperties : undefined;
}

/** The schema of an array's items, when `items` is a single schema. */
export function itemSchema(schema: Schema): Schema | undefined {
  return isJsonObject(schema.items) ? schema.items : undefined;
}

/** An own property of a JSON object, never one inherited from Object.prototype. */
export function ownField(object: JsonObject, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

/** Sets an own property, even one named `__proto__` (which JSON.parse allows). */
export function setOwnField(object: JsonObject, name: string, value: unknown): void {
  Object.defineProperty(object, name, {
    value,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}
