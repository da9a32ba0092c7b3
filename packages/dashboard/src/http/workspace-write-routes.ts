import {
  API_VERSION,
  ConflictError,
  KINDS,
  NotFoundError,
  type AgentRuntime,
  type PromptPack,
  type ToolRegistry,
  type Workspace,
} from '@paddock/kube';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasOwner, parseAccessChange, type AccessSpec } from '../workspaces/members.js';
import { isObjectName, type WorkspaceInUse } from '../workspaces/service.js';
import {
  accessView,
  agentView,
  mayAct,
  promptPackView,
  toolRegistryView,
  type WorkspaceAction,
} from '../workspaces/views.js';
import { bodyOf } from './auth-routes.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import {
  AGENT_KIND,
  PROMPT_PACK_KIND,
  TOOL_REGISTRY_KIND,
  inCluster,
  objectName,
  requestedWorkspace,
} from './workspace-routes.js';

const WORKSPACE_KIND = KINDS.find((kind) => kind.kind === 'Workspace')!;

/** Tries of a spec replacement that meets concurrent status writes. */
const UPSERT_ATTEMPTS = 3;

/** Most replicas one request may ask for; the workspace's own limit applies below it. */
const MAX_REPLICAS = 1000;

function replicasOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_REPLICAS) {
    throw apiError('invalid_request', `replicas must be a whole number from 0 to ${MAX_REPLICAS}`);
  }
  return value;
}

function optionalString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw apiError('invalid_request', `${key} must be a string`);
  return value;
}

function onlyKeys(body: Record<string, unknown>, keys: readonly string[]) {
  for (const key of Object.keys(body)) {
    if (!keys.includes(key)) {
      throw apiError('invalid_request', `unknown field "${key}"; expected ${keys.join(', ')}`);
    }
  }
}

function stringMap(value: unknown, key: string): Record<string, string> | undefined {
  if (value === undefined || value === null) return undefined;
  if (
    typeof value !== 'object' ||
    Array.isArray(value) ||
    !Object.values(value).every((v) => typeof v === 'string')
  ) {
    throw apiError('invalid_request', `${key} must be an object of strings`);
  }
  return value as Record<string, string>;
}

/**
 * The workspace endpoints that change things. Each is allowed by both the user's global role
 * (the permission table) and their workspace role, and runs with the token of the workspace
 * role's ServiceAccount, so the cluster enforces the same limit a second time. While a budget
 * keeps a workspace Suspended, its agents, prompt packs and tool registries cannot be changed.
 */
