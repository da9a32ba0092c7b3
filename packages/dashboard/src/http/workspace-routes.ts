import { PassThrough } from 'node:stream';
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
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '../auth/permissions.js';
import { subjectOf } from '../workspaces/access.js';
import { fromCluster } from '../workspaces/cluster-errors.js';
import { isObjectName, workspaceFor, type WorkspaceInUse } from '../workspaces/service.js';
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
import { pageOf } from './paging.js';

const kindOf = (name: string) => KINDS.find((kind) => kind.kind === name)!;
export const AGENT_KIND = kindOf('AgentRuntime');
export const PROMPT_PACK_KIND = kindOf('PromptPack');
export const TOOL_REGISTRY_KIND = kindOf('ToolRegistry');

/** Most lines a log request may ask for. */
const MAX_TAIL_LINES = 100_000;

/** The `:name` workspace of a request, as its user may use it. */
export function requestedWorkspace(req: FastifyRequest, ctx: DashboardContext): WorkspaceInUse {
  const { name } = req.params as { name: string };
  return workspaceFor(ctx.workspaces, req.principal, name, new Date(ctx.now()));
}

/** A path parameter naming an object in the workspace. */
export function objectName(req: FastifyRequest, param: string): string {
  const value = (req.params as Record<string, string>)[param] ?? '';
  if (!isObjectName(value)) {
    throw apiError('invalid_request', `${param} must be a Kubernetes object name`);
  }
  return value;
}

/** Runs a cluster call for a request, its failures as the dashboard's errors. */
export async function inCluster<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw fromCluster(err, what);
  }
}

function page<T>(items: T[], req: FastifyRequest) {
  const { limit, offset } = pageOf(req);
  return { items: items.slice(offset, offset + limit), total: items.length, limit, offset };
}

function wholeNumber(value: unknown, name: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,9}$/.test(value) || Number(value) > max) {
    throw apiError('invalid_request', `${name} must be a whole number from 0 to ${max}`);
  }
  return Number(value);
}

function flag(value: unknown, name: string): boolean {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1' || value === '') return true;
  throw apiError('invalid_request', `${name} must be true or false`);
}

async function agentPods(kube: Kube, namespace: string, agent: string): Promise<PodObject[]> {
  const pods = await kube
    .resource<PodObject>(CORE_KINDS.pod)
    .listAll({ namespace, labelSelector: `${LABEL_AGENT}=${agent}` });
  return pods.items.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/** The workspace endpoints that read: lists, details, logs and events. */
export function registerWorkspaceRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const requireView = (req: FastifyRequest) => {
    if (!can(req.principal.user.role, 'viewAgents')) {
      throw apiError('forbidden', 'you may not view workspaces');
    }
  };

  app.get('/api/workspaces', (req) => {
    requireView(req);
    if (ctx.workspaces === undefined) {
      throw apiError('unavailable', 'no cluster is configured, so there are no workspaces');
    }
    const found = ctx.workspaces.directory.accessible(
      subjectOf(req.principal),
      new Date(ctx.now()),
    );
    const { items, ...rest } = page(found, req);
    return {
      workspaces: items.map(({ workspace, role }) => workspaceSummary(workspace, role)),
      ...rest,
    };
  });

  app.get('/api/workspaces/:name', (req) => {
    requireView(req);
    const { workspace, role } = requestedWorkspace(req, ctx);
    return {
      workspace: workspaceDetails(workspace, role, req.principal.user.role, new Date(ctx.now())),
    };
  });

  app.get('/api/workspaces/:name/agents', async (req) => {
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
    const { items, ...rest } = page(agents, req);
    return { agents: items.map(agentView), ...rest };
  });

  app.get('/api/workspaces/:name/agents/:agentName', async (req) => {
    requireView(req);
    const used = requestedWorkspace(req, ctx);
    const name = objectName(req, 'agentName');
    const namespace = used.workspace.spec.namespace.name;
    return inCluster(`agent "${name}"`, async () => {
      const kube = await used.cluster();
      const agent = await kube.resource<AgentRuntime>(AGENT_KIND).get(name, namespace);
      const pods = await agentPods(kube, namespace, name);
      return { agent: { ...agentView(agent), pods: pods.map(podView) } };
    });
  });

  app.get('/api/workspaces/:name/promptpacks', async (req) => {
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
    const { items, ...rest } = page(packs, req);
    return { promptPacks: items.map(promptPackView), ...rest };
  });

  app.get('/api/workspaces/:name/toolregistries', async (req) => {
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
    const { items, ...rest } = page(registries, req);
    return { toolRegistries: items.map(toolRegistryView), ...rest };
  });

  app.get('/api/workspaces/:name/agents/:agentName/logs', async (req, reply) => {
    if (!can(req.principal.user.role, 'viewLogs')) {
      throw apiError('forbidden', 'you may not view logs');
    }
    const used = requestedWorkspace(req, ctx);
    const agent = objectName(req, 'agentName');
    const query = req.query as Record<string, unknown>;
    const tailLines = wholeNumber(query.tailLines, 'tailLines', MAX_TAIL_LINES);
    const sinceSeconds = wholeNumber(query.sinceSeconds, 'sinceSeconds', 10 * 365 * 86_400);
    const follow = flag(query.follow, 'follow');
    const timestamps = flag(query.timestamps, 'timestamps');
    for (const param of ['pod', 'container'] as const) {
      const value = query[param];
      if (value !== undefined && (typeof value !== 'string' || !isObjectName(value))) {
        throw apiError('invalid_request', `${param} must be a Kubernetes object name`);
      }
    }
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
  });

  app.get('/api/workspaces/:name/agents/:agentName/events', async (req) => {
    requireView(req);
    const used = requestedWorkspace(req, ctx);
    const agent = objectName(req, 'agentName');
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
    const { items, ...rest } = page(views, req);
    return { events: items, ...rest };
  });
}
