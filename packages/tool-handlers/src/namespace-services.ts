import { CORE_KINDS, type Kube, type KubeObject, type ToolHandler } from '@paddock/kube';
import { discoveryService, type ServiceObject, type ServiceResource } from './endpoints.js';

/**
 * The namespace's Services as discovery addresses them, listed only when one of the handlers
 * needs them (a selector or a serviceRef); else none, with no request. Throws what the API server
 * answered: a serviceRef still resolves by its DNS name without the list, so callers decide.
 */
export async function namespaceServices(
  kube: Kube,
  namespace: string,
  handlers: readonly ToolHandler[],
): Promise<ServiceObject[]> {
  const needed = handlers.some(
    (handler) => handler.selector !== undefined || handler.endpoint?.serviceRef !== undefined,
  );
  if (!needed) return [];
  const list = await kube
    .resource<KubeObject & ServiceResource>(CORE_KINDS.service)
    .listAll({ namespace });
  return list.items.map(discoveryService);
}
