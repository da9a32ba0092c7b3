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
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasOwner, parseAccessChange, type AccessSpec } from '../workspaces/members.js';
import type { WorkspaceInUse } from '../workspaces/service.js';
import {
  accessView,
  agentView,
  mayAct,
  promptPackView,
  toolRegistryView,
  type WorkspaceAction,
} from '../workspaces/views.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import {
  CLUSTER_ERRORS,
  operation,
  WORKSPACE_ERRORS,
  writeErrors,
  type Errors,
} from './operation.js';
import { Agent as AgentView, AgentName, NewAgent, ScaleAgent } from './schemas/agents.js';
import { answer, Success, wrapped } from './schemas/common.js';
import { PackName, PromptPack as PromptPackView, PromptPackSpec } from './schemas/prompt-packs.js';
import {
  PutToolRegistry,
  RegistryName,
  ToolRegistry as ToolRegistryView,
} from './schemas/tool-registries.js';
import { Access, AccessChange, WorkspaceName } from './schemas/workspaces.js';
import {
  AGENT_KIND,
  PROMPT_PACK_KIND,
  TOOL_REGISTRY_KIND,
  inCluster,
  requestedWorkspace,
} from './workspace-routes.js';

const WORKSPACE_KIND = KINDS.find((kind) => kind.kind === 'Workspace')!;

/** Tries of a spec replacement that meets concurrent status writes. */
const UPSERT_ATTEMPTS = 3;

const DONE = { 200: answer('Done.', Success) };

/** Conflicts of a spec replacement (PUT). */
function replaceErrors(what: string): Errors {
  return {
    conflict: 'The object changed meanwhile: read it again and retry.',
    already_exists: `Another request created the ${what} meanwhile.`,
  };
}

/**
 * The workspace endpoints that change things. Each is allowed by both the user's global role
 * (the permission table) and their workspace role, and runs with the token of the workspace
 * role's ServiceAccount, so the cluster enforces the same limit a second time. While a budget
 * keeps a workspace Suspended, its agents, prompt packs and tool registries cannot be changed.
 */
