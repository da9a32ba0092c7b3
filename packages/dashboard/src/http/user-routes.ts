import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { currentRole } from '../auth/identity.js';
import { can } from '../auth/permissions.js';
import { parseGroups } from '../auth/proxy.js';
import type { UserPatch as StorePatch, UserRecord } from '../store/types.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { operation, PAGING_ERRORS } from './operation.js';
import { pageOf } from './paging.js';
import { answer, page, Paging, Success, wrapped } from './schemas/common.js';
import { CreatedUser, NewUser, NoFields } from './schemas/accounts.js';
import { AdminUser, UserId, UserPatch } from './schemas/users.js';

const ADMINS_ONLY = { forbidden: 'Only admins see the users.' };
const ADMINS_ONLY_CHANGE = { forbidden: 'Only admins create users and send reset mails.' };

/** What an admin sees of a user. */
function adminView(record: UserRecord, ctx: DashboardContext) {
  return {
    id: record.id,
    username: record.username,
    email: record.email,
    displayName: record.displayName,
    groups: record.groups,
    role: currentRole(record, ctx.mapping),
    roleOverride: record.roleOverride,
    provider: record.provider,
    disabled: record.disabled,
    emailVerified: record.emailVerified,
    created: new Date(record.createdAt).toISOString(),
  };
}

/** The patch of PATCH /api/users/:id: role (or null to follow the groups), groups, disabled. */
function patchOf(body: Static<typeof UserPatch>): StorePatch {
  const patch: StorePatch = {};
  if (body.role !== undefined) patch.roleOverride = body.role;
  if (body.groups !== undefined) patch.groups = parseGroups(body.groups.join(','));
  if (body.disabled !== undefined) patch.disabled = body.disabled;
  return patch;
}

