import { PassThrough, type Readable } from 'node:stream';
import {
  CORE_KINDS,
  KINDS,
  LABEL_AGENT,
  type AgentRuntime,
  type Kube,
  type KubeEvent,
  type PromptPack,
  type ToolRegistry,
} from '@paddock/kube';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { can } from '../auth/permissions.js';
import { subjectOf } from '../workspaces/access.js';
import { fromCluster } from '../workspaces/cluster-errors.js';
import { workspaceFor, type WorkspaceInUse } from '../workspaces/service.js';
import {
  agentView,
  eventView,
  podView,
  promptPackView,
  toolRegistryView,
  workspaceDetails,
  workspaceSummary,
  type PodObject,
} from '../workspaces/views.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import {
  CLUSTER_ERRORS,
  operation,
  PAGING_ERRORS,
  WORKSPACE_ERRORS,
  type Errors,
} from './operation.js';
import { pageOf } from './paging.js';
import { AgentDetails, AgentName, Agent, Event, LogQuery } from './schemas/agents.js';
import { answer, page as listOf, Paging, wrapped } from './schemas/common.js';
import { PromptPack as PromptPackView } from './schemas/prompt-packs.js';
import { ToolRegistry as ToolRegistryView } from './schemas/tool-registries.js';
import { WorkspaceDetails, WorkspaceName, WorkspaceSummary } from './schemas/workspaces.js';

const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;
export const AGENT_KIND = kindOf('AgentRuntime');
export const PROMPT_PACK_KIND = kindOf('PromptPack');
export const TOOL_REGISTRY_KIND = kindOf('ToolRegistry');

/** The `{name}` workspace of a request, as its user may use it. */
export function requestedWorkspace(
  req: FastifyRequest & { params: { name: string } },
  ctx: DashboardContext,
): WorkspaceInUse {
  return workspaceFor(ctx.workspaces, req.principal, req.params.name, new Date(ctx.now()));
}

/** Runs a cluster call for a request, its failures as the dashboard's errors. */
export async function inCluster<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromCluster(err, what);
  }
}

function page<T>(items: T[], query: { limit?: number; offset?: number }) {
  const { limit, offset } = pageOf(query);
  return { items: items.slice(offset, offset + limit), total: items.length, limit, offset };
}

const VIEWERS_ONLY: Errors = { forbidden: 'The dashboard role may not view workspaces.' };

