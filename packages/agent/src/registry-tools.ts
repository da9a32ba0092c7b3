// The workspace's ToolRegistries as tools of the model: the tools their status says Available,
// discovered again here for their schemas and addresses, and called with their handler's protocol.
import { KINDS, type Kube, type ToolHandler, type ToolRegistry } from '@paddock/kube';
import {
  discoverHandlerTools,
  errorMessage,
  namespaceServices,
  ToolCaller,
  type CallableTool,
  type ServiceObject,
} from '@paddock/tool-handlers';
import type { AgentTool, ToolResult } from './tools.js';

/** Tool names the model accepts: OpenAI's ^[a-zA-Z0-9_-]{1,64}$, which Anthropic's admits too. */
export const MAX_TOOL_NAME_LENGTH = 64;
/** The registry's share of a name cut to fit, so the tool's own name stays readable. */
export const MAX_REGISTRY_NAME_PART = 20;
/** Registry tools offered at most (providers bound a request's tools; the sandbox has nine). */
export const MAX_REGISTRY_TOOLS = 100;
/** A tool description given to the model is cut to this many characters. */
export const MAX_DESCRIPTION_LENGTH = 1024;

const toolRegistryKind = KINDS.find((kind) => kind.kind === 'ToolRegistry')!;

export interface RegistryToolsOptions {
  kube: Kube;
  /** The workspace namespace: its ToolRegistries and Services. */
  namespace: string;
  /**
   * mcp stdio handlers are never run by the agent: anyone who can edit a ToolRegistry would choose
   * a command run in the agent's pod.
   */
  allowStdio?: false;
  /** Whether a serviceRef may name a Service in another namespace (as the operator's option). */
  allowCrossNamespace?: boolean;
  /** Stops the discovery. */
  signal?: AbortSignal;
}

export interface RegistryTools {
  tools: AgentTool[];
  /** Why tools the status says Available are not offered, one line each. */
  problems: string[];
  /** Ends the MCP sessions the tools keep open. */
  close(): Promise<void>;
}

/** A registry tool before it is named for the model. */
interface Found {
  registry: string;
  callable: CallableTool;
}

/**
 * The Available tools of the namespace's ToolRegistries as tools of the model, named
 * `<registry>__<tool>`. A registry or handler that cannot be read or discovered contributes no
 * tools and a line in `problems`; only the signal makes this reject.
 */
export async function registryTools(options: RegistryToolsOptions): Promise<RegistryTools> {
  const { kube, namespace, signal } = options;
  const problems: string[] = [];
  let registries: ToolRegistry[];
  try {
    registries = (
      await kube.resource<ToolRegistry>(toolRegistryKind).listAll({ namespace })
    ).items.sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  } catch (error) {
    signal?.throwIfAborted();
    return noTools([`the ToolRegistries could not be listed: ${errorMessage(error)}`]);
  }
  const wanted = registries.flatMap((registry) =>
    registry.spec.handlers
      .filter((handler) => availableTools(registry, handler.name).size > 0)
      .map((handler) => ({ registry, handler })),
  );
  if (wanted.length === 0) return noTools(problems);

  const services = await listServices(kube, namespace, wanted, problems);
  const discovered = await abortable(
    Promise.all(
      wanted.map(async ({ registry, handler }) =>
        discoverOffered(registry, handler, { namespace, services, options }),
      ),
    ),
    signal,
  );
  const found = discovered.flatMap((result) => {
    problems.push(...result.problems);
    return result.found;
  });
  if (found.length > MAX_REGISTRY_TOOLS) {
    problems.push(
      `${found.length} registry tools are Available; only the first ${MAX_REGISTRY_TOOLS} are offered`,
    );
  }
  const offered = found.slice(0, MAX_REGISTRY_TOOLS);
  const names = modelToolNames(
    offered.map((f) => ({ registry: f.registry, tool: f.callable.name })),
  );
  const caller = new ToolCaller({ allowStdio: false });
  const tools = offered.map((f, index): AgentTool => ({
    name: names[index]!,
    description: f.callable.description.slice(0, MAX_DESCRIPTION_LENGTH),
    inputSchema: f.callable.inputSchema,
    call: (args, callSignal) => callRegistryTool(caller, f.callable, args, callSignal),
  }));
  return { tools, problems, close: () => caller.close() };
}

