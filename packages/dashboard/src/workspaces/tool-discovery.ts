// A ToolRegistry's tools as its members see them: discovered live, with the same discovery the
// operator and the agent use, for each tool's description and input schema (the status has
// neither), and kept briefly so that a page and its "try it" calls do not ask every handler again.
import type { ToolHandler, ToolRegistry } from '@paddock/kube';
import {
  discoverHandlerTools,
  type CallableTool,
  type HandlerTools,
  type ServiceObject,
} from '@paddock/tool-handlers';

/** How long a discovery is reused: long enough for a page and its calls, short enough to be live. */
export const TOOL_DISCOVERY_TTL_MS = 15_000;
/**
 * A discovery asked afresh still reuses one this young: anyone who may view the workspace can ask,
 * and each discovery reaches every handler.
 */
export const MIN_REDISCOVERY_MS = 2_000;
/** Registries whose discovery is kept at once; the oldest goes first. */
export const MAX_CACHED_DISCOVERIES = 64;

/** Why the dashboard shows a stdio handler's tools without discovering them. */
export const STDIO_NOT_RUN =
  'mcp stdio handlers are never run by the dashboard: their description and schema are not shown, and they cannot be tried here';

export type ToolStatus = 'Available' | 'Unavailable' | 'Unknown';

/** One tool of a registry, as discovered now. */
export interface DiscoveredToolView {
  handlerName: string;
  name: string;
  status: ToolStatus;
  endpoint: string | null;
  error: string | null;
  description: string | null;
  /** The JSON Schema of its arguments; null when it could not be discovered. */
  inputSchema: Record<string, unknown> | null;
  /** Whether the dashboard can call it (Available, discovered, not a stdio handler's). */
  callable: boolean;
}

/** One handler of a registry: whether its discovery reached it, and why not. */
export interface HandlerView {
  name: string;
  type: ToolHandler['type'];
  /** reached: at least one tool discovered Available; failed: none; skipped: not run here. */
  state: 'reached' | 'failed' | 'skipped';
  error: string | null;
}

export interface RegistryDiscovery {
  tools: DiscoveredToolView[];
  handlers: HandlerView[];
  /** ISO time of the discovery. */
  discoveredAt: string;
  /** The callable tools by name (the first handler offering a name wins, as in status). */
  callable: ReadonlyMap<string, CallableTool>;
}

export interface DiscoverOptions {
  namespace: string;
  /** The namespace's Services, for selectors and serviceRefs. */
  services: readonly ServiceObject[];
  now: () => number;
}

/** Discovers every handler of the registry at once; a stdio handler is reported, never run. */
export async function discoverRegistry(
  registry: ToolRegistry,
  options: DiscoverOptions,
): Promise<RegistryDiscovery> {
  const results = await Promise.all(
    registry.spec.handlers.map(async (handler) =>
      isStdio(handler)
        ? { handler, found: undefined }
        : {
            handler,
            found: await discoverHandlerTools(handler, {
              namespace: options.namespace,
              services: options.services,
              allowCrossNamespace: false,
              allowStdio: false,
            }),
          },
    ),
  );
  return registryDiscovery(registry, results, new Date(options.now()).toISOString());
}

function isStdio(handler: ToolHandler): boolean {
  return handler.type === 'mcp' && handler.mcpConfig?.transport === 'stdio';
}

/**
 * The view of a registry from what each handler's discovery found (undefined: not run, its tools
 * taken from the status). Pure: table-tested.
 */
export function registryDiscovery(
  registry: ToolRegistry,
  results: readonly { handler: ToolHandler; found: HandlerTools | undefined }[],
  discoveredAt: string,
): RegistryDiscovery {
  const tools: DiscoveredToolView[] = [];
  const handlers: HandlerView[] = [];
  const callable = new Map<string, CallableTool>();
  const offeredBy = new Map<string, string>();
  for (const { handler, found } of results) {
    if (found === undefined) {
      handlers.push({
        name: handler.name,
        type: handler.type,
        state: 'skipped',
        error: STDIO_NOT_RUN,
      });
      for (const known of registry.status?.discoveredTools ?? []) {
        if (known.handlerName !== handler.name) continue;
        tools.push({
          handlerName: handler.name,
          name: known.name,
          status: known.status ?? 'Unknown',
          endpoint: known.endpoint ?? null,
          error: STDIO_NOT_RUN,
          description: null,
          inputSchema: null,
          callable: false,
        });
      }
      continue;
    }
    const schemas = new Map(found.callable.map((tool) => [tool.name, tool]));
    for (const report of found.tools) {
      const tool = report.status === 'Available' ? schemas.get(report.name) : undefined;
      const first = offeredBy.get(report.name);
      const duplicate = first !== undefined && tool !== undefined;
      if (tool !== undefined && !duplicate) {
        offeredBy.set(report.name, handler.name);
        callable.set(report.name, tool);
      }
      tools.push({
        handlerName: handler.name,
        name: report.name,
        status: duplicate ? 'Unavailable' : report.status,
        endpoint: report.endpoint ?? null,
        error: duplicate
          ? `duplicate tool name: already offered by handler ${first}`
          : (report.error ?? null),
        description: tool?.description ?? null,
        inputSchema: tool?.inputSchema ?? null,
        callable: tool !== undefined && !duplicate,
      });
    }
    const reached = found.tools.some((report) => report.status === 'Available');
    handlers.push({
      name: handler.name,
      type: handler.type,
      state: reached ? 'reached' : 'failed',
      error: reached
        ? null
        : (found.tools.find((report) => report.error !== undefined)?.error ??
          'the handler offers no tools'),
    });
  }
  return { tools, handlers, discoveredAt, callable };
}

interface Entry {
  /** The registry's generation when discovered: a changed spec is discovered again. */
  generation: number | undefined;
  at: number;
  discovery: Promise<RegistryDiscovery>;
}

/**
 * Discoveries kept for TOOL_DISCOVERY_TTL_MS per registry, at most MAX_CACHED_DISCOVERIES of
 * them. Concurrent requests for one registry share one discovery.
 */
export class ToolDiscoveries {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly now: () => number,
    private readonly ttlMs = TOOL_DISCOVERY_TTL_MS,
    private readonly max = MAX_CACHED_DISCOVERIES,
  ) {}

  /**
   * The registry's discovery: the kept one while younger than the TTL (MIN_REDISCOVERY_MS when
   * `fresh` is asked) and of the same spec, else a new one.
   */
  get(
    namespace: string,
    registry: ToolRegistry,
    discover: () => Promise<RegistryDiscovery>,
    fresh = false,
  ): Promise<RegistryDiscovery> {
    const key = `${namespace}/${registry.metadata.name}`;
    const generation = registry.metadata.generation;
    const kept = this.entries.get(key);
    const now = this.now();
    const maxAge = fresh ? Math.min(MIN_REDISCOVERY_MS, this.ttlMs) : this.ttlMs;
    if (kept && kept.generation === generation && now - kept.at < maxAge) {
      return kept.discovery;
    }
    const discovery = discover();
    this.entries.delete(key);
    this.entries.set(key, { generation, at: now, discovery });
    // A failed discovery is not kept: the next request tries again.
    discovery.catch(() => {
      if (this.entries.get(key)?.discovery === discovery) this.entries.delete(key);
    });
    while (this.entries.size > this.max) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    return discovery;
  }
}
