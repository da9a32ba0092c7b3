import { KINDS, type Workspace } from '@paddock/kube';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { can } from '../auth/permissions.js';
import { subjectOf, workspaceRoleOf } from '../workspaces/access.js';
import { workspaceToCreate } from '../workspaces/creation.js';
import { workspaceDetails } from '../workspaces/views.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { operation } from './operation.js';
import { answer, Nullable } from './schemas/common.js';
import { NewWorkspace, WorkspaceDetails } from './schemas/workspaces.js';
import { inCluster } from './workspace-routes.js';

const WORKSPACE_KIND = KINDS.find((kind) => kind.kind === 'Workspace')!;

/**
 * Longest wait, after the cluster created the Workspace, for the dashboard's watch to bring it in:
 * the page the creator goes to next reads the workspace from there. Past it the answer goes anyway.
 */
export const DIRECTORY_WAIT_MS = 5_000;

/**
 * Creating a Workspace, for the platform's owners (the dashboard role admin): written through the
 * dashboard's own identity, as a Workspace is cluster-scoped and belongs to no workspace's
 * ServiceAccounts. The cluster checks the object again (and refuses an existing name).
 */
export function registerWorkspaceCreateRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // Before the body is checked: a caller who may not create learns nothing of the contract.
  const adminsOnly = (
    req: FastifyRequest,
    _reply: FastifyReply,
    done: (err?: Error) => void,
  ): void => {
    done(
      can(req.principal.user.role, 'createWorkspaces')
        ? undefined
        : apiError('forbidden', 'only admins of the dashboard create workspaces'),
    );
  };

  api.post(
    '/api/workspaces',
    {
      preValidation: adminsOnly,
      schema: operation(
        {
          operationId: 'createWorkspace',
          summary: 'Create a workspace',
          description:
            'Creates a Workspace, for the dashboard’s admins. The body is the Workspace’s `name` ' +
            '(a DNS-1123 label) and the fields of its spec, checked against the resource ' +
            'definition’s schema with unknown fields refused. `namespace` defaults to ' +
            '`{name: <name>, create: true}`. Unless `roleBindings` or `directGrants` name an ' +
            'owner (an owner binding, an unexpired owner grant), the creator becomes its owner ' +
            'through a direct grant of their username. The answer is the workspace as its ' +
            'creator sees it; null when the creator holds no role in it.',
          tag: 'workspaces',
          errors: [
            {
              forbidden:
                'The dashboard role is not admin; or the cluster refused the dashboard’s identity.',
              invalid_request:
                'A missing, unknown or malformed field, named by its path (body.namespace.name); ' +
                'no owner named by an anonymous creator; or the cluster found the Workspace ' +
                'invalid (the message says why).',
              already_exists:
                'A Workspace of that name exists, or another workspace has that namespace.',
              unavailable: 'No cluster is configured, or it could not be reached.',
            },
          ],
        },
        {
          body: NewWorkspace,
          response: {
            201: answer(
              'Created.',
              Type.Object({
                workspace: Nullable(WorkspaceDetails),
              }),
            ),
          },
        },
      ),
    },
    async (req, reply) => {
      const workspaces = ctx.workspaces;
      if (workspaces === undefined) {
        throw apiError('unavailable', 'no cluster is configured, so no workspace can be created');
      }
      const now = new Date(ctx.now());
      const subject = subjectOf(req.principal);
      let object: Workspace;
      try {
        object = workspaceToCreate(req.body, subject, now);
      } catch (err) {
        throw apiError('invalid_request', `body.${(err as Error).message}`);
      }
      const { name } = object.metadata;
      const namespace = object.spec.namespace.name;
      // A namespace is one workspace's (the operator would stop the second with a condition);
      // a Workspace of the same name is the cluster's to refuse, below.
      const holder = workspaces.directory.holderOf(namespace);
      if (holder !== undefined && holder !== name) {
        throw apiError(
          'already_exists',
          `namespace "${namespace}" is already the namespace of workspace "${holder}"`,
        );
      }
      const created = await inCluster(`workspace "${name}"`, () =>
        workspaces.kube.resource<Workspace>(WORKSPACE_KIND).create(object),
      );
      req.log.info(
        { workspace: name, namespace, by: req.principal.user.username },
        'workspace created',
      );
      await workspaces.directory.whenPresent(created, DIRECTORY_WAIT_MS);
      const role = workspaceRoleOf(created, subject, now);
      return reply.code(201).send({
        workspace:
          role === undefined ? null : workspaceDetails(created, role, req.principal.user.role, now),
      });
    },
  );
}
