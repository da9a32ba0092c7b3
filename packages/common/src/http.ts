import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Address } from './address.js';
import { toEnvelope } from './errors.js';

/** Default cap on request bodies; a service that takes larger bodies says so on its own routes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface HttpAppOptions {
  logger: FastifyBaseLogger;
  bodyLimit?: number;
  /** Answers requests no route took; by default a 404 envelope naming the method and path. */
  notFound?: (req: FastifyRequest, reply: FastifyReply) => void;
}

/**
 * A fastify app with Paddock's conventions: the shared logger, one debug line per request, the error
 * envelope for every failure (unknown routes and framework errors included), and a body limit.
 */
export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const app = Fastify({
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
  });

  app.addHook('onResponse', (req, reply, done) => {
    req.log.debug(
      { method: req.method, url: req.url, status: reply.statusCode, ms: reply.elapsedTime },
      'request',
    );
    done();
  });

  // A response finished after shutdown began closes its connection, so that keep-alive clients do
  // not hold the server open until the grace period runs out.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (!app.server.listening) void reply.header('connection', 'close');
    done(null, payload);
  });

  app.setErrorHandler((err, req, reply) => {
    const { status, body } = toEnvelope(err);
    if (status >= 500) req.log.error({ err }, 'request failed');
    void reply.code(status).send(body);
  });

  app.setNotFoundHandler(
    options.notFound ??
      ((req, reply) => {
        void reply.code(404).send({
          error: 'not_found',
          message: `no route for ${req.method} ${req.url.split('?')[0]}`,
        });
      }),
  );

  return app;
}

/** Listens and returns the bound address (the real port when 0 was asked for). */
export async function listen(app: FastifyInstance, address: Address): Promise<Address> {
  await app.listen({ host: address.host, port: address.port });
  const bound = app.server.address();
  if (bound === null || typeof bound === 'string') return address;
  return { host: bound.address, port: bound.port };
}
