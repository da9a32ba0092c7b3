import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kube, ToolRegistry } from '@paddock/kube';
import {
  callTool,
  errorMessage,
  namespaceServices,
  type ServiceObject,
} from '@paddock/tool-handlers';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '../auth/permissions.js';
import {
  discoverRegistry,
  ToolDiscoveries,
  type RegistryDiscovery,
} from '../workspaces/tool-discovery.js';
import { mayAct } from '../workspaces/views.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { CLUSTER_ERRORS, operation, WORKSPACE_ERRORS } from './operation.js';
import { answer, wrapped } from './schemas/common.js';
import { RegistryName } from './schemas/tool-registries.js';
import { RegistryTools, ToolCall, ToolCallResult, ToolName, ToolsQuery } from './schemas/tools.js';
import { inCluster, requestedWorkspace, TOOL_REGISTRY_KIND } from './workspace-routes.js';

/** A tool call's body: its arguments, as small as the dashboard's other bodies. */
export const MAX_TOOL_CALL_BODY_BYTES = 64 * 1024;

/**
 * A registry's tools discovered live (description, input schema, endpoint, status) and a tool
 * tried from the dashboard, with the same discovery and calls the agent makes (@paddock/tool-handlers).
 * mcp stdio handlers are never run here: their command is whatever an editor wrote.
 */
export function registerToolRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const discoveries = new ToolDiscoveries(ctx.now);

  /** The registry, and its tools as discovered in the last seconds (or now when `fresh`). */
  const discovered = async (
    req: FastifyRequest & { params: { name: string; registry: string } },
    fresh: boolean,
  ): Promise<RegistryDiscovery> => {
    const used = requestedWorkspace(req, ctx);
    const namespace = used.workspace.spec.namespace.name;
    const kube = await inCluster('a workspace token', () => used.cluster());
    const registry = await inCluster(`tool registry "${req.params.registry}"`, () =>
      kube.resource<ToolRegistry>(TOOL_REGISTRY_KIND).get(req.params.registry, namespace),
    );
    return discoveries.get(
      namespace,
      registry,
      async () =>
        discoverRegistry(registry, {
          namespace,
          services: await servicesFor(kube, namespace, registry),
          now: ctx.now,
        }),
      fresh,
    );
  };

  api.get(
    '/api/workspaces/:name/toolregistries/:registry/tools',
    {
      schema: operation(
        {
          operationId: 'listRegistryTools',
          summary: 'The tools of a tool registry, discovered live',
          description:
            'Discovers the registry’s handlers now (or reuses a discovery of the last seconds) ' +
            'and answers each tool with its description, input schema, endpoint and status, and ' +
            'each handler with why it could not be reached. mcp stdio handlers are never run by ' +
            'the dashboard: their tools are listed from the status, without schema.',
          tag: 'tool registries',
          errors: [
            {
              forbidden: 'The dashboard role may not view workspaces.',
              not_found: 'No such tool registry.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        },
        {
          params: RegistryName,
          querystring: ToolsQuery,
          response: { 200: answer('The registry’s tools and handlers.', RegistryTools) },
        },
      ),
    },
    async (req) => {
      if (!can(req.principal.user.role, 'viewAgents')) {
        throw apiError('forbidden', 'you may not view workspaces');
      }
      const discovery = await discovered(req, req.query.refresh === true);
      return {
        registry: req.params.registry,
        tools: discovery.tools,
        handlers: discovery.handlers,
        discoveredAt: discovery.discoveredAt,
      };
    },
  );

  api.post(
    '/api/workspaces/:name/toolregistries/:registry/tools/:tool/call',
    {
      bodyLimit: MAX_TOOL_CALL_BODY_BYTES,
      schema: operation(
        {
          operationId: 'callRegistryTool',
          summary: 'Try a tool of a tool registry',
          description:
            'Calls the tool with the arguments, through its handler’s protocol and timeout, as ' +
            'an agent would, and answers what it returned and how long it took. A tool that ' +
            'fails answers 200 with `isError`. Needs the dashboard role editor or admin and the ' +
            'workspace role owner or editor. The call is logged with its caller, never its ' +
            'argument values.',
          tag: 'tool registries',
          errors: [
            {
              invalid_request: 'arguments is not a JSON object.',
              forbidden:
                'The dashboard role or the workspace role does not allow trying tools (both must: editor or admin, and owner or editor).',
              not_found: 'No such tool registry, or it offers no tool of that name.',
              payload_too_large: `The body is over ${MAX_TOOL_CALL_BODY_BYTES} bytes.`,
              bad_gateway:
                'The tool’s handler could not be reached, or the tool is not callable from the dashboard (mcp stdio); the message says why.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        },
        {
          params: ToolName,
          body: ToolCall,
          response: { 200: answer('What the tool answered.', wrapped('result', ToolCallResult)) },
        },
      ),
    },
    async (req, reply) => {
      const used = requestedWorkspace(req, ctx);
      if (!mayAct(req.principal.user.role, used.role, 'modifyTools')) {
        throw apiError(
          'forbidden',
          `your role (${req.principal.user.role} of the dashboard, ${used.role} of the workspace) does not allow trying tools`,
        );
      }
      const { registry, tool: name } = req.params;
      const discovery = await discovered(req, false);
      const tool = discovery.callable.get(name);
      if (tool === undefined) {
        const known = discovery.tools.find((t) => t.name === name);
        if (known === undefined) {
          throw apiError('not_found', `tool registry "${registry}" offers no tool "${name}"`);
        }
        throw apiError(
          'bad_gateway',
          `tool "${name}" of handler "${known.handlerName}" cannot be called: ${known.error ?? known.status}`,
        );
      }
      // The browser going away stops the call.
      const stop = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) stop.abort(new Error('the caller went away'));
      });
      const started = ctx.now();
      const args = req.body.arguments;
      const result = await callTool(tool.target, args, { signal: stop.signal }).catch(
        (error: unknown) => ({ text: errorMessage(error), isError: true }),
      );
      const durationMs = Math.max(0, Math.round(ctx.now() - started));
      ctx.logger.info(
        {
          user: req.principal.user.username,
          workspace: used.workspace.metadata.name,
          registry,
          handler: tool.handlerName,
          tool: name,
          // The names only: values may be secrets.
          argumentNames: Object.keys(args).slice(0, 32),
          isError: result.isError,
          durationMs,
        },
        'tool called from the dashboard',
      );
      return {
        result: {
          tool: name,
          handlerName: tool.handlerName,
          text: result.text,
          isError: result.isError,
          durationMs,
        },
      };
    },
  );
}

/** The namespace's Services when a handler needs them; none when they cannot be listed. */
async function servicesFor(
  kube: Kube,
  namespace: string,
  registry: ToolRegistry,
): Promise<ServiceObject[]> {
  // A serviceRef still resolves by its DNS name; only selectors then find nothing.
  return namespaceServices(kube, namespace, registry.spec.handlers).catch(() => []);
}
