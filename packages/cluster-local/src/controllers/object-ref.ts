import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';

/** Where an object is stored, as one string for maps and sets. */
export function objectKey(storage: string, object: KubeObject): string {
  const meta = metaOf(object);
  return `${storage}\u0000${meta.namespace ?? ''}\u0000${meta.name ?? ''}`;
}

export function parseObjectKey(key: string): { storage: string; namespace: string; name: string } {
  const [storage = '', namespace = '', name = ''] = key.split('\u0000');
  return { storage, namespace, name };
}
