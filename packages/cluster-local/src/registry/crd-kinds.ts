import type { CompiledSchema, KubeObject } from '../contracts.js';
import { jsonPathValues, textOf } from '../objects/json-path.js';
import { ageOf } from '../table/human-duration.js';
import { AGE_COLUMN, column, NAME_COLUMN } from '../table/columns.js';
import {
  groupResource,
  STANDARD_VERBS,
  STATUS_VERBS,
  type PrinterColumn,
  type ResourceType,
  type ScaleSubresource,
} from './resource-type.js';

/** What the server reads of a CustomResourceDefinition (apiextensions.k8s.io/v1). */
export interface CrdSpec {
  group: string;
  scope: 'Namespaced' | 'Cluster';
  names: {
    plural: string;
    singular?: string;
    kind: string;
    listKind?: string;
    shortNames?: string[];
    categories?: string[];
  };
  versions: CrdVersion[];
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  schema?: { openAPIV3Schema?: Record<string, unknown> };
  subresources?: { status?: Record<string, never>; scale?: ScaleSubresource };
  additionalPrinterColumns?: Array<{
    name: string;
    type: string;
    format?: string;
    description?: string;
    priority?: number;
    jsonPath: string;
  }>;
}

export type SchemaCompiler = (openAPIV3Schema: Record<string, unknown>) => CompiledSchema;

export function crdSpecOf(crd: KubeObject): CrdSpec {
  return crd['spec'] as CrdSpec;
}

/** The resource types a CustomResourceDefinition serves: one per served version. */
export function crdKinds(crd: KubeObject, compile: SchemaCompiler): ResourceType[] {
  const spec = crdSpecOf(crd);
  const storageVersion = spec.versions.find((v) => v.storage) ?? spec.versions[0];
  const crdName = `${spec.names.plural}.${spec.group}`;
  return spec.versions
    .filter((v) => v.served)
    .map((version): ResourceType => {
      const subresources: Record<string, string[]> = {};
      if (version.subresources?.status) subresources['status'] = STATUS_VERBS;
      if (version.subresources?.scale) subresources['scale'] = STATUS_VERBS;
      const schema = version.schema?.openAPIV3Schema;
      return {
        group: spec.group,
        version: version.name,
        kind: spec.names.kind,
        listKind: spec.names.listKind ?? `${spec.names.kind}List`,
        plural: spec.names.plural,
        singular: spec.names.singular ?? spec.names.kind.toLowerCase(),
        namespaced: spec.scope === 'Namespaced',
        shortNames: spec.names.shortNames ?? [],
        categories: spec.names.categories ?? [],
        verbs: STANDARD_VERBS,
        subresources,
        storage: groupResource(spec.group, spec.names.plural),
        storedApiVersion: `${spec.group}/${storageVersion?.name ?? version.name}`,
        stored: true,
        columns: [NAME_COLUMN, ...printerColumns(version)],
        fieldSelectors: {},
        strategicMerge: false,
        allowUnconditionalUpdate: false,
        allowCreateOnUpdate: false,
        returnDeletedObject: true,
        ...(schema ? { schema: compile(schema), openAPIV3Schema: schema } : {}),
        ...(version.subresources?.scale ? { scale: version.subresources.scale } : {}),
        crd: crdName,
      };
    });
}

function printerColumns(version: CrdVersion): PrinterColumn[] {
  const columns = version.additionalPrinterColumns;
  if (!columns || columns.length === 0) return [AGE_COLUMN];
  return columns.map((c) =>
    column(c.name, (object, now) => cellOf(c.type, jsonPathValues(object, c.jsonPath)[0], now), {
      type: c.type,
      priority: c.priority ?? 0,
      description: c.description ?? '',
      ...(c.format ? { format: c.format } : {}),
    }),
  );
}

/** A printer column's cell as the apiextensions table convertor renders it. */
function cellOf(type: string, value: unknown, now: number): unknown {
  if (value === undefined || value === null) return null;
  switch (type) {
    case 'date':
      return ageOf(value, now);
    case 'string':
      return textOf(value);
    case 'integer':
      return typeof value === 'number' ? Math.trunc(value) : null;
    case 'number':
      return typeof value === 'number' ? value : null;
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    default:
      return value;
  }
}
