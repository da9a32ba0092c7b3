import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userOf } from '../auth/identity.js';
import { trustedPeers } from '../auth/proxy.js';
import { safeReturnTo } from '../auth/return-to.js';
import { signInUser } from '../auth/sign-in-log.js';
import { newSessionId } from '../auth/session-revocation.js';
import type { SessionData } from '../auth/session.js';
import type { User } from '../auth/user.js';
import { sessionTokens } from '../oauth/client.js';
import { callbackMatchesPendingLogin } from '../oauth/login.js';
import { OAuthError } from '../oauth/errors.js';
import { clientAddress } from '../builtin/client-address.js';
import {
  perMinute,
  RetryLater,
  SourceLimits,
  type LimitedEndpoint,
} from '../builtin/source-limits.js';
import type { UserRecord } from '../store/types.js';
import type { DashboardContext } from './context.js';
import { AUTH_OPERATIONS as op } from './auth-operations.js';
import { apiError } from './errors.js';
import { registerChangePasswordRoute } from './password-routes.js';

/** Ends every session of the caller: "sign out everywhere". */
export const LOGOUT_EVERYWHERE_PATH = '/api/auth/logout-everywhere';

/** The page the browser is sent to when an OAuth sign-in fails: `/login?error=<code>`. */
export const LOGIN_PAGE = '/login';

/** The builtin login answer carries only id, username, email and role. */
function loginUser(user: User): Pick<User, 'id' | 'username' | 'email' | 'role'> {
  const shown: Pick<User, 'id' | 'username' | 'email' | 'role'> = {
    id: user.id,
    username: user.username,
    role: user.role,
  };
  if (user.email !== undefined) shown.email = user.email;
  return shown;
}

/** The authentication endpoints of the specification, plus the public /api/auth/config. */
export function registerAuthRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const { config } = ctx;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const isPublic = { access: 'public' as const };

  async function startSession(
    req: FastifyRequest,
    reply: FastifyReply,
    record: UserRecord,
    oauth?: SessionData['oauth'],
  ) {
    const now = ctx.now();
    // The epoch as stored now: a remembered external record may predate a sign-out everywhere.
    const epoch = (await ctx.store.users.findById(record.id))?.sessionEpoch ?? record.sessionEpoch;
    const data: SessionData = {
      user: userOf(record, ctx.mapping),
      createdAt: now,
      epoch,
      sid: newSessionId(),
    };
    if (oauth) data.oauth = oauth;
    await ctx.sessions.write(req, reply, data, now);
    return data.user!;
  }

  api.get('/api/auth/config', { config: isPublic, schema: op.config }, () => ({
    mode: config.SVC_AUTH_MODE,
    signupAllowed: config.SVC_AUTH_MODE === 'builtin' && config.SVC_BUILTIN_ALLOW_SIGNUP,
    verifyEmail: config.SVC_AUTH_MODE === 'builtin' && config.SVC_BUILTIN_VERIFY_EMAIL,
    provider: config.SVC_AUTH_MODE === 'oauth' ? config.SVC_OAUTH_PROVIDER : null,
    apiKeysEnabled: config.SVC_AUTH_API_KEYS_ENABLED,
    minPasswordLength: config.SVC_BUILTIN_MIN_PASSWORD_LENGTH,
  }));

  api.get('/api/auth/me', { schema: op.me }, (req) => ({ user: req.principal.user }));

  api.post('/api/auth/logout', { config: isPublic, schema: op.logout }, async (req, reply) => {
    const idToken = req.session?.oauth?.idToken;
    ctx.sessions.clear(req, reply);
    await endSession(req.session);
    const redirectUrl = req.session?.user ? ctx.oauth?.endSessionUrl(idToken) : undefined;
    return redirectUrl === undefined ? { success: true } : { success: true, redirectUrl };
  });

  // Ends every session of the caller on every replica (within REVOCATION_BOUND_MS on the
  // others); the caller's API keys stay valid: they are listed and revoked on their own.
  api.post(LOGOUT_EVERYWHERE_PATH, { schema: op.logoutEverywhere }, async (req, reply) => {
    const { principal } = req;
    if (principal.via === 'anonymous') {
      throw apiError('forbidden', 'there are no sessions to end in anonymous mode');
    }
    await ctx.store.users.bumpSessionEpoch(principal.user.id);
    if (ctx.sessions.present(req)) ctx.sessions.clear(req, reply);
    return { success: true };
  });

  /**
   * Makes the session's cookie useless everywhere, copies included: its id is recorded as revoked
   * until the session would have expired. A session from before session ids ends with all the
   * user's sessions.
   */
  async function endSession(session: SessionData | undefined): Promise<void> {
    const user = session?.user;
    if (!user || session.createdAt === undefined) return;
    const now = ctx.now();
    if (session.sid === undefined) return ctx.store.users.bumpSessionEpoch(user.id);
    const expiresAt = session.createdAt + config.SVC_SESSION_TTL * 1000;
    await ctx.sessionRevocations.revoke(session.sid, user.id, expiresAt, now);
  }

  registerChangePasswordRoute(app, ctx, startSession);
  if (ctx.oauth) registerOAuthRoutes(app, ctx, startSession);
  if (ctx.accounts) registerBuiltinRoutes(app, ctx, startSession);
}