/**
 * Names for the model, in the order given: `<registry>__<tool>` with every character outside
 * [A-Za-z0-9_-] made `_`, cut to MAX_TOOL_NAME_LENGTH (the registry to MAX_REGISTRY_NAME_PART
 * first, then the tool), and a `_2`, `_3`… suffix on a name already given.
 */
export function modelToolNames(entries: readonly { registry: string; tool: string }[]): string[] {
  const given = new Set<string>();
  return entries.map(({ registry, tool }) => {
    const registryPart = sanitized(registry);
    const toolPart = sanitized(tool);
    const keep = Math.min(
      registryPart.length,
      Math.max(MAX_REGISTRY_NAME_PART, MAX_TOOL_NAME_LENGTH - 2 - toolPart.length),
    );
    const base = `${registryPart.slice(0, keep)}__${toolPart}`.slice(0, MAX_TOOL_NAME_LENGTH);
    let name = base;
    for (let n = 2; given.has(name); n++) {
      const suffix = `_${n}`;
      name = base.slice(0, MAX_TOOL_NAME_LENGTH - suffix.length) + suffix;
    }
    given.add(name);
    return name;
  });
}

function sanitized(text: string): string {
  const replaced = text.replace(/[^A-Za-z0-9_-]/g, '_');
  return replaced === '' ? '_' : replaced;
}

/** The names of a handler's tools that the registry's status says are Available. */
function availableTools(registry: ToolRegistry, handlerName: string): Set<string> {
  return new Set(
    (registry.status?.discoveredTools ?? [])
      .filter((tool) => tool.handlerName === handlerName && tool.status === 'Available')
      .map((tool) => tool.name),
  );
}

async function discoverOffered(
  registry: ToolRegistry,
  handler: ToolHandler,
  context: {
    namespace: string;
    services: readonly ServiceObject[];
    options: RegistryToolsOptions;
  },
): Promise<{ found: Found[]; problems: string[] }> {
  const registryName = registry.metadata.name ?? '';
  const where = `ToolRegistry ${registryName}, handler ${handler.name}`;
  if (handler.type === 'mcp' && handler.mcpConfig?.transport === 'stdio') {
    return { found: [], problems: [`${where}: mcp stdio handlers are not run by the agent`] };
  }
  const offered = availableTools(registry, handler.name);
  const result = await discoverHandlerTools(handler, {
    namespace: context.namespace,
    services: context.services,
    allowCrossNamespace: context.options.allowCrossNamespace === true,
    allowStdio: false,
  });
  const problems = result.tools
    .filter((report) => report.status !== 'Available' && offered.has(report.name))
    .map((report) => `${where}: ${report.name}: ${report.error ?? report.status}`);
  const callable = result.callable.filter((tool) => offered.has(tool.name));
  const missing = [...offered].filter(
    (name) =>
      !callable.some((tool) => tool.name === name) &&
      !result.tools.some((report) => report.name === name && report.status !== 'Available'),
  );
  if (missing.length > 0) problems.push(`${where}: no longer offers ${missing.join(', ')}`);
  // The status marks a name offered twice Unavailable on the later handler, so names stay unique.
  return { found: callable.map((tool) => ({ registry: registryName, callable: tool })), problems };
}

/** The namespace's Services, when a handler needs them (selectors and serviceRefs). */
async function listServices(
  kube: Kube,
  namespace: string,
  wanted: readonly { handler: ToolHandler }[],
  problems: string[],
): Promise<ServiceObject[]> {
  try {
    return await namespaceServices(
      kube,
      namespace,
      wanted.map(({ handler }) => handler),
    );
  } catch (error) {
    // A serviceRef still resolves by DNS; only selectors find nothing.
    problems.push(`the Services could not be listed: ${errorMessage(error)}`);
    return [];
  }
}

async function callRegistryTool(
  caller: ToolCaller,
  tool: CallableTool,
  args: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  try {
    return await caller.call(tool.target, args, { signal });
  } catch (error) {
    // Cancellation is the caller's to report; anything else is the model's answer.
    if (signal.aborted) throw error;
    return { text: `${tool.name} failed: ${errorMessage(error)}`, isError: true };
  }
}

function noTools(problems: string[]): RegistryTools {
  return { tools: [], problems, close: () => Promise.resolve() };
}

/** The promise, or the signal's reason when it aborts first. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
