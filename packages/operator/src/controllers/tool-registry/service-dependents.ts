import type { ToolRegistry } from '@paddock/kube';
import type { Service } from './service-address.js';

/** Whether discovering the registry reads the Service: through a selector or a serviceRef. */
export function registryUsesService(registry: ToolRegistry, service: Service): boolean {
  const namespace = registry.metadata.namespace;
  const serviceNamespace = service.metadata?.namespace;
  return registry.spec.handlers.some((handler) => {
    if (handler.selector !== undefined && handler.endpoint === undefined) {
      return serviceNamespace === namespace;
    }
    const ref = handler.endpoint?.serviceRef;
    return (
      ref !== undefined &&
      ref.name === service.metadata?.name &&
      (ref.namespace ?? namespace) === serviceNamespace
    );
  });
}

/**
 * The Services a registry's discovery may read: those of its namespace (selectors and serviceRefs)
 * and those its serviceRefs name in other namespaces (refused later unless allowed).
 */
export function servicesFor(registry: ToolRegistry, services: readonly Service[]): Service[] {
  const namespace = registry.metadata.namespace;
  const elsewhere = new Set(
    registry.spec.handlers.flatMap((handler) => {
      const ref = handler.endpoint?.serviceRef;
      return ref?.namespace !== undefined && ref.namespace !== namespace
        ? [`${ref.namespace}/${ref.name}`]
        : [];
    }),
  );
  return services.filter(
    (service) =>
      service.metadata?.namespace === namespace ||
      elsewhere.has(`${service.metadata?.namespace ?? ''}/${service.metadata?.name ?? ''}`),
  );
}