type StartSession = (
  req: FastifyRequest,
  reply: FastifyReply,
  record: UserRecord,
  oauth?: SessionData['oauth'],
) => Promise<User>;

function registerOAuthRoutes(
  app: FastifyInstance,
  ctx: DashboardContext,
  startSession: StartSession,
): void {
  const oauth = ctx.oauth!;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const isPublic = { access: 'public' as const };

  const start = async (
    req: FastifyRequest & { query: { returnTo?: string | string[] } },
    reply: FastifyReply,
    status: 302 | 303,
  ) => {
    const { redirectUrl, pkce } = await oauth.startLogin(safeReturnTo(req.query.returnTo));
    const now = ctx.now();
    // A sign-in started while signed in keeps the session until its own callback succeeds, so a
    // link to this route from another site signs nobody out.
    const current = req.session;
    const pending: SessionData = current?.user ? { ...current, pkce } : { createdAt: now, pkce };
    await ctx.sessions.write(req, reply, pending, now);
    return reply.code(status).header('location', redirectUrl).send();
  };
  api.get('/api/auth/login', { config: isPublic, schema: op.startLogin }, (req, reply) =>
    start(req, reply, 302),
  );
  api.post('/api/auth/login', { config: isPublic, schema: op.startLoginForm }, (req, reply) =>
    start(req, reply, 303),
  );

  api.get('/api/auth/callback', { config: isPublic, schema: op.callback }, async (req, reply) => {
    const toLoginPage = (code: string) =>
      reply.code(302).header('location', `${LOGIN_PAGE}?error=${code}`).send();
    const session = req.session;
    const pkce = session?.pkce;
    // Only the callback of the sign-in this browser started may touch its session.
    if (!callbackMatchesPendingLogin(req.query.state, pkce)) {
      app.signIns.record(req, { mode: 'oauth', result: 'failure', reason: 'invalid_state' });
      return toLoginPage('invalid_state');
    }
    // The sign-in ends; a session that was there before it stays as it was.
    const fail = async (code: string, detail: string, user?: UserRecord) => {
      app.signIns.record(req, {
        mode: 'oauth',
        result: 'failure',
        reason: code,
        detail,
        ...(user ? { user: signInUser(user) } : {}),
      });
      if (session?.user) {
        const { pkce: _finished, ...before } = session;
        await ctx.sessions.write(req, reply, before, ctx.now());
      } else {
        ctx.sessions.clear(req, reply);
      }
      return toLoginPage(code);
    };
    try {
      const callbackUrl = new URL(req.url, ctx.publicOrigin);
      const { profile, oauth: tokens } = await oauth.finishLogin(callbackUrl, pkce);
      const record = await ctx.externalUsers.upsert(
        'oauth',
        profile.subject,
        {
          username: profile.username,
          email: profile.email ?? null,
          emailVerified: profile.emailVerified === true,
          displayName: profile.displayName ?? null,
          groups: profile.groups,
        },
        ctx.now(),
      );
      if (record.disabled) return fail('access_denied', 'this account is disabled', record);
      await startSession(req, reply, record, sessionTokens(tokens));
      app.signIns.record(req, { mode: 'oauth', result: 'success', user: signInUser(record) });
      return reply.code(302).header('location', safeReturnTo(pkce.returnTo)).send();
    } catch (err) {
      if (err instanceof OAuthError) return fail(err.code, err.message);
      ctx.logger.error({ err }, 'OAuth callback failed');
      return fail('callback_failed', 'the sign-in could not be completed');
    }
  });

  api.post('/api/auth/refresh', { schema: op.refresh }, async (req, reply) => {
    const session = req.session;
    const refreshToken = session?.oauth?.refreshToken;
    if (!session?.oauth || refreshToken === undefined) {
      throw apiError('invalid_request', 'this session has no refresh token to renew with');
    }
    let tokens: NonNullable<SessionData['oauth']>;
    try {
      tokens = sessionTokens(await oauth.refresh(refreshToken));
    } catch (err) {
      ctx.logger.warn({ reason: (err as Error).message }, 'OAuth refresh failed');
      throw apiError('unauthorized', 'the provider refused to renew the session; sign in again');
    }
    const now = ctx.now();
    await ctx.sessions.write(
      req,
      reply,
      { ...session, oauth: { ...session.oauth, ...tokens } },
      now,
    );
    return { success: true, expiresAt: tokens.expiresAt ?? null };
  });
}

