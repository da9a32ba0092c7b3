import { once } from 'node:events';
import { createServer, Server } from 'node:http';
import { createRequire } from 'node:module';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerFactory,
} from 'fastify';
import type * as FastifyExports from 'fastify';
import type { Address } from './address.js';
import { toEnvelope, type StatusOfCode } from './errors.js';

/** Default cap on request bodies; a service that takes larger bodies says so on its own routes. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

export interface HttpAppOptions {
  logger: FastifyBaseLogger;
  bodyLimit?: number;
  /** The status of each of the service's domain error codes (its HTTP edge's table). */
  statusOf?: StatusOfCode;
  /** Answers requests no route took; by default a 404 envelope naming the method and path. */
  notFound?: (req: FastifyRequest, reply: FastifyReply) => void;
  /** The node server the app answers on, when its owner made it (see fastify's serverFactory). */
  serverFactory?: FastifyServerFactory;
}

type FastifyModule = typeof FastifyExports;
let fastifyModule: FastifyModule | undefined;
/**
 * fastify and its plugins weigh about 16 MiB resident: loaded with the first app, not with this
 * package, so that a process answering plain node servers until first use does not hold them.
 */
function fastify(): FastifyModule {
  return (fastifyModule ??= createRequire(import.meta.url)('fastify') as FastifyModule);
}

/** The headers of a server-sent event stream: never cached, never held back by a proxy. */
export const EVENT_STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
  'x-content-type-options': 'nosniff',
} as const;

/** The levels at which a logger writes debug lines. */
const LOGS_DEBUG = new Set(['debug', 'trace']);

/**
 * A fastify app with Paddock's conventions: the shared logger, one debug line per request, the error
 * envelope for every failure (unknown routes and framework errors included), and a body limit.
 */
export function createHttpApp(options: HttpAppOptions): FastifyInstance {
  const { default: Fastify, LogController } = fastify();
  const app = Fastify({
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // A request that does not match its route's schema: 400 invalid_request naming the field.
    schemaErrorFormatter: (errors, dataVar) => new Error(schemaErrorSentence(errors, dataVar)),
  });

  app.addHook('onResponse', (req, reply, done) => {
    // Checked first: the line's fields cost more to gather than to skip.
    if (LOGS_DEBUG.has(req.log.level)) {
      req.log.debug(
        { method: req.method, url: req.url, status: reply.statusCode, ms: reply.elapsedTime },
        'request',
      );
    }
    done();
  });

  // A response finished after shutdown began closes its connection, so that keep-alive clients do
  // not hold the server open until the grace period runs out.
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (!app.server.listening) void reply.header('connection', 'close');
    done(null, payload);
  });

  app.setErrorHandler((err, req, reply) => {
    const { status, body } = toEnvelope(err, options.statusOf);
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

/** One failure of a schema check, as ajv and TypeBox report it. */
export interface SchemaFailure {
  keyword: string;
  instancePath?: string;
  schemaPath?: string;
  params?: Record<string, unknown>;
  message?: string;
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

const orList = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;

/** What one failure (not an alternative of anyOf) asks for. */
function expected(failure: SchemaFailure): string {
  const p = failure.params ?? {};
  switch (failure.keyword) {
    case 'type':
      return orList([p.type].flat().map((t) => ARTICLE[String(t)] ?? String(t)));
    case 'const':
      return JSON.stringify(p.allowedValue);
    case 'enum':
      return `one of ${orList(((p.allowedValues as unknown[]) ?? []).map((v) => JSON.stringify(v)))}`;
    default:
      return failure.message ?? 'valid';
  }
}

/**
 * The sentence of a schema failure, naming the field: "body.name must be a string",
 * "querystring.limit must be ≤ 100", "body has an unknown field \"x\"".
 */
export function schemaErrorSentence(failures: readonly SchemaFailure[], dataVar: string): string {
  const where = (path = '') =>
    dataVar +
    path
      .split('/')
      .slice(1)
      .map((part) =>
        /^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`,
      )
      .join('');
  // Of a union, the alternatives come first and the anyOf last: the sentence lists them.
  const union = failures.find((f) => f.keyword === 'anyOf' || f.keyword === 'oneOf');
  if (union !== undefined) {
    const below = `${union.schemaPath ?? ''}/${union.keyword}/`;
    const options = failures
      .filter(
        (f) => f.instancePath === union.instancePath && (f.schemaPath ?? '').startsWith(below),
      )
      .filter((f) => f.keyword === 'type' || f.keyword === 'const' || f.keyword === 'enum');
    if (options.length > 0)
      return `${where(union.instancePath)} must be ${orList(options.map(expected))}`;
  }
  const failure = failures.find((f) => f.keyword !== 'boolean') ?? failures[0];
  if (failure === undefined) return `${dataVar} is not valid`;
  const p = failure.params ?? {};
  const at = where(failure.instancePath);
  switch (failure.keyword) {
    case 'required': {
      const missing = [p.missingProperty ?? p.requiredProperties].flat().map(String);
      const names = missing.map((m) => `${at}.${m}`);
      return missing.length > 1
        ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)} are required`
        : `${names[0]} is required`;
    }
    case 'additionalProperties': {
      const extra = [p.additionalProperty ?? p.additionalProperties].flat().map(String);
      return `${at} has an unknown field ${orList(extra.map((e) => `"${e}"`))}`;
    }
    case 'type':
    case 'const':
    case 'enum':
      return `${at} must be ${expected(failure)}`;
    case 'minimum':
      return `${at} must be ≥ ${String(p.limit)}`;
    case 'maximum':
      return `${at} must be ≤ ${String(p.limit)}`;
    case 'exclusiveMinimum':
      return `${at} must be > ${String(p.limit)}`;
    case 'exclusiveMaximum':
      return `${at} must be < ${String(p.limit)}`;
    case 'minLength':
      return `${at} must be at least ${String(p.limit)} characters long`;
    case 'maxLength':
      return `${at} must be at most ${String(p.limit)} characters long`;
    case 'minItems':
      return `${at} must hold at least ${String(p.limit)} items`;
    case 'maxItems':
      return `${at} must hold at most ${String(p.limit)} items`;
    case 'pattern':
      return `${at} must match ${String(p.pattern)}`;
    case 'format':
      return `${at} must be a valid ${String(p.format)}`;
    default:
      return `${at} ${failure.message ?? 'is not valid'}`;
  }
}

/** How long an idle kept-alive connection stays open: fastify's default, past the usual load balancers' 60 s. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * A node HTTP server with the timeouts fastify gives the servers it makes: for a listener that
 * answers without fastify, or before it loads, so that clients see no difference.
 */
export function createNodeServer(): Server {
  const server = createServer();
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.requestTimeout = 0;
  return server;
}

/**
 * Listens and returns the bound address (the real port when 0 was asked for): a fastify app, or a
 * plain node server its owner answers.
 */
export async function listen(target: FastifyInstance | Server, address: Address): Promise<Address> {
  if (target instanceof Server) {
    // Rejects with the listen error (a port in use), as fastify's listen does.
    await once(target.listen(address.port, address.host), 'listening');
  } else {
    await target.listen({ host: address.host, port: address.port });
  }
  const server = target instanceof Server ? target : target.server;
  const bound = server.address();
  if (bound === null || typeof bound === 'string') return address;
  return { host: bound.address, port: bound.port };
}
