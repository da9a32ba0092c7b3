import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentRole } from '../auth/identity.js';
import { can } from '../auth/permissions.js';
import { parseGroups } from '../auth/proxy.js';
import { isRole } from '../auth/user.js';
import type { UserPatch, UserRecord } from '../store/types.js';
import { bodyOf } from './auth-routes.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { pageOf } from './paging.js';

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
function patchOf(req: FastifyRequest): UserPatch {
  const body = bodyOf(req);
  const patch: UserPatch = {};
  for (const key of Object.keys(body)) {
    if (!['role', 'groups', 'disabled'].includes(key)) {
      throw apiError('invalid_request', `unknown field "${key}"; give role, groups or disabled`);
    }
  }
  if ('role' in body) {
    if (body.role !== null && !isRole(body.role)) {
      throw apiError('invalid_request', 'role must be admin, editor, viewer or null');
    }
    patch.roleOverride = body.role;
  }
  if ('groups' in body) {
    if (!Array.isArray(body.groups) || !body.groups.every((g) => typeof g === 'string')) {
      throw apiError('invalid_request', 'groups must be an array of strings');
    }
    patch.groups = parseGroups(body.groups.join(','));
  }
  if ('disabled' in body) {
    if (typeof body.disabled !== 'boolean')
      throw apiError('invalid_request', 'disabled must be true or false');
    patch.disabled = body.disabled;
  }
  return patch;
}

/** The users of the dashboard, for admins ("View all users"), editable in builtin mode. */
export function registerUserRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const requireAdmin = (req: FastifyRequest) => {
    if (!can(req.principal.user.role, 'viewAllUsers'))
      throw apiError('forbidden', 'only admins see the users');
  };

  app.get('/api/users', async (req) => {
    requireAdmin(req);
    const page = pageOf(req);
    const [records, total] = await Promise.all([
      ctx.store.users.list(page),
      ctx.store.users.count(),
    ]);
    return { users: records.map((r) => adminView(r, ctx)), total, ...page };
  });

  app.patch('/api/users/:id', async (req) => {
    requireAdmin(req);
    const { id } = req.params as { id: string };
    const patch = patchOf(req);
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
  });
}
