import {
  isJsonObject,
  itemSchema,
  ownField,
  propertySchema,
  setOwnField,
  valueSchema,
  type Schema,
} from './schema.js';

/**
 * Kubernetes' structural defaulting, in place. As its API server does before defaulting, a null in a
 * field that is neither nullable nor defaulted is dropped first (so a required field set to null
 * reads as missing); a null in a defaulted, non-nullable field takes the default.
 */
export function applyDefaults(value: unknown, schema: Schema): void {
  dropNonNullableNulls(value, schema);
  fillDefaults(value, schema);
}

function droppable(value: unknown, schema: Schema | undefined): boolean {
  return value === null && schema !== undefined && !schema.nullable && schema.default === undefined;
}

function dropNonNullableNulls(value: unknown, schema: Schema | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value) dropNonNullableNulls(item, itemSchema(schema));
    return;
  }
  if (!isJsonObject(value)) return;
  const values = valueSchema(schema);
  for (const [name, child] of Object.entries(value)) {
    const childSchema = propertySchema(schema, name) ?? values;
    if (droppable(child, childSchema)) delete value[name];
    else dropNonNullableNulls(child, childSchema);
  }
}

/** Whether a value should take its schema's default: absent, or null where null is not allowed. */
function takesDefault(value: unknown, schema: Schema | undefined): schema is Schema {
  return (
    schema !== undefined &&
    schema.default !== undefined &&
    (value === undefined || (value === null && !schema.nullable))
  );
}

function fillDefaults(value: unknown, schema: Schema | undefined): void {
  if (schema === undefined) return;
  if (Array.isArray(value)) {
    const items = itemSchema(schema);
    value.forEach((item, index) => {
      if (takesDefault(item, items)) value[index] = structuredClone(items.default);
      fillDefaults(value[index], items);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (takesDefault(ownField(value, name), property)) {
      setOwnField(value, name, structuredClone(property.default));
    }
  }
  const values = valueSchema(schema);
  for (const name of Object.keys(value)) {
    const property = propertySchema(schema, name);
    if (property) {
      fillDefaults(value[name], property);
    } else if (values) {
      if (takesDefault(value[name], values))
        setOwnField(value, name, structuredClone(values.default));
      fillDefaults(value[name], values);
    }
  }
}