async function agentPods(kube: Kube, namespace: string, agent: string): Promise<PodObject[]> {
  const pods = await kube
    .resource<PodObject>(CORE_KINDS.pod)
    .listAll({ namespace, labelSelector: `${LABEL_AGENT}=${agent}` });
  return pods.items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/** The workspace endpoints that read: lists, details, logs and events. */
export function registerWorkspaceRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const requireView = (req: FastifyRequest) => {
    if (!can(req.principal.user.role, 'viewAgents')) {
      throw apiError('forbidden', 'you may not view workspaces');
    }
  };

  api.get(
    '/api/workspaces',
    {
      schema: operation(
        {
          operationId: 'listWorkspaces',
          summary: 'Your workspaces',
          description:
            'The workspaces the caller holds a role in (from group bindings, unexpired direct ' +
            'grants and anonymous access), with that role.',
          tag: 'workspaces',
          errors: [VIEWERS_ONLY, PAGING_ERRORS, { unavailable: 'No cluster is configured.' }],
        },
        {
          querystring: Paging,
          response: {
            200: answer('One page of workspaces.', listOf('workspaces', WorkspaceSummary)),
          },
        },
      ),
    },
    (req) => {
      requireView(req);
      if (ctx.workspaces === undefined) {
        throw apiError('unavailable', 'no cluster is configured, so there are no workspaces');
      }
      const found = ctx.workspaces.directory.accessible(
        subjectOf(req.principal),
        new Date(ctx.now()),
      );
      const { items, ...rest } = page(found, req.query);
      return {
        workspaces: items.map(({ workspace, role }) => workspaceSummary(workspace, role)),
        ...rest,
      };
    },
  );

  api.get(
    '/api/workspaces/:name',
    {
      schema: operation(
        {
          operationId: 'getWorkspace',
          summary: 'A workspace',
          description:
            'A workspace’s details: quotas, network policy, budgets and spending, member counts, ' +
            'conditions, what the caller may do there (`permissions`) and, for owners only, who ' +
            'has access (`access`).',
          tag: 'workspaces',
          errors: [VIEWERS_ONLY, WORKSPACE_ERRORS],
        },
        {
          params: WorkspaceName,
          response: { 200: answer('The workspace.', wrapped('workspace', WorkspaceDetails)) },
        },
      ),
    },
    (req) => {
      requireView(req);
      const { workspace, role } = requestedWorkspace(req, ctx);
      return {
        workspace: workspaceDetails(workspace, role, req.principal.user.role, new Date(ctx.now())),
      };
    },
  );

  api.get(
    '/api/workspaces/:name/agents',
    {
      schema: operation(
        {
          operationId: 'listAgents',
          summary: 'The agents of a workspace',
          description: 'The AgentRuntimes of the workspace’s namespace, by name.',
          tag: 'agents',
          errors: [VIEWERS_ONLY, PAGING_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
        },
        {
          params: WorkspaceName,
          querystring: Paging,
          response: { 200: answer('One page of agents.', listOf('agents', Agent)) },
        },
      ),
    },
    async (req) => {
      requireView(req);
      const used = requestedWorkspace(req, ctx);
      const namespace = used.workspace.spec.namespace.name;
      const agents = await inCluster('agents', async () =>
        (await used.cluster())
          .resource<AgentRuntime>(AGENT_KIND)
          .listAll({ namespace })
          .then((list) => list.items),
      );
      agents.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
      const { items, ...rest } = page(agents, req.query);
      return { agents: items.map(agentView), ...rest };
    },
  );

  api.get(
    '/api/workspaces/:name/agents/:agentName',
    {
      schema: operation(
        {
          operationId: 'getAgent',
          summary: 'An agent, with its pods',
          description: 'One AgentRuntime and the pods it runs, by name.',
          tag: 'agents',
          errors: [
            {
              ...VIEWERS_ONLY,
              invalid_request: 'agent is not a Kubernetes object name.',
              not_found: 'No such agent.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        },
        {
          params: AgentName,
          response: { 200: answer('The agent.', wrapped('agent', AgentDetails)) },
        },
      ),
    },
    async (req) => {
      requireView(req);
      const used = requestedWorkspace(req, ctx);
      const name = req.params.agentName;
      const namespace = used.workspace.spec.namespace.name;
      return inCluster(`agent "${name}"`, async () => {
        const kube = await used.cluster();
        const agent = await kube.resource<AgentRuntime>(AGENT_KIND).get(name, namespace);
        const pods = await agentPods(kube, namespace, name);
        return { agent: { ...agentView(agent), pods: pods.map(podView) } };
      });
    },
  );

  api.get(
    '/api/workspaces/:name/promptpacks',
    {
      schema: operation(
        {
          operationId: 'listPromptPacks',
          summary: 'The prompt packs of a workspace',
          description: 'The PromptPacks of the workspace’s namespace, by name.',
          tag: 'prompt packs',
          errors: [VIEWERS_ONLY, PAGING_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
        },
        {
          params: WorkspaceName,
          querystring: Paging,
          response: {
            200: answer('One page of prompt packs.', listOf('promptPacks', PromptPackView)),
          },
        },
      ),
    },
    async (req) => {
      requireView(req);
      const used = requestedWorkspace(req, ctx);
      const namespace = used.workspace.spec.namespace.name;
      const packs = await inCluster('prompt packs', async () =>
        (await used.cluster())
          .resource<PromptPack>(PROMPT_PACK_KIND)
          .listAll({ namespace })
          .then((list) => list.items),
      );
      packs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
      const { items, ...rest } = page(packs, req.query);
      return { promptPacks: items.map(promptPackView), ...rest };
    },
  );

  api.get(
    '/api/workspaces/:name/toolregistries',
    {
      schema: operation(
        {
          operationId: 'listToolRegistries',
          summary: 'The tool registries of a workspace',
          description: 'The ToolRegistries of the workspace’s namespace, by name.',
          tag: 'tool registries',
          errors: [VIEWERS_ONLY, PAGING_ERRORS, WORKSPACE_ERRORS, CLUSTER_ERRORS],
        },
        {
          params: WorkspaceName,
          querystring: Paging,
          response: {
            200: answer('One page of tool registries.', listOf('toolRegistries', ToolRegistryView)),
          },
        },
      ),
    },
    async (req) => {
      requireView(req);
      const used = requestedWorkspace(req, ctx);
      const namespace = used.workspace.spec.namespace.name;
      const registries = await inCluster('tool registries', async () =>
        (await used.cluster())
          .resource<ToolRegistry>(TOOL_REGISTRY_KIND)
          .listAll({ namespace })
          .then((list) => list.items),
      );
      registries.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
      const { items, ...rest } = page(registries, req.query);
      return { toolRegistries: items.map(toolRegistryView), ...rest };
    },
  );

  api.get(
    '/api/workspaces/:name/agents/:agentName/logs',
    {
      schema: operation(
        {
          operationId: 'getAgentLogs',
          summary: 'The log of an agent',
          description:
            'The log of one container of one of the agent’s pods, as plain text: the pod asked ' +
            'for, else the newest running one, else the newest; the container asked for, else the ' +
            'pod’s first. `x-pod` and `x-container` name the ones read. With `follow=true` the ' +
            'answer is streamed as the container writes, until the client leaves or the ' +
            'container ends.',
          tag: 'agents',
          errors: [
            {
              forbidden: 'The dashboard role may not view logs.',
              invalid_request:
                'agent, pod or container is not an object name, or tailLines, sinceSeconds, follow ' +
                'or timestamps is malformed.',
              not_found: 'The agent has no pods, no such pod, or the pod has no such container.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        },
        {
          params: AgentName,
          querystring: LogQuery,
          response: {
            200: {
              description: 'The log; streamed when `follow=true`.',
              headers: {
                'x-pod': { type: 'string', description: 'The pod read.' },
                'x-container': { type: 'string', description: 'The container read.' },
              },
              // Streamed when following: not serialized, passed on as the cluster sends it.
              content: { 'text/plain': { schema: Type.Unsafe<string | Readable>(Type.String()) } },
            },
          },
        },
      ),
    },
    async (req, reply) => {
      if (!can(req.principal.user.role, 'viewLogs')) {
        throw apiError('forbidden', 'you may not view logs');
      }
      const used = requestedWorkspace(req, ctx);
      const agent = req.params.agentName;
      const { query } = req;
      const { tailLines, sinceSeconds } = query;
      // `?follow` alone asks for it too.
      const follow = query.follow === true || query.follow === '';
      const timestamps = query.timestamps === true || query.timestamps === '';
      const namespace = used.workspace.spec.namespace.name;
      const kube = await inCluster('a workspace token', () => used.cluster());
      const pods = await inCluster(`the pods of agent "${agent}"`, () =>
        agentPods(kube, namespace, agent),
      );
      // The pod asked for, else the agent's newest running one, else its newest.
      const byStart = [...pods].sort((a, b) =>
        (b.status?.startTime ?? '').localeCompare(a.status?.startTime ?? ''),
      );
      const pod =
        typeof query.pod === 'string'
          ? pods.find((p) => p.metadata.name === query.pod)
          : (byStart.find((p) => p.status?.phase === 'Running') ?? byStart[0]);
      if (pod === undefined) {
        throw apiError(
          'not_found',
          typeof query.pod === 'string'
            ? `agent "${agent}" has no pod "${query.pod}"`
            : `agent "${agent}" has no pods`,
        );
      }
      const containers = (pod.spec?.containers ?? []).map((c) => c.name);
      const container = typeof query.container === 'string' ? query.container : containers[0];
      if (container === undefined || (containers.length > 0 && !containers.includes(container))) {
        throw apiError('not_found', `pod "${pod.metadata.name}" has no container "${container}"`);
      }
      const options = {
        ...(tailLines === undefined ? {} : { tailLines }),
        ...(sinceSeconds === undefined ? {} : { sinceSeconds }),
        timestamps,
      };
      void reply
        .header('x-pod', pod.metadata.name)
        .header('x-container', container)
        .type('text/plain; charset=utf-8');
      if (!follow) {
        return inCluster('the log', () =>
          kube.podLogs(namespace, pod.metadata.name, { ...options, container }),
        );
      }
      const stream = new PassThrough();
      const stop = await inCluster('the log', () =>
        kube.followPodLogs(namespace, pod.metadata.name, container, stream, options),
      );
      // A client that leaves ends the stream from the cluster too.
      req.raw.on('close', stop);
      stream.on('close', stop);
      return reply.send(stream);
    },
  );

  api.get(
    '/api/workspaces/:name/agents/:agentName/events',
    {
      schema: operation(
        {
          operationId: 'listAgentEvents',
          summary: 'The events of an agent',
          description:
            'The cluster’s events about the AgentRuntime and its pods, oldest first (by last seen).',
          tag: 'agents',
          errors: [
            {
              ...VIEWERS_ONLY,
              invalid_request: 'agent is not an object name, or limit or offset is malformed.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
          ],
        },
        {
          params: AgentName,
          querystring: Paging,
          response: { 200: answer('One page of events.', listOf('events', Event)) },
        },
      ),
    },
    async (req) => {
      requireView(req);
      const used = requestedWorkspace(req, ctx);
      const agent = req.params.agentName;
      const namespace = used.workspace.spec.namespace.name;
      const events = await inCluster(`the events of agent "${agent}"`, async () => {
        const kube = await used.cluster();
        const [pods, all] = await Promise.all([
          agentPods(kube, namespace, agent),
          kube.resource<KubeEvent>(CORE_KINDS.event).listAll({ namespace }),
        ]);
        const podNames = new Set(pods.map((p) => p.metadata.name));
        return all.items.filter(({ involvedObject: o }) =>
          o.kind === 'AgentRuntime'
            ? o.name === agent
            : o.kind === 'Pod' && podNames.has(o.name ?? ''),
        );
      });
      const views = events.map(eventView);
      views.sort((a, b) => (a.lastSeen ?? '').localeCompare(b.lastSeen ?? ''));
      const { items, ...rest } = page(views, req.query);
      return { events: items, ...rest };
    },
  );
}
