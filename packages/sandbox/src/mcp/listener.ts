import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createHttpApp, Health, type Logger, type StopBudget } from '@paddock/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { InFlight } from './in-flight.js';
import { createMcpServer, type McpContext } from './server.js';
import { SessionState } from './session.js';
import { IDLE_SWEEP_MS, McpSessions, type McpSession } from './sessions.js';

/** Largest JSON-RPC message accepted (a Write of a large file travels in one message). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;
/**
 * Shutdown waits this long for tool calls in flight when it is given no budget (the
 * specification's window is 10 s); a process's shutdown passes its one shared budget instead.
 */
export const SHUTDOWN_WAIT_MS = 9_500;

/** JSON-RPC error codes used at the transport edge. */
export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  SERVER_ERROR: -32000,
  SESSION_NOT_FOUND: -32001,
} as const;

export interface McpListenerOptions {
  /** Bearer token every MCP request must carry; undefined leaves the listener open. */
  token: string | undefined;
  allowedOrigins: readonly string[];
  keepAliveMs: number;
  /** The clock of session idleness; tests inject one. */
  clock?: () => number;
}

export interface McpListener {
  app: FastifyInstance;
  sessions: McpSessions;
  /** Readiness of /readyz; the process adds checks for what else must be up before it serves. */
  health: Health;
  /**
   * Stops accepting, waits for tool calls in flight (until the budget's forcing moment), drops
   * streams, ends every session.
   */
  close: (budget?: StopBudget) => Promise<void>;
}

type McpBaseContext = Omit<McpContext, 'track' | 'logger'>;

