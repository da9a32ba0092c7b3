import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import { errors } from './api-error.js';
import type { AdmissionCheck } from './resources.js';

const NAMESPACES = { group: '', plural: 'namespaces' };

/**
 * Kubernetes' NamespaceLifecycle admission: nothing is created in a namespace that does not exist
 * (404 for the namespace) or is being deleted (403).
 */
export function namespaceLifecycle(
  namespaceNamed: (name: string) => KubeObject | undefined,
): AdmissionCheck {
  return ({ operation, type, object }) => {
    if (operation !== 'CREATE' || !type.namespaced) return;
    const meta = metaOf(object);
    const name = meta.namespace ?? '';
    const namespace = namespaceNamed(name);
    if (!namespace) throw errors.notFound(NAMESPACES, name);
    if (metaOf(namespace).deletionTimestamp) {
      const qualified = type.group ? `${type.plural}.${type.group}` : type.plural;
      throw errors.forbidden(
        `${qualified} ${JSON.stringify(meta.name ?? '')} is forbidden: unable to create new content in namespace ${name} because it is being terminated`,
        type,
        meta.name,
      );
    }
  };
}
