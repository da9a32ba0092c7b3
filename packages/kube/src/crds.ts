import type { CustomResourceDefinition } from './custom-resource-definition.js';
import { KINDS } from './resources/index.js';

/** The CustomResourceDefinition of every kind, as fresh copies the caller may change. */
export function customResourceDefinitions(): CustomResourceDefinition[] {
  return KINDS.map((kind) => structuredClone(kind.crd));
}