function registerBuiltinRoutes(
  app: FastifyInstance,
  ctx: DashboardContext,
  startSession: StartSession,
): void {
  const accounts = ctx.accounts!;
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const isPublic = { access: 'public' as const };
  const limits = new SourceLimits(perMinute(ctx.config.SVC_BUILTIN_SOURCE_RATE_LIMIT));
  const proxies = ctx.config.SVC_AUTH_PROXY_TRUSTED_ADDRESSES;
  const trusted = proxies.length > 0 ? trustedPeers(proxies) : () => false;
  const sourceOf = (req: FastifyRequest) =>
    clientAddress(req.socket.remoteAddress, req.headers['x-forwarded-for'], trusted);
  /** Spends one request of the caller's address on the endpoint, or answers 429. */
  const limit = (endpoint: LimitedEndpoint, req: FastifyRequest) =>
    limits.check(endpoint, sourceOf(req), ctx.now());

  app.addHook('onError', async (_req, reply, error) => {
    if (error instanceof RetryLater)
      void reply.header('retry-after', String(error.retryAfterSeconds));
  });

  api.post(
    '/api/auth/builtin/login',
    { config: isPublic, schema: op.builtinLogin },
    async (req, reply) => {
      try {
        limit('login', req);
        const { body } = req;
        const record = await accounts.login(body.username, body.password, sourceOf(req), ctx.now());
        const user = await startSession(req, reply, record);
        app.signIns.record(req, { mode: 'builtin', result: 'success', user: signInUser(record) });
        return { success: true, user: loginUser(user) };
      } catch (err) {
        // Who tried: the username given, as typed (never the password).
        app.signIns.failed(req, 'builtin', err, { username: req.body.username });
        throw err;
      }
    },
  );

  api.post(
    '/api/auth/builtin/signup',
    { config: isPublic, schema: op.builtinSignup },
    async (req, reply) => {
      limit('signup', req);
      const { body } = req;
      const record = await accounts.signup(
        {
          username: body.username,
          email: body.email,
          password: body.password,
          displayName: body.displayName,
        },
        ctx.now(),
      );
      const verificationRequired = ctx.config.SVC_BUILTIN_VERIFY_EMAIL;
      // Signed in at once unless the address must be confirmed first.
      const user = verificationRequired
        ? userOf(record, ctx.mapping)
        : await startSession(req, reply, record);
      return reply.code(201).send({ success: true, user: loginUser(user), verificationRequired });
    },
  );

  api.post(
    '/api/auth/builtin/forgot-password',
    { config: isPublic, schema: op.forgotPassword },
    (req) => {
      limit('forgot-password', req);
      accounts.forgotPassword(req.body.email, ctx.now());
      return { success: true };
    },
  );

  api.post(
    '/api/auth/builtin/reset-password',
    { config: isPublic, schema: op.resetPassword },
    async (req) => {
      limit('reset-password', req);
      const { body } = req;
      await accounts.resetPassword(body.token, body.password, ctx.now());
      return { success: true };
    },
  );

  api.post(
    '/api/auth/builtin/verify-email',
    { config: isPublic, schema: op.verifyEmail },
    async (req) => {
      limit('verify-email', req);
      await accounts.verifyEmail(req.body.token, ctx.now());
      return { success: true };
    },
  );

  api.post(
    '/api/auth/builtin/resend-verification',
    { config: isPublic, schema: op.resendVerification },
    (req) => {
      limit('resend-verification', req);
      accounts.resendVerification(req.body.email, ctx.now());
      return { success: true };
    },
  );
}
