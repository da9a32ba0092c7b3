import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import type { ResourceType } from '../registry/resource-type.js';

export type IncludeObject = 'None' | 'Metadata' | 'Object';

/** The meta.k8s.io version a client asked a Table in (from its Accept header), if it did. */
export function tableVersion(accept: string | undefined): 'v1' | 'v1beta1' | undefined {
  for (const part of (accept ?? '').split(',')) {
    const params = part.split(';').map((p) => p.trim());
    if (!params.includes('as=Table')) continue;
    if (params.includes('g=meta.k8s.io') || !params.some((p) => p.startsWith('g='))) {
      return params.includes('v=v1beta1') ? 'v1beta1' : 'v1';
    }
  }
  return undefined;
}

/** Objects as `kubectl get` asks for them: a meta.k8s.io Table with the kind's printer columns. */
export function toTable(
  type: ResourceType,
  objects: readonly KubeObject[],
  options: {
    version: 'v1' | 'v1beta1';
    includeObject: IncludeObject;
    now: number;
    resourceVersion?: string;
    continue?: string;
    remainingItemCount?: number;
  },
): KubeObject {
  const apiVersion = `meta.k8s.io/${options.version}`;
  return {
    kind: 'Table',
    apiVersion,
    metadata: {
      ...(options.resourceVersion ? { resourceVersion: options.resourceVersion } : {}),
      ...(options.continue ? { continue: options.continue } : {}),
      ...(options.remainingItemCount !== undefined
        ? { remainingItemCount: options.remainingItemCount }
        : {}),
    },
    columnDefinitions: type.columns.map(({ name, type: t, format, description, priority }) => ({
      name,
      type: t,
      format: format ?? '',
      description,
      priority,
    })),
    rows: objects.map((object) => ({
      cells: type.columns.map((c) => c.cell(object, options.now) ?? null),
      ...(options.includeObject === 'None'
        ? {}
        : {
            object:
              options.includeObject === 'Object'
                ? object
                : {
                    kind: 'PartialObjectMetadata',
                    apiVersion,
                    metadata: metaOf(object),
                  },
          }),
    })),
  };
}
