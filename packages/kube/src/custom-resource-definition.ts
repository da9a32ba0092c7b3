import { GROUP, VERSION } from './api-group.js';
import type { SchemaNode } from './schema-node.js';

/** Everything that makes one kind's CustomResourceDefinition, besides the group and version. */
export interface KindDefinition {
  readonly kind: string;
  readonly plural: string;
  readonly singular: string;
  readonly shortNames: readonly string[];
  readonly scope: 'Cluster' | 'Namespaced';
  readonly description: string;
  readonly spec: SchemaNode;
  readonly status: SchemaNode;
  readonly printerColumns: readonly PrinterColumn[];
  /** Lets `kubectl scale` and autoscalers set the replica count (and find the pods it counts). */
  readonly scale?: {
    readonly specReplicasPath: string;
    readonly statusReplicasPath: string;
    readonly labelSelectorPath?: string;
  };
}

export interface PrinterColumn {
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  readonly jsonPath: string;
  readonly description?: string;
}

/** An `apiextensions.k8s.io/v1` CustomResourceDefinition with a single served and stored version. */
export interface CustomResourceDefinition {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string };
  spec: {
    group: string;
    names: {
      kind: string;
      listKind: string;
      plural: string;
      singular: string;
      shortNames: string[];
      categories: string[];
    };
    scope: 'Cluster' | 'Namespaced';
    versions: {
      name: string;
      served: boolean;
      storage: boolean;
      schema: { openAPIV3Schema: SchemaNode };
      subresources: {
        status: Record<string, never>;
        scale?: {
          specReplicasPath: string;
          statusReplicasPath: string;
          labelSelectorPath?: string;
        };
      };
      additionalPrinterColumns: PrinterColumn[];
    }[];
  };
}

/** `kubectl get paddock` lists every Paddock object. */
export const CATEGORIES = ['paddock'] as const;

export function customResourceDefinition(definition: KindDefinition): CustomResourceDefinition {
  const openAPIV3Schema: SchemaNode = {
    type: 'object',
    description: definition.description,
    required: ['spec'],
    properties: {
      apiVersion: {
        type: 'string',
        description: 'The versioned schema of this representation of an object.',
      },
      kind: { type: 'string', description: 'The REST resource this object represents.' },
      metadata: { type: 'object' },
      spec: definition.spec,
      status: definition.status,
    },
  };
  // Deep copies, so nothing a caller does to the CRD can reach the kinds' schemas.
  return structuredClone({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${definition.plural}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        kind: definition.kind,
        listKind: `${definition.kind}List`,
        plural: definition.plural,
        singular: definition.singular,
        shortNames: [...definition.shortNames],
        categories: [...CATEGORIES],
      },
      scope: definition.scope,
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          schema: { openAPIV3Schema },
          subresources: {
            status: {},
            ...(definition.scale ? { scale: { ...definition.scale } } : {}),
          },
          additionalPrinterColumns: [...definition.printerColumns],
        },
      ],
    },
  });
}
