import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { signInUser } from '../auth/sign-in-log.js';
import { isDashboardError } from '../errors.js';
import type { UserRecord } from '../store/types.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { operation, SET_SESSION } from './operation.js';
import { ChangePassword } from './schemas/accounts.js';
import { answer, Success } from './schemas/common.js';

/** A signed-in builtin user changes their own password. */
export const CHANGE_PASSWORD_PATH = '/api/auth/builtin/change-password';

/** Starts a session of the record on the reply (auth-routes.ts). */
type StartSession = (
  req: FastifyRequest,
  reply: FastifyReply,
  record: UserRecord,
) => Promise<unknown>;

export const CHANGE_PASSWORD_OPERATION = operation(
  {
    operationId: 'builtinChangePassword',
    summary: 'Change your password',
    description:
      'The caller, a user of the built-in store, changes their own password, giving the current ' +
      'one. A wrong current password counts as a failed sign-in from the caller’s address: after ' +
      'SVC_BUILTIN_MAX_FAILED_ATTEMPTS of them the address is locked out of the account as the ' +
      'sign-in form would be (`account_locked`). On success every other session of the user ends, ' +
      'on every replica (within one second on the others); the caller’s session goes on with a ' +
      'new cookie. The user’s API keys stay valid: they are listed and revoked under ' +
      '/api/settings/api-keys. In the other modes the identity provider keeps the passwords: ' +
      'the route answers `invalid_request`.',
    tag: 'builtin',
    errors: {
      invalid_request:
        'Not builtin mode; the caller is not a user of the built-in store; or a field is not ' +
        'acceptable (the message names it).',
      invalid_credentials: 'The current password is wrong.',
      account_locked:
        'Too many wrong passwords for this account from this address: try again later.',
      password_too_short: 'The new password is shorter than SVC_BUILTIN_MIN_PASSWORD_LENGTH.',
      rate_limited: 'The password hashing queue is full: wait the seconds of `Retry-After`.',
    },
  },
  {
    body: ChangePassword,
    response: { 200: answer('Changed; this session goes on.', Success, SET_SESSION) },
  },
);

/**
 * POST /api/auth/builtin/change-password, in every mode so that the others answer why not. The
 * current password is checked under the sign-in throttle (Accounts.changePassword), so a session
 * left open cannot be used to guess it faster than the sign-in form.
 */
export function registerChangePasswordRoute(
  app: FastifyInstance,
  ctx: DashboardContext,
  startSession: StartSession,
): void {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  api.post(CHANGE_PASSWORD_PATH, { schema: CHANGE_PASSWORD_OPERATION }, async (req, reply) => {
    const accounts = ctx.accounts;
    if (!accounts) {
      throw apiError(
        'invalid_request',
        `the dashboard keeps no passwords in ${ctx.config.SVC_AUTH_MODE} mode: change yours where you sign in`,
      );
    }
    const { user } = req.principal;
    const { ip } = app.signIns.clientOf(req);
    let record: UserRecord;
    try {
      record = await accounts.changePassword(
        user.id,
        req.body.currentPassword,
        req.body.newPassword,
        ip,
        ctx.now(),
      );
    } catch (err) {
      if (isDashboardError(err, 'invalid_credentials') || isDashboardError(err, 'account_locked')) {
        req.log.warn(
          { user: signInUser(user), reason: err.code, client: { ip } },
          'password change refused',
        );
      }
      throw err;
    }
    // Every session of the user has ended with the epoch; the caller's own goes on, re-issued.
    if (ctx.sessions.present(req)) await startSession(req, reply, record);
    req.log.info({ user: signInUser(record), client: { ip } }, 'password changed');
    return { success: true };
  });
}
