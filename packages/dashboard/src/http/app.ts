import cookie from '@fastify/cookie';
import { createHttpApp, Health } from '@paddock/common';
import type { FastifyInstance } from 'fastify';
import { presentedCredential, type Principal } from '../auth/identity.js';
import { registerApiKeyRoutes } from './api-key-routes.js';
import { registerAuthRoutes } from './auth-routes.js';
import type { DashboardContext } from './context.js';
import { apiError } from './errors.js';
import { registerOpenApiRoutes } from './openapi.js';
import {
  CONTENT_SECURITY_POLICY,
  isUnsafeMethod,
  passesOriginCheck,
  SPEC_SECURITY_HEADERS,
} from './security.js';
import { registerUserRoutes } from './user-routes.js';
import { isApiPath, registerWebRoutes } from './web-routes.js';
import { registerWorkspaceRoutes } from './workspace-routes.js';
import { registerWorkspaceWriteRoutes } from './workspace-write-routes.js';

/** Request bodies of the dashboard are small JSON documents. */
export const DASHBOARD_BODY_LIMIT = 64 * 1024;

/** Probes of the platform: answered without authentication. */
const HEALTH_ROUTES = new Set(['/healthz', '/readyz']);

export interface DashboardApp {
  app: FastifyInstance;
  health: Health;
  /** Every route registered, as fastify has it (the HEAD routes it adds to GET ones included). */
  routes: Array<{ method: string; url: string }>;
}

/**
 * The dashboard's HTTP app: security headers on every response, the cross-site check on
 * state-changing requests, authentication before every route that is not public, then the routes.
 */
export async function createDashboardApp(ctx: DashboardContext): Promise<DashboardApp> {
  const app = createHttpApp({ logger: ctx.logger, bodyLimit: DASHBOARD_BODY_LIMIT });
  const routes: DashboardApp['routes'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  await app.register(cookie);
  const health = new Health();
  health.register(app);

  const strictTransport = ctx.publicOrigin.startsWith('https:');
  app.addHook('onSend', (req, reply, payload, done) => {
    for (const [name, value] of Object.entries(SPEC_SECURITY_HEADERS))
      void reply.header(name, value);
    void reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
    if (strictTransport) void reply.header('strict-transport-security', 'max-age=31536000');
    if (req.url.startsWith('/api/')) void reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('session', undefined);

  const sessionModes =
    ctx.config.SVC_AUTH_MODE === 'oauth' || ctx.config.SVC_AUTH_MODE === 'builtin';
  app.addHook('preHandler', async (req, reply) => {
    if (isUnsafeMethod(req.method)) {
      const host = req.headers.host;
      const allowedOrigins = [ctx.publicOrigin];
      if (!ctx.config.SVC_BASE_URL && host !== undefined)
        allowedOrigins.push(`${req.protocol}://${host}`);
      const ok = passesOriginCheck({
        origin: req.headers.origin,
        referer: req.headers.referer,
        hasCredentialHeader: presentedCredential(req.headers).kind !== 'none',
        hasSessionCookie: ctx.sessions.present(req),
        allowedOrigins,
      });
      if (!ok)
        throw apiError(
          'forbidden',
          'cross-site request refused: it must come from the dashboard itself',
        );
    }
    const now = ctx.now();
    if (HEALTH_ROUTES.has(req.routeOptions.url ?? '')) return;
    const { access } = req.routeOptions.config;
    if (access === 'public' || (access === 'page' && !isApiPath(req.url))) {
      // Public routes see the session (logout, the OAuth callback), never a header credential.
      if (sessionModes) req.session = await ctx.sessions.read(req, reply, now);
      return;
    }
    const { principal, session } = await ctx.authenticator.authenticate(req, reply, now);
    if (!principal) throw apiError('unauthorized', 'sign in first');
    req.principal = principal;
    req.session = session;
  });

  registerAuthRoutes(app, ctx);
  registerApiKeyRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerWorkspaceRoutes(app, ctx);
  registerWorkspaceWriteRoutes(app, ctx);
  await registerWebRoutes(app);
  registerOpenApiRoutes(app);
  return { app, health, routes };
}