export function registerWorkspaceWriteRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const allowed = (req: FastifyRequest, action: WorkspaceAction): WorkspaceInUse => {
    const used = requestedWorkspace(req, ctx);
    if (!mayAct(req.principal.user.role, used.role, action)) {
      throw apiError(
        'forbidden',
        `your role (${req.principal.user.role} of the dashboard, ${used.role} of the workspace) does not allow this`,
      );
    }
    if (used.workspace.status?.phase === 'Suspended') {
      throw apiError(
        'workspace_suspended',
        `workspace "${used.workspace.metadata.name}" is suspended while its budget is exceeded`,
      );
    }
    return used;
  };
  const namespaceOf = (used: WorkspaceInUse) => used.workspace.spec.namespace.name;

  app.patch('/api/workspaces/:name/agents/:agentName', async (req) => {
    const used = allowed(req, 'scaleAgents');
    const name = objectName(req, 'agentName');
    const body = bodyOf(req);
    onlyKeys(body, ['replicas']);
    const replicas = replicasOf(body.replicas);
    const agent = await inCluster(`agent "${name}"`, async () =>
      (await used.cluster())
        .resource<AgentRuntime>(AGENT_KIND)
        .patch(name, { spec: { replicas } }, { namespace: namespaceOf(used) }),
    );
    return { agent: agentView(agent) };
  });

  app.post('/api/workspaces/:name/agents', async (req, reply) => {
    const used = allowed(req, 'createAgents');
    const body = bodyOf(req);
    onlyKeys(body, ['name', 'promptPack', 'replicas', 'model', 'image', 'env']);
    const name = typeof body.name === 'string' ? body.name : '';
    const promptPack = typeof body.promptPack === 'string' ? body.promptPack : '';
    if (!isObjectName(name))
      throw apiError('invalid_request', 'name must be a Kubernetes object name');
    if (!isObjectName(promptPack)) {
      throw apiError('invalid_request', 'promptPack must name a prompt pack of the workspace');
    }
    const spec: AgentRuntime['spec'] = {
      promptPackRef: { name: promptPack },
      replicas: body.replicas === undefined ? 1 : replicasOf(body.replicas),
    };
    const model = optionalString(body, 'model');
    const image = optionalString(body, 'image');
    const env = stringMap(body.env, 'env');
    if (model !== undefined) spec.model = model;
    if (image !== undefined) spec.image = image;
    if (env !== undefined) spec.env = env;
    const agent = await inCluster(`agent "${name}"`, async () =>
      (await used.cluster()).resource<AgentRuntime>(AGENT_KIND).create({
        apiVersion: API_VERSION,
        kind: 'AgentRuntime',
        metadata: { name, namespace: namespaceOf(used) },
        spec,
      }),
    );
    return reply.code(201).send({ agent: agentView(agent) });
  });

  app.delete('/api/workspaces/:name/agents/:agentName', async (req) => {
    const used = allowed(req, 'deleteAgents');
    const name = objectName(req, 'agentName');
    await inCluster(`agent "${name}"`, async () =>
      (await used.cluster()).resource<AgentRuntime>(AGENT_KIND).delete(name, namespaceOf(used)),
    );
    return { success: true };
  });

  app.put('/api/workspaces/:name/promptpacks/:pack', async (req, reply) => {
    const used = allowed(req, 'modifyPrompts');
    const name = objectName(req, 'pack');
    const body = bodyOf(req);
    onlyKeys(body, ['description', 'systemPrompt', 'prompts']);
    if (typeof body.systemPrompt !== 'string') {
      throw apiError('invalid_request', 'systemPrompt must be a string');
    }
    const spec: PromptPack['spec'] = { systemPrompt: body.systemPrompt };
    const description = optionalString(body, 'description');
    if (description !== undefined) spec.description = description;
    if (body.prompts !== undefined) {
      if (
        !Array.isArray(body.prompts) ||
        !body.prompts.every(
          (p: unknown) =>
            p !== null &&
            typeof p === 'object' &&
            typeof (p as { name?: unknown }).name === 'string' &&
            typeof (p as { content?: unknown }).content === 'string',
        )
      ) {
        throw apiError('invalid_request', 'prompts must be an array of {name, content}');
      }
      spec.prompts = (body.prompts as { name: string; content: string }[]).map(
        ({ name: promptName, content }) => ({ name: promptName, content }),
      );
    }
    const { pack, created } = await upsert<PromptPack>(used, PROMPT_PACK_KIND, name, spec);
    return reply.code(created ? 201 : 200).send({ promptPack: promptPackView(pack) });
  });

  app.delete('/api/workspaces/:name/promptpacks/:pack', async (req) => {
    const used = allowed(req, 'modifyPrompts');
    const name = objectName(req, 'pack');
    await inCluster(`prompt pack "${name}"`, async () =>
      (await used.cluster()).resource<PromptPack>(PROMPT_PACK_KIND).delete(name, namespaceOf(used)),
    );
    return { success: true };
  });

  app.put('/api/workspaces/:name/toolregistries/:registry', async (req, reply) => {
    const used = allowed(req, 'modifyTools');
    const name = objectName(req, 'registry');
    const body = bodyOf(req);
    onlyKeys(body, ['spec']);
    if (body.spec === null || typeof body.spec !== 'object' || Array.isArray(body.spec)) {
      throw apiError('invalid_request', 'spec must be the ToolRegistry spec, an object');
    }
    const { pack: registry, created } = await upsert<ToolRegistry>(
      used,
      TOOL_REGISTRY_KIND,
      name,
      body.spec as ToolRegistry['spec'],
    );
    return reply.code(created ? 201 : 200).send({ toolRegistry: toolRegistryView(registry) });
  });

  app.delete('/api/workspaces/:name/toolregistries/:registry', async (req) => {
    const used = allowed(req, 'modifyTools');
    const name = objectName(req, 'registry');
    await inCluster(`tool registry "${name}"`, async () =>
      (await used.cluster())
        .resource<ToolRegistry>(TOOL_REGISTRY_KIND)
        .delete(name, namespaceOf(used)),
    );
    return { success: true };
  });

  // Members: for the workspace's owners, through the dashboard's own identity (the Workspace is
  // cluster-scoped and no workspace ServiceAccount may write it), touching only the access fields
  // and only if the Workspace did not change since it was read.
  app.put('/api/workspaces/:name/access', async (req) => {
    const used = requestedWorkspace(req, ctx);
    if (used.role !== 'owner') {
      throw apiError('forbidden', 'only the workspace’s owners manage its members');
    }
    // The version the client read, when it sends one: a change made since is then a conflict.
    const { resourceVersion: seen, ...fields } = bodyOf(req);
    if (seen !== undefined && typeof seen !== 'string') {
      throw apiError(
        'invalid_request',
        'resourceVersion must be the string the access answer gave',
      );
    }
    let change: AccessSpec;
    try {
      change = parseAccessChange(fields);
    } catch (err) {
      throw apiError('invalid_request', (err as Error).message);
    }
    const { spec } = used.workspace;
    const next: AccessSpec = {
      roleBindings: change.roleBindings ?? spec.roleBindings ?? [],
      directGrants: change.directGrants ?? spec.directGrants ?? [],
      anonymousAccess: change.anonymousAccess ?? spec.anonymousAccess ?? { enabled: false },
    };
    if (!hasOwner(next, new Date(ctx.now()))) {
      throw apiError(
        'last_owner',
        'this change would leave the workspace without an owner: keep an owner binding or an unexpired owner grant',
      );
    }
    const patched = await inCluster(`workspace "${used.workspace.metadata.name}"`, () =>
      ctx.workspaces!.kube.resource<Workspace>(WORKSPACE_KIND).patch(used.workspace.metadata.name, {
        metadata: { resourceVersion: seen ?? used.workspace.metadata.resourceVersion },
        spec: next,
      }),
    );
    return { access: accessView(patched, new Date(ctx.now())) };
  });
}

/** Creates the object, or replaces its spec when it exists; says which it did. */
async function upsert<T extends PromptPack | ToolRegistry>(
  used: WorkspaceInUse,
  kind: typeof PROMPT_PACK_KIND,
  name: string,
  spec: T['spec'],
): Promise<{ pack: T; created: boolean }> {
  const namespace = used.workspace.spec.namespace.name;
  return inCluster(`${kind.kind} "${name}"`, async () => {
    const client = (await used.cluster()).resource<T>(kind);
    // The operator writes these objects' status; a PUT of the spec read just before that write
    // conflicts. The request sets the whole spec, so it is applied again to the fresh object.
    for (let attempt = 1; ; attempt++) {
      const existing = await client.get(name, namespace).catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
      if (existing === undefined) {
        const object = {
          apiVersion: API_VERSION,
          kind: kind.kind,
          metadata: { name, namespace },
          spec,
        } as T;
        return { pack: await client.create(object), created: true };
      }
      try {
        return { pack: await client.replace({ ...existing, spec }), created: false };
      } catch (err) {
        if (!(err instanceof ConflictError) || attempt >= UPSERT_ATTEMPTS) throw err;
      }
    }
  });
}
