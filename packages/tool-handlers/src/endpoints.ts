import {
  ANNOTATION_TOOL_DESCRIPTION,
  ANNOTATION_TOOL_PATH,
  ANNOTATION_TOOL_TYPE,
  LABEL_TOOL,
  type ToolHandler,
} from '@paddock/kube';

/** The parts of a core/v1 Service that endpoint resolution reads. */
export interface ServiceObject {
  metadata: {
    name?: string | undefined;
    namespace?: string | undefined;
    labels?: Record<string, string> | undefined;
    annotations?: Record<string, string> | undefined;
  };
  spec?: { clusterIP?: string | undefined; ports?: { port: number }[] | undefined } | undefined;
}

export type HandlerType = ToolHandler['type'];

export type EndpointResolution =
  { ok: true; url: string } | { ok: false; reason: string; refused: boolean };

export interface EndpointOptions {
  /** The ToolRegistry's namespace, the default of a serviceRef's. */
  namespace: string;
  /** Whether a serviceRef may name a Service in another namespace. */
  allowCrossNamespace?: boolean;
  /** The referenced Service when the caller has it: its clusterIP is used instead of DNS. */
  service?: ServiceObject | undefined;
}

/** The URL a handler's endpoint designates (host:port for grpc is given as http://host:port). */
export function resolveEndpoint(
  endpoint: ToolHandler['endpoint'],
  options: EndpointOptions,
): EndpointResolution {
  if (endpoint?.url !== undefined && endpoint.url !== '') return { ok: true, url: endpoint.url };
  const ref = endpoint?.serviceRef;
  if (ref === undefined)
    return { ok: false, reason: 'no endpoint url or serviceRef', refused: false };
  const namespace = ref.namespace ?? options.namespace;
  if (namespace !== options.namespace && options.allowCrossNamespace !== true) {
    return {
      ok: false,
      refused: true,
      reason: `serviceRef ${namespace}/${ref.name} is in another namespace than the ToolRegistry (${options.namespace}) and cross-namespace references are not allowed`,
    };
  }
  const clusterIP = options.service?.spec?.clusterIP;
  // A headless Service has no cluster address: its DNS name is the way in.
  const host =
    clusterIP !== undefined && clusterIP !== '' && clusterIP !== 'None'
      ? clusterIP
      : `${ref.name}.${namespace}.svc`;
  return { ok: true, url: `http://${host}:${ref.port}` };
}

/** One Service found by a selector, as the tool it offers. */
export interface SelectedTool {
  serviceName: string;
  description: string;
  path: string;
  type: HandlerType;
  /** The Service's address and first port, plus the tool path. */
  url: string;
}

const HANDLER_TYPES: readonly HandlerType[] = ['http', 'grpc', 'mcp', 'openapi'];

/**
 * The Services of `namespace` labelled as tools and carrying every extra label of the selector,
 * sorted by name so the result is stable between passes.
 */
export function selectServices(
  services: readonly ServiceObject[],
  namespace: string,
  matchLabels: Record<string, string> = {},
): SelectedTool[] {
  const wanted: Record<string, string> = { ...matchLabels, [LABEL_TOOL]: 'true' };
  return services
    .filter((service) => (service.metadata.namespace ?? namespace) === namespace)
    .filter((service) =>
      Object.entries(wanted).every(([key, value]) => service.metadata.labels?.[key] === value),
    )
    .flatMap((service) => {
      const name = service.metadata.name;
      return name === undefined ? [] : [toSelectedTool(service, name, namespace)];
    })
    .sort((a, b) => a.serviceName.localeCompare(b.serviceName));
}

function toSelectedTool(service: ServiceObject, name: string, namespace: string): SelectedTool {
  const annotations = service.metadata.annotations ?? {};
  const rawPath = annotations[ANNOTATION_TOOL_PATH] ?? '/';
  const path = rawPath.startsWith('/') ? rawPath : `/${rawPath}`;
  const rawType = annotations[ANNOTATION_TOOL_TYPE] as HandlerType | undefined;
  const type = rawType !== undefined && HANDLER_TYPES.includes(rawType) ? rawType : 'http';
  const port = service.spec?.ports?.[0]?.port ?? 80;
  const base = resolveEndpoint({ serviceRef: { name, namespace, port } }, { namespace, service });
  const url = base.ok ? `${base.url}${path}` : '';
  return {
    serviceName: name,
    description: annotations[ANNOTATION_TOOL_DESCRIPTION] ?? name,
    path,
    type,
    url,
  };
}

/** The Service a handler's serviceRef names, among those the caller listed. */
export function referencedService(
  endpoint: ToolHandler['endpoint'],
  namespace: string,
  services: readonly ServiceObject[] = [],
): ServiceObject | undefined {
  const ref = endpoint?.serviceRef;
  if (ref === undefined) return undefined;
  const wanted = ref.namespace ?? namespace;
  return services.find(
    (service) =>
      service.metadata.name === ref.name && (service.metadata.namespace ?? namespace) === wanted,
  );
}

/** A core/v1 Service as the API server returns it, as much of it as discovery reads. */
export interface ServiceResource {
  metadata?:
    | {
        name?: string | undefined;
        namespace?: string | undefined;
        labels?: Record<string, string> | undefined;
        annotations?: Record<string, string> | undefined;
      }
    | undefined;
  spec?:
    | {
        type?: string | undefined;
        clusterIP?: string | undefined;
        externalName?: string | undefined;
        ports?: { name?: string | undefined; port: number }[] | undefined;
      }
    | undefined;
}

/**
 * The Service as discovery addresses it. An ExternalName Service is only a DNS alias of its
 * external name, so it is reached at that name directly: it works the same from inside and from
 * outside the cluster, and it is how a Service can point at a server the cluster does not run (a
 * local one, for instance). Other Services are reached at their cluster address.
 */
export function discoveryService(service: ServiceResource): ServiceObject {
  const spec = service.spec;
  const external =
    spec?.type === 'ExternalName' && spec.externalName !== undefined && spec.externalName !== ''
      ? spec.externalName
      : undefined;
  return {
    metadata: {
      name: service.metadata?.name,
      namespace: service.metadata?.namespace,
      labels: service.metadata?.labels,
      annotations: service.metadata?.annotations,
    },
    spec: {
      clusterIP: external ?? spec?.clusterIP,
      ports: spec?.ports?.map((p) => ({ port: p.port })),
    },
  };
}
