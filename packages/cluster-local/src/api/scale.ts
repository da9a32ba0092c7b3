import type { KubeObject } from '../contracts.js';
import { valueAt } from '../objects/json-path.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import type { ScaleSubresource } from '../registry/resource-type.js';

const dotted = (path: string) => path.replace(/^\./, '');

/** The autoscaling/v1 Scale of a custom resource declaring the scale subresource. */
export function scaleOf(object: KubeObject, scale: ScaleSubresource): KubeObject {
  const meta = metaOf(object);
  const selector = scale.selectorOf
    ? scale.selectorOf(object)
    : scale.labelSelectorPath
      ? valueAt(object, dotted(scale.labelSelectorPath))
      : undefined;
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'Scale',
    metadata: {
      name: meta.name,
      ...(meta.namespace ? { namespace: meta.namespace } : {}),
      uid: meta.uid,
      resourceVersion: meta.resourceVersion,
      creationTimestamp: meta.creationTimestamp,
    },
    spec: { replicas: Number(valueAt(object, dotted(scale.specReplicasPath)) ?? 0) },
    status: {
      replicas: Number(valueAt(object, dotted(scale.statusReplicasPath)) ?? 0),
      ...(typeof selector === 'string' ? { selector } : {}),
    },
  };
}

/** The object with the replicas a Scale asks for, in place. */
export function applyScale(
  object: KubeObject,
  scale: ScaleSubresource,
  requested: KubeObject,
): void {
  const replicas = isRecord(requested['spec']) ? requested['spec']['replicas'] : undefined;
  const parts = dotted(scale.specReplicasPath).split('.');
  let node: Record<string, unknown> = object;
  for (const part of parts.slice(0, -1)) {
    if (!isRecord(node[part])) node[part] = {};
    node = node[part] as Record<string, unknown>;
  }
  node[parts.at(-1)!] = typeof replicas === 'number' ? replicas : 0;
}