/** The users of the dashboard, for admins ("View all users"), editable in builtin mode. */
export function registerUserRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const requireAdmin = (req: FastifyRequest) => {
    if (!can(req.principal.user.role, 'viewAllUsers'))
      throw apiError('forbidden', 'only admins see the users');
  };

  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/api/users',
    {
      schema: operation(
        {
          operationId: 'listUsers',
          summary: 'The users',
          description:
            'Every recorded user (built-in accounts, and proxy and OAuth users seen so far), oldest ' +
            'first. Admins only.',
          tag: 'users',
          errors: [ADMINS_ONLY, PAGING_ERRORS],
        },
        {
          querystring: Paging,
          response: { 200: answer('One page of users.', page('users', AdminUser)) },
        },
      ),
    },
    async (req) => {
      requireAdmin(req);
      const paging = pageOf(req.query);
      const [records, total] = await Promise.all([
        ctx.store.users.list(paging),
        ctx.store.users.count(),
      ]);
      return { users: records.map((r) => adminView(r, ctx)), total, ...paging };
    },
  );

  api.patch(
    '/api/users/:id',
    {
      schema: operation(
        {
          operationId: 'updateUser',
          summary: 'Change a built-in user',
          description:
            'Changes a user of the built-in store: the role override (null: follow the groups), ' +
            'the groups, disabled. Disabling ends the user’s sessions; a new role or groups apply ' +
            'from the next request. Admins only; the identity provider decides the other users. ' +
            'An admin cannot disable themselves or give up their own admin role.',
          tag: 'users',
          errors: {
            ...ADMINS_ONLY,
            invalid_request:
              'An unknown or malformed field; the user is not of the built-in store; or the change ' +
              'would disable the caller or take away their own admin role.',
            not_found: 'No such user.',
          },
        },
        {
          params: UserId,
          body: UserPatch,
          response: { 200: answer('The user as changed.', wrapped('user', AdminUser)) },
        },
      ),
    },
    async (req) => {
      requireAdmin(req);
      const { id } = req.params;
      const patch = patchOf(req.body);
      const target = await ctx.store.users.findById(id);
      if (!target) throw apiError('not_found', 'no such user');
      if (target.provider !== 'builtin') {
        throw apiError(
          'invalid_request',
          'only users of the built-in store are edited here; the identity provider decides the others',
        );
      }
      if (
        id === req.principal.user.id &&
        (patch.disabled === true ||
          (patch.roleOverride !== undefined && patch.roleOverride !== 'admin'))
      ) {
        throw apiError(
          'invalid_request',
          'you cannot disable yourself or give up your own admin role',
        );
      }
      const updated = await ctx.store.users.update(id, patch);
      if (!updated) throw apiError('not_found', 'no such user');
      // Disabling ends the sessions the user has now; a new role or groups apply at the next request.
      if (patch.disabled === true) await ctx.store.users.bumpSessionEpoch(id);
      return { user: adminView(updated, ctx) };
    },
  );

  /** The builtin accounts, or why there are none to administer in this mode. */
  const builtinAccounts = () => {
    if (!ctx.accounts) {
      throw apiError(
        'invalid_request',
        `in ${ctx.config.SVC_AUTH_MODE} mode the identity provider keeps the users: create them and reset their passwords there`,
      );
    }
    return ctx.accounts;
  };

  api.post(
    '/api/users',
    {
      schema: operation(
        {
          operationId: 'createUser',
          summary: 'Create a built-in user',
          description:
            'Creates a user of the built-in store, with the checks and errors of sign-up (whether ' +
            'or not SVC_BUILTIN_ALLOW_SIGNUP is on). With mail (SVC_SMTP_URL) the user is sent a ' +
            'link to choose their password, valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds, ' +
            'and following it confirms the address; without, a generated password is answered ' +
            'once as `initialPassword` and the address counts as confirmed (the admin vouches ' +
            'for it). Admins only; in the other modes the identity provider keeps the users ' +
            '(`invalid_request`).',
          tag: 'users',
          errors: {
            ...ADMINS_ONLY_CHANGE,
            invalid_request:
              'Not builtin mode, or a field is missing or not acceptable (the message names it).',
            email_exists: 'The e-mail address is already registered.',
            username_exists: 'The username is taken.',
            rate_limited: 'The password hashing queue is full: wait the seconds of `Retry-After`.',
          },
        },
        { body: NewUser, response: { 201: answer('Created.', CreatedUser) } },
      ),
    },
    async (req, reply) => {
      requireAdmin(req);
      const accounts = builtinAccounts();
      const { body } = req;
      const created = await accounts.createByAdmin(
        {
          username: body.username,
          email: body.email,
          displayName: body.displayName,
          ...(body.role !== undefined ? { roleOverride: body.role } : {}),
          ...(body.groups !== undefined ? { groups: parseGroups(body.groups.join(',')) } : {}),
        },
        ctx.now(),
      );
      req.log.info(
        {
          by: req.principal.user.username,
          user: { id: created.user.id, username: created.user.username },
          setPasswordMailSent: created.setPasswordMailSent,
        },
        'user created',
      );
      return reply.code(201).send({
        user: adminView(created.user, ctx),
        setPasswordMailSent: created.setPasswordMailSent,
        ...(created.initialPassword === undefined
          ? {}
          : { initialPassword: created.initialPassword }),
      });
    },
  );

  api.post(
    '/api/users/:id/reset-password',
    {
      schema: operation(
        {
          operationId: 'sendUserResetMail',
          summary: 'Mail a user a password reset link',
          description:
            'Sends a user of the built-in store the mail of forgot-password at once: a link to ' +
            'choose a new password, valid SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds; earlier ' +
            'links stop working. The current password keeps working until the link is used. ' +
            'Admins only; without mail (no SVC_SMTP_URL) it answers `conflict`: reset the ' +
            'password from the machine instead (`paddock-dashboard users reset-password`).',
          tag: 'users',
          errors: {
            ...ADMINS_ONLY_CHANGE,
            invalid_request:
              'Not builtin mode; the user is not of the built-in store, is disabled or has no ' +
              'e-mail address.',
            not_found: 'No such user.',
            conflict: 'No mail can be sent: SVC_SMTP_URL is not set.',
          },
        },
        {
          params: UserId,
          body: NoFields,
          response: { 200: answer('The mail went out.', Success) },
        },
      ),
    },
    async (req) => {
      requireAdmin(req);
      const accounts = builtinAccounts();
      const target = await ctx.store.users.findById(req.params.id);
      if (!target) throw apiError('not_found', 'no such user');
      await accounts.sendResetByAdmin(target, ctx.now());
      req.log.info(
        { by: req.principal.user.username, user: { id: target.id, username: target.username } },
        'password reset mail sent',
      );
      return { success: true };
    },
  );
}
