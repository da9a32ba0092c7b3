import type { ToolHandler } from '@paddock/kube';
import {
  referencedService,
  resolveEndpoint,
  selectServices,
  type SelectedTool,
} from '../endpoints.js';
import { errorMessage } from '../error-message.js';
import { mcpEndpoint, type McpAddress } from '../mcp-connection.js';
import { handlerRetries, withRetries } from '../timeouts.js';
import type {
  DiscoveryContext,
  Found,
  HandlerDiscovery,
  HandlerTools,
  ToolReport,
} from './context.js';
import { discoverGrpc } from './grpc.js';
import { discoverHttp } from './http.js';
import { discoverMcp } from './mcp.js';
import { discoverOpenApi } from './openapi.js';

export type { DiscoveryContext, HandlerDiscovery, HandlerTools, ToolReport } from './context.js';

/**
 * Discovers one handler's tools and their health, with the handler's timeout and retries. Never
 * rejects: a handler that cannot be reached is reported as one Unavailable (or, when it was not
 * even tried, Unknown) tool carrying the reason, so it still shows in status.
 */
export async function discoverHandler(
  handler: ToolHandler,
  context: DiscoveryContext,
): Promise<HandlerDiscovery> {
  const { handlerName, tools } = await discoverHandlerTools(handler, context);
  return { handlerName, tools };
}

/**
 * As discoverHandler, with each Available tool's description, input schema and call target in
 * `callable`, in the order of the reports.
 */
export async function discoverHandlerTools(
  handler: ToolHandler,
  context: DiscoveryContext,
): Promise<HandlerTools> {
  let found: Found;
  try {
    found =
      handler.selector !== undefined && handler.endpoint === undefined
        ? await discoverSelected(handler, context)
        : await discoverOne(handler, context);
  } catch (error) {
    found = [{ report: failed(handler, 'Unavailable', error) }];
  }
  return {
    handlerName: handler.name,
    tools: found.map((entry) => entry.report),
    callable: found.flatMap((entry) => (entry.callable === undefined ? [] : [entry.callable])),
  };
}

async function discoverOne(handler: ToolHandler, context: DiscoveryContext): Promise<Found> {
  const attempts = handlerRetries(handler) + 1;
  const tryIt = async (run: () => Promise<Found>, endpoint: string | undefined): Promise<Found> => {
    try {
      return await withRetries(attempts, run);
    } catch (error) {
      return [{ report: failed(handler, 'Unavailable', error, endpoint) }];
    }
  };

  if (handler.type === 'openapi') {
    return tryIt(() => discoverOpenApi(handler), handler.openAPIConfig?.specURL);
  }
  if (handler.type === 'mcp') {
    const address = mcpAddress(handler, context);
    if ('unknown' in address) return [{ report: failed(handler, 'Unknown', address.unknown) }];
    return tryIt(() => discoverMcp(handler, address), mcpEndpoint(address));
  }
  const endpoint = resolveEndpoint(handler.endpoint, {
    namespace: context.namespace,
    allowCrossNamespace: context.allowCrossNamespace ?? false,
    service: referencedService(handler.endpoint, context.namespace, context.services),
  });
  if (!endpoint.ok) return [{ report: failed(handler, 'Unknown', endpoint.reason) }];
  const discover = handler.type === 'grpc' ? discoverGrpc : discoverHttp;
  return tryIt(() => discover(handler, endpoint.url), endpoint.url);
}

/** Each selected Service is discovered as a handler of its annotated type, at its address. */
async function discoverSelected(handler: ToolHandler, context: DiscoveryContext): Promise<Found> {
  const selected = selectServices(
    context.services ?? [],
    context.namespace,
    handler.selector?.matchLabels,
  );
  const found = await Promise.all(
    selected.map((service) => discoverOne(selectedHandler(handler, service), context)),
  );
  return found.flat();
}

function selectedHandler(handler: ToolHandler, service: SelectedTool): ToolHandler {
  const { selector: _selector, ...rest } = handler;
  return {
    ...rest,
    type: service.type,
    endpoint: { url: service.url },
    tool: {
      name: service.serviceName,
      description: service.description,
      inputSchema: handler.tool?.inputSchema ?? { type: 'object' },
    },
    ...(service.type === 'mcp' ? { mcpConfig: { transport: 'sse', endpoint: service.url } } : {}),
    ...(service.type === 'openapi'
      ? { openAPIConfig: { ...handler.openAPIConfig, specURL: service.url } }
      : {}),
  };
}

function mcpAddress(
  handler: ToolHandler,
  context: DiscoveryContext,
): McpAddress | { unknown: string } {
  const config = handler.mcpConfig;
  if (config?.transport === 'stdio') {
    if (context.allowStdio !== true) {
      return {
        unknown:
          'mcp stdio handlers are not run: the operator option that allows running their command is off',
      };
    }
    if (config.command === undefined) return { unknown: 'mcpConfig.command is missing' };
    return {
      transport: 'stdio',
      command: config.command,
      args: config.args ?? [],
      ...(config.workDir === undefined ? {} : { workDir: config.workDir }),
      ...(config.env === undefined ? {} : { env: config.env }),
    };
  }
  if (config?.endpoint !== undefined && config.endpoint !== '') {
    return { transport: 'http', url: config.endpoint };
  }
  const endpoint = resolveEndpoint(handler.endpoint, {
    namespace: context.namespace,
    allowCrossNamespace: context.allowCrossNamespace ?? false,
    service: referencedService(handler.endpoint, context.namespace, context.services),
  });
  return endpoint.ok ? { transport: 'http', url: endpoint.url } : { unknown: endpoint.reason };
}

function failed(
  handler: ToolHandler,
  status: 'Unavailable' | 'Unknown',
  error: unknown,
  endpoint?: string,
): ToolReport {
  return {
    handlerName: handler.name,
    name: handler.tool?.name ?? handler.name,
    status,
    ...(endpoint === undefined ? {} : { endpoint }),
    error: typeof error === 'string' ? error : errorMessage(error),
  };
}