export function registerWorkspaceWriteRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const allowed = (
    req: FastifyRequest & { params: { name: string } },
    action: WorkspaceAction,
  ): WorkspaceInUse => {
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

  api.patch(
    '/api/workspaces/:name/agents/:agentName',
    {
      schema: operation(
        {
          operationId: 'scaleAgent',
          summary: 'Scale an agent',
          description:
            'Sets the agent’s replicas. The workspace’s maxReplicasPerAgent quota may hold the ' +
            'running count below it (condition ReplicasLimited).',
          tag: 'agents',
          errors: [
            {
              invalid_request: 'agent is not an object name, or replicas is not 0 to 1000.',
              not_found: 'No such agent.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('scaling agents'),
          ],
        },
        {
          params: AgentName,
          body: ScaleAgent,
          response: { 200: answer('The agent as changed.', wrapped('agent', AgentView)) },
        },
      ),
    },
    async (req) => {
      const used = allowed(req, 'scaleAgents');
      const name = req.params.agentName;
      const { replicas } = req.body;
      const agent = await inCluster(`agent "${name}"`, async () =>
        (await used.cluster())
          .resource<AgentRuntime>(AGENT_KIND)
          .patch(name, { spec: { replicas } }, { namespace: namespaceOf(used) }),
      );
      return { agent: agentView(agent) };
    },
  );

  api.post(
    '/api/workspaces/:name/agents',
    {
      schema: operation(
        {
          operationId: 'createAgent',
          summary: 'Create an agent',
          description:
            'Creates an AgentRuntime in the workspace’s namespace, following a prompt pack of the ' +
            'workspace. Needs the dashboard role editor or admin and the workspace role owner or ' +
            'editor.',
          tag: 'agents',
          errors: [
            {
              invalid_request: 'An unknown or malformed field.',
              already_exists: 'An agent of that name exists.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('creating agents'),
          ],
        },
        {
          params: WorkspaceName,
          body: NewAgent,
          response: { 201: answer('Created.', wrapped('agent', AgentView)) },
        },
      ),
    },
    async (req, reply) => {
      const used = allowed(req, 'createAgents');
      const { name, promptPack, replicas, model, image, env } = req.body;
      const spec: AgentRuntime['spec'] = {
        promptPackRef: { name: promptPack },
        replicas: replicas ?? 1,
      };
      if (model !== undefined && model !== null) spec.model = model;
      if (image !== undefined && image !== null) spec.image = image;
      if (env !== undefined && env !== null) spec.env = env;
      const agent = await inCluster(`agent "${name}"`, async () =>
        (await used.cluster()).resource<AgentRuntime>(AGENT_KIND).create({
          apiVersion: API_VERSION,
          kind: 'AgentRuntime',
          metadata: { name, namespace: namespaceOf(used) },
          spec,
        }),
      );
      return reply.code(201).send({ agent: agentView(agent) });
    },
  );

  api.delete(
    '/api/workspaces/:name/agents/:agentName',
    {
      schema: operation(
        {
          operationId: 'deleteAgent',
          summary: 'Delete an agent',
          description: 'Deletes the AgentRuntime; the cluster removes its pods.',
          tag: 'agents',
          errors: [
            {
              invalid_request: 'agent is not a Kubernetes object name.',
              not_found: 'No such agent.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('deleting agents'),
          ],
        },
        { params: AgentName, response: DONE },
      ),
    },
    async (req) => {
      const used = allowed(req, 'deleteAgents');
      const name = req.params.agentName;
      await inCluster(`agent "${name}"`, async () =>
        (await used.cluster()).resource<AgentRuntime>(AGENT_KIND).delete(name, namespaceOf(used)),
      );
      return { success: true } as const;
    },
  );

  api.put(
    '/api/workspaces/:name/promptpacks/:pack',
    {
      schema: operation(
        {
          operationId: 'putPromptPack',
          summary: 'Create or replace a prompt pack',
          description:
            'Creates the PromptPack (201) or replaces its spec (200). A replacement fails with ' +
            '`conflict` when the pack changed between the dashboard’s read and write.',
          tag: 'prompt packs',
          errors: [
            { invalid_request: 'pack is not an object name, or an unknown or malformed field.' },
            replaceErrors('pack'),
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing prompt packs'),
          ],
        },
        {
          params: PackName,
          body: PromptPackSpec,
          response: {
            200: answer('Replaced.', wrapped('promptPack', PromptPackView)),
            201: answer('Created.', wrapped('promptPack', PromptPackView)),
          },
        },
      ),
    },
    async (req, reply) => {
      const used = allowed(req, 'modifyPrompts');
      const name = req.params.pack;
      const { systemPrompt, description, prompts } = req.body;
      const spec: PromptPack['spec'] = { systemPrompt };
      if (description !== undefined && description !== null) spec.description = description;
      // Only the fields of a prompt are kept.
      if (prompts !== undefined)
        spec.prompts = prompts.map(({ name: n, content }) => ({ name: n, content }));
      const { pack, created } = await upsert<PromptPack>(used, PROMPT_PACK_KIND, name, spec);
      return reply.code(created ? 201 : 200).send({ promptPack: promptPackView(pack) });
    },
  );

  api.delete(
    '/api/workspaces/:name/promptpacks/:pack',
    {
      schema: operation(
        {
          operationId: 'deletePromptPack',
          summary: 'Delete a prompt pack',
          description: 'Deletes the PromptPack.',
          tag: 'prompt packs',
          errors: [
            {
              invalid_request: 'pack is not a Kubernetes object name.',
              not_found: 'No such prompt pack.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing prompt packs'),
          ],
        },
        { params: PackName, response: DONE },
      ),
    },
    async (req) => {
      const used = allowed(req, 'modifyPrompts');
      const name = req.params.pack;
      await inCluster(`prompt pack "${name}"`, async () =>
        (await used.cluster())
          .resource<PromptPack>(PROMPT_PACK_KIND)
          .delete(name, namespaceOf(used)),
      );
      return { success: true } as const;
    },
  );

  api.put(
    '/api/workspaces/:name/toolregistries/:registry',
    {
      schema: operation(
        {
          operationId: 'putToolRegistry',
          summary: 'Create or replace a tool registry',
          description:
            'Creates the ToolRegistry (201) or replaces its spec (200); the cluster validates the ' +
            'spec. A replacement fails with `conflict` when the registry changed between the ' +
            'dashboard’s read and write.',
          tag: 'tool registries',
          errors: [
            {
              invalid_request:
                'registry is not an object name, spec is not an object, or an unknown field.',
            },
            replaceErrors('registry'),
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing tools'),
          ],
        },
        {
          params: RegistryName,
          body: PutToolRegistry,
          response: {
            200: answer('Replaced.', wrapped('toolRegistry', ToolRegistryView)),
            201: answer('Created.', wrapped('toolRegistry', ToolRegistryView)),
          },
        },
      ),
    },
    async (req, reply) => {
      const used = allowed(req, 'modifyTools');
      const { pack: registry, created } = await upsert<ToolRegistry>(
        used,
        TOOL_REGISTRY_KIND,
        req.params.registry,
        req.body.spec,
      );
      return reply.code(created ? 201 : 200).send({ toolRegistry: toolRegistryView(registry) });
    },
  );

  api.delete(
    '/api/workspaces/:name/toolregistries/:registry',
    {
      schema: operation(
        {
          operationId: 'deleteToolRegistry',
          summary: 'Delete a tool registry',
          description: 'Deletes the ToolRegistry.',
          tag: 'tool registries',
          errors: [
            {
              invalid_request: 'registry is not a Kubernetes object name.',
              not_found: 'No such tool registry.',
            },
            WORKSPACE_ERRORS,
            CLUSTER_ERRORS,
            writeErrors('changing tools'),
          ],
        },
        { params: RegistryName, response: DONE },
      ),
    },
    async (req) => {
      const used = allowed(req, 'modifyTools');
      const name = req.params.registry;
      await inCluster(`tool registry "${name}"`, async () =>
        (await used.cluster())
          .resource<ToolRegistry>(TOOL_REGISTRY_KIND)
          .delete(name, namespaceOf(used)),
      );
      return { success: true } as const;
    },
  );

  // Members: for the workspace's owners, through the dashboard's own identity (the Workspace is
  // cluster-scoped and no workspace ServiceAccount may write it), touching only the access fields
  // and only if the Workspace did not change since it was read.
  api.put(
    '/api/workspaces/:name/access',
    {
      schema: operation(
        {
          operationId: 'putWorkspaceAccess',
          summary: 'Change who has access',
          description:
            'Replaces the fields given (roleBindings, directGrants, anonymousAccess; absent ones ' +
            'stay as they are) on the Workspace. For the workspace’s owners, whatever their ' +
            'dashboard role; also while the workspace is suspended. Someone must remain able to ' +
            'manage the members: an owner binding naming a group or ServiceAccount, or an ' +
            'unexpired owner grant (anonymous ownership does not count). Written through the ' +
            'dashboard’s own identity, only if the Workspace did not change since it was read.',
          tag: 'members',
          errors: [
            {
              forbidden:
                'Only the workspace’s owners manage its members; or the cluster refused the dashboard.',
              invalid_request: 'An unknown or malformed field (the message names it).',
              last_owner: 'The change would leave the workspace without an owner.',
              conflict: 'The Workspace changed since it was read: read it again and retry.',
              not_found: 'The Workspace was deleted meanwhile.',
              unavailable: 'The cluster could not be reached.',
            },
            WORKSPACE_ERRORS,
          ],
        },
        {
          params: WorkspaceName,
          body: AccessChange,
          response: { 200: answer('The access as changed.', wrapped('access', Access)) },
        },
      ),
    },
    async (req) => {
      const used = requestedWorkspace(req, ctx);
      if (used.role !== 'owner') {
        throw apiError('forbidden', 'only the workspace’s owners manage its members');
      }
      // The version the client read, when it sends one: a change made since is then a conflict.
      const { resourceVersion: seen, ...fields } = req.body;
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
        ctx
          .workspaces!.kube.resource<Workspace>(WORKSPACE_KIND)
          .patch(used.workspace.metadata.name, {
            metadata: { resourceVersion: seen ?? used.workspace.metadata.resourceVersion },
            spec: next,
          }),
      );
      return { access: accessView(patched, new Date(ctx.now())) };
    },
  );
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