function sendError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
): FastifyReply {
  return reply
    .code(status)
    .header('content-type', 'application/json')
    .send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/**
 * The client a session is counted against: its remote address (IPv4-mapped IPv6 written as IPv4).
 * Behind a proxy every session counts against the proxy, which then needs its own bound.
 */
export function clientOf(req: FastifyRequest): string {
  const address = req.socket.remoteAddress ?? 'unknown';
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function sameSecret(given: string, expected: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * The MCP listener (-addr): the specification's HTTP+SSE transport (GET /sse, POST /message) and
 * the Streamable HTTP transport (/mcp), both speaking through the SDK's transports, with health
 * routes, Origin and optional bearer-token checks, a message size limit, and JSON-RPC errors for
 * everything that goes wrong before a message reaches the SDK.
 */
export function createMcpListener(
  base: McpBaseContext,
  logger: Logger,
  options: McpListenerOptions,
): McpListener {
  const app = createHttpApp({ logger });
  const health = new Health();
  health.register(app);
  const sessions = new McpSessions(options.clock);
  const { metrics } = base;
  if (metrics) {
    metrics.trackSessions(sessions);
    // Beside the probes and outside the MCP routes' Origin and token checks, as the probes are:
    // what Prometheus scrapes inside the cluster. Counts and durations only, no workspace content.
    app.get('/metrics', async (_req, reply) => {
      const { contentType, body } = await metrics.exposition();
      return reply.type(contentType).send(body);
    });
  }
  const inFlight = new InFlight();
  let closing = false;
  const context: McpContext = {
    ...base,
    logger,
    track: (work) => inFlight.track(work),
  };
  const idleTimer = setInterval(() => void sessions.endIdle(), IDLE_SWEEP_MS).unref();

  function openSession(
    kind: McpSession['kind'],
    transport: McpSession['transport'],
    id: string,
    req: FastifyRequest,
  ): McpSession {
    const state = new SessionState(base.groups);
    return {
      id,
      kind,
      transport,
      state,
      client: clientOf(req),
      lastSeen: sessions.now(),
      server: createMcpServer(context, state),
    };
  }

  /** Adds a session, logging the sessions its client (or the process) had to give up for it. */
  function addSession(session: McpSession): void {
    const evicted = sessions.add(session);
    if (evicted.length > 0) {
      logger.info(
        { client: session.client, ended: evicted.length },
        'MCP sessions ended to make room for a new one (least recently used first)',
      );
    }
  }

  void app.register((mcp, _opts, done) => {
    // Bodies arrive as text so that malformed JSON gets JSON-RPC's parse error, not a generic 400.
    mcp.removeAllContentTypeParsers();
    mcp.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: MAX_MESSAGE_BYTES },
      (_req, body, next) => next(null, body),
    );
    mcp.setErrorHandler((err: { code?: string; message: string }, _req, reply) => {
      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        return sendError(
          reply,
          413,
          JSONRPC.INVALID_REQUEST,
          `message larger than ${MAX_MESSAGE_BYTES} bytes`,
        );
      }
      logger.error({ err }, 'MCP request failed');
      return sendError(reply, 500, JSONRPC.SERVER_ERROR, 'internal error');
    });

    mcp.addHook('onRequest', (req, reply, next) => {
      const origin = req.headers.origin;
      if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
        return void sendError(reply, 403, JSONRPC.SERVER_ERROR, `Origin ${origin} is not allowed`);
      }
      if (options.token !== undefined) {
        const header = req.headers.authorization ?? '';
        const given = header.startsWith('Bearer ') ? header.slice(7) : '';
        if (!sameSecret(given, options.token)) {
          void reply.header('www-authenticate', 'Bearer');
          return void sendError(
            reply,
            401,
            JSONRPC.SERVER_ERROR,
            'a valid bearer token is required',
          );
        }
      }
      next();
    });

    /** Parses and checks a JSON-RPC message, answering the error itself when it is not one. */
    function readMessage(req: FastifyRequest, reply: FastifyReply): JSONRPCMessage | undefined {
      const type = req.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(type)) {
        void sendError(
          reply,
          415,
          JSONRPC.INVALID_REQUEST,
          'Content-Type must be application/json',
        );
        return undefined;
      }
      let body: unknown;
      try {
        body = JSON.parse(typeof req.body === 'string' ? req.body : '');
      } catch (err) {
        void sendError(reply, 400, JSONRPC.PARSE_ERROR, `Parse error: ${(err as Error).message}`);
        return undefined;
      }
      if (Array.isArray(body)) {
        void sendError(
          reply,
          400,
          JSONRPC.INVALID_REQUEST,
          'Invalid Request: batches are not supported',
        );
        return undefined;
      }
      // A cheap shape check; the SDK validates the message in full when it receives it.
      const message = body as { jsonrpc?: unknown; method?: unknown; id?: unknown } | null;
      if (
        typeof message !== 'object' ||
        message === null ||
        message.jsonrpc !== '2.0' ||
        (typeof message.method !== 'string' && message.id === undefined)
      ) {
        void sendError(
          reply,
          400,
          JSONRPC.INVALID_REQUEST,
          'Invalid Request: not a JSON-RPC 2.0 message',
        );
        return undefined;
      }
      return body as JSONRPCMessage;
    }

    function refuseWhenClosing(reply: FastifyReply): boolean {
      if (!closing) return false;
      void sendError(
        reply,
        503,
        JSONRPC.SERVER_ERROR,
        'the sandbox cannot take another session now',
      );
      return true;
    }

    // The specification's transport: the stream, then messages posted to its session path.
    mcp.get('/sse', async (req, reply) => {
      const accept = req.headers.accept ?? '*/*';
      if (!/text\/event-stream|\*\/\*/.test(accept)) {
        return sendError(
          reply,
          406,
          JSONRPC.INVALID_REQUEST,
          'Accept must include text/event-stream',
        );
      }
      if (refuseWhenClosing(reply)) return reply;
      reply.hijack();
      const res = reply.raw;
      const transport = new SSEServerTransport('/message', res);
      const session = openSession('sse', transport, transport.sessionId, req);
      session.stream = res;
      addSession(session);
      transport.onclose = () => void sessions.end(session.id);
      await session.server.connect(transport);
      const keepAlive = setInterval(() => res.write(': keepalive\n\n'), options.keepAliveMs);
      res.on('close', () => clearInterval(keepAlive));
      logger.debug({ session: session.id }, 'SSE session opened');
    });

    mcp.post('/message', async (req, reply) => {
      const id = (req.query as { sessionId?: string }).sessionId;
      if (!id)
        return sendError(
          reply,
          400,
          JSONRPC.INVALID_REQUEST,
          'the sessionId query parameter is required',
        );
      const session = sessions.get(id, 'sse');
      if (!session) return sendError(reply, 404, JSONRPC.SESSION_NOT_FOUND, 'Session not found');
      const message = readMessage(req, reply);
      if (!message) return reply;
      reply.hijack();
      await (session.transport as SSEServerTransport).handlePostMessage(
        req.raw,
        reply.raw,
        message,
      );
    });

    // Streamable HTTP, for current clients.
    mcp.post('/mcp', async (req, reply) => {
      const message = readMessage(req, reply);
      if (!message) return reply;
      const id = req.headers['mcp-session-id'];
      let session: McpSession | undefined;
      if (typeof id === 'string') {
        session = sessions.get(id, 'streamable');
        if (!session) return sendError(reply, 404, JSONRPC.SESSION_NOT_FOUND, 'Session not found');
      } else if (isInitializeRequest(message)) {
        if (refuseWhenClosing(reply)) return reply;
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (sessionId) => {
            fresh.id = sessionId;
            addSession(fresh);
          },
          onsessionclosed: (sessionId) => void sessions.end(sessionId),
        });
        const fresh = openSession('streamable', transport, '', req);
        transport.onclose = () => {
          if (transport.sessionId) void sessions.end(transport.sessionId);
        };
        session = fresh;
        await session.server.connect(transport);
      } else {
        return sendError(
          reply,
          400,
          JSONRPC.SERVER_ERROR,
          'Bad Request: no valid session ID provided',
        );
      }
      reply.hijack();
      await (session.transport as StreamableHTTPServerTransport).handleRequest(
        req.raw,
        reply.raw,
        message,
      );
    });

    const streamableWithSession = async (req: FastifyRequest, reply: FastifyReply) => {
      const id = req.headers['mcp-session-id'];
      const session = typeof id === 'string' ? sessions.get(id, 'streamable') : undefined;
      if (!session) {
        return typeof id === 'string'
          ? sendError(reply, 404, JSONRPC.SESSION_NOT_FOUND, 'Session not found')
          : sendError(
              reply,
              400,
              JSONRPC.SERVER_ERROR,
              'Bad Request: Mcp-Session-Id header is required',
            );
      }
      reply.hijack();
      await (session.transport as StreamableHTTPServerTransport).handleRequest(req.raw, reply.raw);
    };
    mcp.get('/mcp', streamableWithSession);
    mcp.delete('/mcp', streamableWithSession);
    done();
  });

  const close = async (budget?: StopBudget) => {
    closing = true;
    health.startDraining();
    clearInterval(idleTimer);
    const closed = new Promise<void>((resolve) => app.server.close(() => resolve()));
    const finished = await inFlight.idle(budget ? budget.remainingMs() : SHUTDOWN_WAIT_MS);
    if (!finished) {
      logger.warn({ calls: inFlight.size }, 'tool calls still running at shutdown; killing them');
      // The grace period is spent: no time is left for SIGTERM's own grace. Only this listener's
      // commands: another listener of the process keeps its own.
      base.groups.killAllNow();
    }
    // The SDK writes a result a few promise steps after the tool returns: let it reach the stream.
    await new Promise((resolve) => setImmediate(resolve));
    await sessions.endAll();
    app.server.closeAllConnections();
    await closed;
  };

  return { app, sessions, health, close };
}
