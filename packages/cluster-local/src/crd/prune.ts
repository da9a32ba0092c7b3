import { isJsonObject, itemSchema, propertySchema, valueSchema, type Schema } from './schema.js';

/** The fields every resource (the root, and any embedded resource) keeps whatever its schema says. */
const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * Kubernetes' pruning, in place: fields the structural schema does not specify are dropped, except
 * below `x-kubernetes-preserve-unknown-fields: true` (where the specified ones are still pruned), and
 * apiVersion, kind and metadata of the root and of embedded resources.
 */
export function prune(value: unknown, schema: Schema): void {
  pruneNode(value, schema, true);
}

function pruneNode(value: unknown, schema: Schema | undefined, resource = false): void {
  if (schema?.['x-kubernetes-preserve-unknown-fields'] === true) {
    pruneSpecified(value, schema, resource);
    return;
  }
  if (Array.isArray(value)) {
    const items = schema === undefined ? undefined : itemSchema(schema);
    for (const item of value) pruneNode(item, items);
    return;
  }
  if (!isJsonObject(value)) return;
  const keepResourceFields = resource || schema?.['x-kubernetes-embedded-resource'] === true;
  const values = schema === undefined ? undefined : valueSchema(schema);
  const keepAll = schema?.additionalProperties === true;
  for (const name of Object.keys(value)) {
    if (keepResourceFields && RESOURCE_FIELDS.has(name)) continue;
    const property = schema === undefined ? undefined : propertySchema(schema, name);
    if (property) pruneNode(value[name], property);
    else if (values) pruneNode(value[name], values);
    else if (!keepAll) delete value[name];
  }
}

/** Below preserve-unknown-fields: unknown fields stay, specified ones are pruned by their schema. */
function pruneSpecified(value: unknown, schema: Schema, resource: boolean): void {
  if (Array.isArray(value)) {
    const items = itemSchema(schema);
    if (items === undefined) return;
    for (const item of value) pruneSpecified(item, items, false);
    return;
  }
  if (!isJsonObject(value)) return;
  const keepResourceFields = resource || schema['x-kubernetes-embedded-resource'] === true;
  const values = valueSchema(schema);
  for (const name of Object.keys(value)) {
    if (keepResourceFields && RESOURCE_FIELDS.has(name)) continue;
    const property = propertySchema(schema, name);
    if (property) pruneNode(value[name], property);
    else if (values) pruneNode(value[name], values);
  }
}
