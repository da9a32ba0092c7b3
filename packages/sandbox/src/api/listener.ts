import websocket from '@fastify/websocket';
import { createHttpApp, identityFromHeaders, verifyProof, type Identity } from '@paddock/common';
import type { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifyServerFactory } from 'fastify';
import type { ApiContext, FeatureHandle } from './context.js';
import { allowedMethods, routeAt } from './routes.js';
import { schemaCompilers } from '@paddock/common/lazy-schemas';

/** Request bodies of this listener are small JSON documents (SSH keys). */
export const API_BODY_LIMIT = 64 * 1024;

/** A feature's routes: registered only when its flag is on, so its routes answer 404 otherwise. */
export type FeatureModule = (
  app: FastifyInstance,
  ctx: ApiContext,
) => Promise<FeatureHandle | void>;

export interface ApiListenerOptions extends Omit<ApiContext, 'selfPorts'> {
  /** The modules to mount, each already chosen by its flag (always-on ones included). */
  modules: readonly FeatureModule[];
  /** Ports of the sandbox's other listeners (MCP); this listener's own port is added when bound. */
  selfPorts?: readonly number[];
  /** The node server the app answers on, when its owner made it (see `apiOnFirstUse`). */
  serverFactory?: FastifyServerFactory;
  /** Where the WebSocket routes hear upgrades, when not from the app's server. */
  upgrades?: EventEmitter;
}

export interface ApiListener {
  app: FastifyInstance;
  /** Every route the modules mounted (fastify's implied HEAD routes aside), as `METHOD path`. */
  mounted: readonly string[];
  close: () => Promise<void>;
}

/**
 * The human-facing listener (-api-addr). Every request passes the identity hook first: without a
 * valid X-Paddock-Proof (when a proof is configured, the default outside dev mode), or without
 * X-Forwarded-Sub (and without -dev-mode), it is answered 401 before any routing decision, so an
 * unauthenticated caller learns nothing, not even which features are on. WebSocket upgrades pass
 * the same hook before the handshake.
 */
export async function createApiListener(options: ApiListenerOptions): Promise<ApiListener> {
  const { logger } = options;
  const notFound = (req: FastifyRequest, reply: FastifyReply): void => {
    const path = req.url.split('?')[0] ?? '';
    const allowed = allowedMethods(path, options.features);
    if (allowed.length > 0) {
      void reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({
          error: 'method_not_allowed',
          message: `${req.method} is not allowed on ${path}; use ${allowed.join(', ')}`,
        });
      return;
    }
    void reply
      .code(404)
      .send({ error: 'not_found', message: `no route for ${req.method} ${path}` });
  };
  const { serverFactory, upgrades } = options;
  const app = createHttpApp({ logger, bodyLimit: API_BODY_LIMIT, notFound, serverFactory });
  // The route schemas' compilers load with the first request of a route with a schema (their
  // first onRequest hook, before the identity check below, whose 401 they serialize).
  schemaCompilers.install(app);
  await app.register(websocket, {
    options: { maxPayload: 1024 * 1024, ...(upgrades ? { server: upgrades as Server } : {}) },
  });

  const mounted: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      // One contract per route: a module mounts only what the table lists, with the table's
      // schema, so that what is validated is what the description says.
      if (routeAt(method, route.url)?.schema !== route.schema) {
        throw new Error(`${method} ${route.url} is not mounted with its schema from routes.ts`);
      }
      mounted.push(`${method} ${route.url}`);
    }
  });

  app.decorateRequest('identity', null as unknown as Identity);
  const { proof } = options;
  app.addHook('onRequest', async (req, reply) => {
    if (proof) {
      const outcome = await verifyProof(req.headers, proof);
      if (!outcome.ok)
        return reply.code(401).send({ error: 'unauthorized', message: outcome.reason });
      req.identity = outcome.identity;
      return;
    }
    const identity = identityFromHeaders(req.headers, options.devMode);
    if (!identity) {
      return reply
        .code(401)
        .send({ error: 'unauthorized', message: 'the X-Forwarded-Sub header is required' });
    }
    req.identity = identity;
  });

  const selfPorts = new Set(options.selfPorts ?? []);
  const addOwnPort = () => {
    const address = app.server.address();
    if (address !== null && typeof address === 'object') selfPorts.add(address.port);
  };
  // Built on first use, the app's server is already listening.
  if (app.server.listening) addOwnPort();
  else app.server.on('listening', addOwnPort);
  const { modules, selfPorts: _given, serverFactory: _s, upgrades: _u, ...rest } = options;
  const ctx: ApiContext = { ...rest, selfPorts };
  const handles: FeatureHandle[] = [];
  for (const module of modules) {
    const handle = await module(app, ctx);
    if (handle) handles.push(handle);
  }

  return {
    app,
    mounted,
    close: async () => {
      const closed = app.close();
      await Promise.all(handles.map((h) => h.close()));
      app.server.closeAllConnections();
      await closed;
    },
  };
}
