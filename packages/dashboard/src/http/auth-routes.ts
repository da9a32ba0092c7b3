import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { userOf } from '../auth/identity.js';
import { safeReturnTo } from '../auth/return-to.js';
import type { SessionData } from '../auth/session.js';
import type { User } from '../auth/user.js';
import { sessionTokens } from '../oauth/client.js';
import { OAuthError } from '../oauth/errors.js';
import type { UserRecord } from '../store/types.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';

/** The page the browser is sent to when an OAuth sign-in fails: `/login?error=<code>`. */
export const LOGIN_PAGE = '/login';

type Body = Record<string, unknown>;

/** The JSON object body of a request; anything else is invalid_request. */
export function bodyOf(req: FastifyRequest): Body {
  const body = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw apiError('invalid_request', 'the body must be a JSON object');
  }
  return body as Body;
}

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
  const isPublic = { config: { access: 'public' as const } };

  async function startSession(
    req: FastifyRequest,
    reply: FastifyReply,
    record: UserRecord,
    oauth?: SessionData['oauth'],
  ) {
    const now = ctx.now();
    const data: SessionData = {
      user: userOf(record, ctx.mapping),
      createdAt: now,
      epoch: record.sessionEpoch,
    };
    if (oauth) data.oauth = oauth;
    await ctx.sessions.write(req, reply, data, now);
    return data.user!;
  }

  app.get('/api/auth/config', isPublic, () => ({
    mode: config.SVC_AUTH_MODE,
    signupAllowed: config.SVC_AUTH_MODE === 'builtin' && config.SVC_BUILTIN_ALLOW_SIGNUP,
    verifyEmail: config.SVC_AUTH_MODE === 'builtin' && config.SVC_BUILTIN_VERIFY_EMAIL,
    provider: config.SVC_AUTH_MODE === 'oauth' ? config.SVC_OAUTH_PROVIDER : null,
    apiKeysEnabled: config.SVC_AUTH_API_KEYS_ENABLED,
    minPasswordLength: config.SVC_BUILTIN_MIN_PASSWORD_LENGTH,
  }));

  app.get('/api/auth/me', (req) => ({ user: req.principal.user }));

  app.post('/api/auth/logout', isPublic, (req, reply) => {
    const idToken = req.session?.oauth?.idToken;
    ctx.sessions.clear(req, reply);
    const redirectUrl = req.session?.user ? ctx.oauth?.endSessionUrl(idToken) : undefined;
    return redirectUrl === undefined ? { success: true } : { success: true, redirectUrl };
  });

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
  const isPublic = { config: { access: 'public' as const } };

  const start = async (req: FastifyRequest, reply: FastifyReply, status: 302 | 303) => {
    const query = req.query as Record<string, unknown>;
    const { redirectUrl, pkce } = await oauth.startLogin(safeReturnTo(query.returnTo));
    await ctx.sessions.write(req, reply, { createdAt: ctx.now(), pkce }, ctx.now());
    return reply.code(status).header('location', redirectUrl).send();
  };
  app.get('/api/auth/login', isPublic, (req, reply) => start(req, reply, 302));
  app.post('/api/auth/login', isPublic, (req, reply) => start(req, reply, 303));

  app.get('/api/auth/callback', isPublic, async (req, reply) => {
    const fail = (code: string) => {
      ctx.sessions.clear(req, reply);
      return reply.code(302).header('location', `${LOGIN_PAGE}?error=${code}`).send();
    };
    const pkce = req.session?.pkce;
    if (!pkce) return fail('invalid_state');
    try {
      const callbackUrl = new URL(req.url, ctx.publicOrigin);
      const { profile, oauth: tokens } = await oauth.finishLogin(callbackUrl, pkce);
      const record = await ctx.externalUsers.upsert('oauth', profile.subject, {
        username: profile.username,
        email: profile.email ?? null,
        displayName: profile.displayName ?? null,
        groups: profile.groups,
      });
      if (record.disabled) return fail('access_denied');
      await startSession(req, reply, record, sessionTokens(tokens));
      return reply.code(302).header('location', safeReturnTo(pkce.returnTo)).send();
    } catch (err) {
      if (err instanceof OAuthError) {
        ctx.logger.warn({ code: err.code, reason: err.message }, 'OAuth sign-in failed');
        return fail(err.code);
      }
      ctx.logger.error({ err }, 'OAuth callback failed');
      return fail('callback_failed');
    }
  });

  app.post('/api/auth/refresh', async (req, reply) => {
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
  const isPublic = { config: { access: 'public' as const } };

  app.post('/api/auth/builtin/login', isPublic, async (req, reply) => {
    const body = bodyOf(req);
    const record = await accounts.login(body.username, body.password, ctx.now());
    const user = await startSession(req, reply, record);
    return { success: true, user: loginUser(user) };
  });

  app.post('/api/auth/builtin/signup', isPublic, async (req, reply) => {
    const body = bodyOf(req);
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
  });

  app.post('/api/auth/builtin/forgot-password', isPublic, (req) => {
    accounts.forgotPassword(bodyOf(req).email, ctx.now());
    return { success: true };
  });

  app.post('/api/auth/builtin/reset-password', isPublic, async (req) => {
    const body = bodyOf(req);
    await accounts.resetPassword(body.token, body.password, ctx.now());
    return { success: true };
  });

  app.post('/api/auth/builtin/verify-email', isPublic, async (req) => {
    await accounts.verifyEmail(bodyOf(req).token, ctx.now());
    return { success: true };
  });

  app.post('/api/auth/builtin/resend-verification', isPublic, (req) => {
    accounts.resendVerification(bodyOf(req).email, ctx.now());
    return { success: true };
  });
}
