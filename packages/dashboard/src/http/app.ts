import cookie from '@fastify/cookie';
import { createHttpApp, Health } from '@paddock/common';
import { serializerCompiler } from '@paddock/common/schema-serialization';
import { validatorCompiler } from '@paddock/common/schema-validation';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { presentedCredential, type Principal } from '../auth/identity.js';
import { registerDoorRoutes } from '../door/door-routes.js';
import { routeUpgrades } from '../door/upgrade.js';
import { settle, then, type MaybePromise } from '../maybe-promise.js';
import { registerApiKeyRoutes } from './api-key-routes.js';
import { registerAuthRoutes } from './auth-routes.js';
import type { DashboardContext } from './context.js';
import { apiError, statusOfCode } from './errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeepMessage } from './json-depth.js';
import { DashboardMetrics, METRICS_PATH, registerMetrics } from './metrics.js';
import { collectOpenApi, registerOpenApiRoutes } from './openapi-routes.js';
import {
  CONTENT_SECURITY_POLICY,
  hostAllowList,
  hostRefusal,
  isUnsafeMethod,
  passesOriginCheck,
  SPEC_SECURITY_HEADERS,
  type HostAllowList,
} from './security.js';
import { registerToolRoutes } from './tool-routes.js';
import { registerUserRoutes } from './user-routes.js';
import { SignIns } from './sign-ins.js';
import { isApiPath, registerWebRoutes } from './web-routes.js';
import { registerWorkspaceCreateRoutes } from './workspace-create-routes.js';
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
  /** Served at /metrics. */
  metrics: DashboardMetrics;
}

/**
 * The dashboard's HTTP app: security headers on every response, the cross-site check on
 * state-changing requests, authentication before every route that is not public, then the routes.
 */
export async function createDashboardApp(ctx: DashboardContext): Promise<DashboardApp> {
  const app = createHttpApp({
    logger: ctx.logger,
    bodyLimit: DASHBOARD_BODY_LIMIT,
    statusOf: statusOfCode,
  });
  // Every route's schema checks its request (query and path values read from text strictly: see
  // fromText); the routes registered from here on make the OpenAPI document.
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await collectOpenApi(app);
  const routes: DashboardApp['routes'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  // JSON bodies: fastify's own parser (prototype poisoning refused), after a depth check of the
  // text, so that no route ever walks a body nested deeper than MAX_JSON_DEPTH.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = body as string;
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(apiError('invalid_request', tooDeepMessage(MAX_JSON_DEPTH)), undefined);
      return;
    }
    void parseJson(req, text, done);
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

  // DNS rebinding: a page of another site whose name now points here sends that name as Host.
  // Only the dashboard's own names are answered, before anything else runs (the body is not even
  // read); the probes and /metrics answer whatever the Host, as Kubernetes and Prometheus address
  // the pod by its IP (/metrics still asks for a credential).
  const { host: listenHost, port: listenPort } = ctx.config.SVC_LISTEN_ADDR;
  let allowList: HostAllowList | undefined;
  const allowedHosts = (): HostAllowList => {
    if (allowList) return allowList;
    const bound = app.server.address();
    const port =
      listenPort !== 0 || bound === null || typeof bound === 'string' ? listenPort : bound.port;
    const list = hostAllowList({ baseUrl: ctx.config.SVC_BASE_URL, listenHost, port });
    // Port 0 is known only once listening; until then (requests injected in tests) not kept.
    if (port !== 0) allowList = list;
    return list;
  };
  app.decorateRequest('principal', null as unknown as Principal);
  app.decorateRequest('session', undefined);
  app.decorateRequest('routeTaken', null);
  app.addHook('onRequest', (req, _reply, done) => {
    const { url, config } = req.routeOptions;
    req.routeTaken = { pattern: url, access: config.access };
    const refusal =
      url !== undefined && (HEALTH_ROUTES.has(url) || url === METRICS_PATH)
        ? undefined
        : hostRefusal(req.headers.host, allowedHosts());
    done(refusal === undefined ? undefined : apiError('misdirected_request', refusal));
  });

  const metrics = new DashboardMetrics();
  registerMetrics(app, metrics);
  const signIns = new SignIns(metrics, {
    mode: ctx.config.SVC_AUTH_MODE,
    trustedProxies: ctx.config.SVC_AUTH_PROXY_TRUSTED_ADDRESSES,
    proxyUserHeader: ctx.config.SVC_AUTH_PROXY_HEADER_USER,
  });
  app.decorate('signIns', signIns);

  const sessionModes =
    ctx.config.SVC_AUTH_MODE === 'oauth' || ctx.config.SVC_AUTH_MODE === 'builtin';
  // Before the request is checked against its route's schema: a caller without a credential learns
  // nothing of a route's contract. Synchronous unless the store must be read, so that a request
  // decided from memory (a probe, a remembered API key) pays for no promise.
  const admit = (req: FastifyRequest, reply: FastifyReply): MaybePromise<void> => {
    const credential = presentedCredential(req.headers);
    if (isUnsafeMethod(req.method)) {
      const host = req.headers.host;
      const allowedOrigins = [ctx.publicOrigin];
      if (!ctx.config.SVC_BASE_URL && host !== undefined)
        allowedOrigins.push(`${req.protocol}://${host}`);
      const ok = passesOriginCheck({
        origin: req.headers.origin,
        referer: req.headers.referer,
        hasCredentialHeader: credential.kind !== 'none',
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
    const { pattern, access } = req.routeTaken ?? { pattern: undefined, access: undefined };
    if (pattern !== undefined && HEALTH_ROUTES.has(pattern)) return;
    if (access === 'public' || (access === 'page' && !isApiPath(req.url))) {
      // Public routes see the session (logout, the OAuth callback), never a header credential.
      if (!sessionModes) return;
      return ctx.sessions.read(req, reply, now).then((session) => {
        req.session = session;
      });
    }
    return then(
      signIns.authenticate(ctx.authenticator, req, reply, now, credential),
      ({ principal, session }) => {
        if (!principal) throw apiError('unauthorized', 'sign in first');
        req.principal = principal;
        req.session = session;
      },
    );
  };
  app.addHook('preValidation', (req, reply, done) => {
    settle(
      () => admit(req, reply),
      (err) => done(err as FastifyError | undefined),
    );
  });

  registerAuthRoutes(app, ctx);
  registerApiKeyRoutes(app, ctx);
  registerUserRoutes(app, ctx);
  registerWorkspaceRoutes(app, ctx);
  registerWorkspaceWriteRoutes(app, ctx);
  registerToolRoutes(app, ctx);
  registerWorkspaceCreateRoutes(app, ctx);
  routeUpgrades(app);
  registerDoorRoutes(app, ctx);
  await registerWebRoutes(app);
  registerOpenApiRoutes(app);
  return { app, health, routes, metrics };
}
