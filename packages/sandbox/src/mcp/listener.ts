import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createNodeServer, Health, type Logger, type StopBudget } from '@paddock/common';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { InFlight } from './in-flight.js';
import { createJsonReplyTransport } from './json-replies.js';
import { BodyTooLarge, readBody } from './message-body.js';
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
const INVALID_MESSAGE = 'Invalid Request: not a JSON-RPC 2.0 message';
/** Where an HTTP+SSE session posts its messages (with its sessionId in the query). */
export const SSE_MESSAGE_PATH = '/message';

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
  /** The node server to listen with; its owner passes it to `listen`. */
  server: Server;
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

/** Answers a JSON-RPC error for what went wrong before a message reached the SDK. */
function sendError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res
    .writeHead(status, { 'content-type': 'application/json', ...headers })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** Answers a JSON body (without it to a HEAD request). */
function sendJson(res: ServerResponse, status: number, body: object, head: boolean): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(head ? undefined : text);
}

/**
 * The client a session is counted against: its remote address (IPv4-mapped IPv6 written as IPv4).
 * Behind a proxy every session counts against the proxy, which then needs its own bound.
 */
export function clientOf(req: { socket: { remoteAddress?: string | undefined } }): string {
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
  const server = createNodeServer();
  const health = new Health();
  const sessions = new McpSessions(options.clock);
  const { metrics } = base;
  metrics?.trackSessions(sessions);
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
    req: IncomingMessage,
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

  /** Sends the Origin and bearer-token refusals; true when the request may go on. */
  function admitted(req: IncomingMessage, res: ServerResponse): boolean {
    const origin = req.headers.origin;
    if (origin !== undefined && !options.allowedOrigins.includes(origin)) {
      sendError(res, 403, JSONRPC.SERVER_ERROR, `Origin ${origin} is not allowed`);
      return false;
    }
    if (options.token !== undefined) {
      const header = req.headers.authorization ?? '';
      const given = header.startsWith('Bearer ') ? header.slice(7) : '';
      if (!sameSecret(given, options.token)) {
        sendError(res, 401, JSONRPC.SERVER_ERROR, 'a valid bearer token is required', {
          'www-authenticate': 'Bearer',
        });
        return false;
      }
    }
    return true;
  }

  /** Reads, parses and checks a JSON-RPC message, answering the error itself when it is not one. */
  async function readMessage(
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<JSONRPCMessage | undefined> {
    const type = req.headers['content-type'] ?? '';
    if (!/^application\/json\b/i.test(type)) {
      sendError(res, 415, JSONRPC.INVALID_REQUEST, 'Content-Type must be application/json');
      return undefined;
    }
    let text: string;
    try {
      text = await readBody(req, MAX_MESSAGE_BYTES);
    } catch (err) {
      if (!(err instanceof BodyTooLarge)) throw err;
      // The rest of the body is not read: the connection ends with the answer.
      sendError(res, 413, JSONRPC.INVALID_REQUEST, err.message, { connection: 'close' });
      return undefined;
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (err) {
      sendError(res, 400, JSONRPC.PARSE_ERROR, `Parse error: ${(err as Error).message}`);
      return undefined;
    }
    if (Array.isArray(body)) {
      sendError(res, 400, JSONRPC.INVALID_REQUEST, 'Invalid Request: batches are not supported');
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
      sendError(res, 400, JSONRPC.INVALID_REQUEST, INVALID_MESSAGE);
      return undefined;
    }
    return body as JSONRPCMessage;
  }

  function refuseWhenClosing(res: ServerResponse): boolean {
    if (!closing) return false;
    sendError(res, 503, JSONRPC.SERVER_ERROR, 'the sandbox cannot take another session now');
    return true;
  }

  // The specification's transport: the stream, then messages posted to its session path.
  async function openSseStream(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const accept = req.headers.accept ?? '*/*';
    if (!/text\/event-stream|\*\/\*/.test(accept)) {
      return sendError(res, 406, JSONRPC.INVALID_REQUEST, 'Accept must include text/event-stream');
    }
    if (refuseWhenClosing(res)) return;
    const transport = new SSEServerTransport(SSE_MESSAGE_PATH, res);
    const session = openSession('sse', transport, transport.sessionId, req);
    session.stream = res;
    addSession(session);
    transport.onclose = () => void sessions.end(session.id);
    await session.server.connect(transport);
    const keepAlive = setInterval(() => res.write(': keepalive\n\n'), options.keepAliveMs);
    res.on('close', () => clearInterval(keepAlive));
    logger.debug({ session: session.id }, 'SSE session opened');
  }

  async function postSseMessage(
    req: IncomingMessage,
    res: ServerResponse,
    query: string,
  ): Promise<void> {
    const id = new URLSearchParams(query).get('sessionId');
    if (!id) {
      return sendError(
        res,
        400,
        JSONRPC.INVALID_REQUEST,
        'the sessionId query parameter is required',
      );
    }
    const session = sessions.get(id, 'sse');
    if (!session) return sendError(res, 404, JSONRPC.SESSION_NOT_FOUND, 'Session not found');
    const message = await readMessage(req, res);
    if (!message) return;
    // What the SDK's handlePostMessage does after the checks above: hand the message to the
    // transport, then accept the post. Without it, no URL object is built per message (no tool
    // reads the request's URL) and the content type is not parsed a second time.
    try {
      await (session.transport as SSEServerTransport).handleMessage(message, {
        requestInfo: { headers: req.headers },
      });
    } catch {
      return sendError(res, 400, JSONRPC.INVALID_REQUEST, INVALID_MESSAGE);
    }
    res.writeHead(202).end('Accepted');
  }

  // Streamable HTTP, for current clients.
  async function postStreamable(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const message = await readMessage(req, res);
    if (!message) return;
    const id = req.headers['mcp-session-id'];
    let session: McpSession | undefined;
    if (typeof id === 'string') {
      session = sessions.get(id, 'streamable');
      if (!session) return sendError(res, 404, JSONRPC.SESSION_NOT_FOUND, 'Session not found');
    } else if (isInitializeRequest(message)) {
      if (refuseWhenClosing(res)) return;
      const transport: StreamableHTTPServerTransport = createJsonReplyTransport({
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
      return sendError(res, 400, JSONRPC.SERVER_ERROR, 'Bad Request: no valid session ID provided');
    }
    await (session.transport as StreamableHTTPServerTransport).handleRequest(req, res, message);
  }

  async function streamableWithSession(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const id = req.headers['mcp-session-id'];
    const session = typeof id === 'string' ? sessions.get(id, 'streamable') : undefined;
    if (!session) {
      return typeof id === 'string'
        ? sendError(res, 404, JSONRPC.SESSION_NOT_FOUND, 'Session not found')
        : sendError(
            res,
            400,
            JSONRPC.SERVER_ERROR,
            'Bad Request: Mcp-Session-Id header is required',
          );
    }
    await (session.transport as StreamableHTTPServerTransport).handleRequest(req, res);
  }

  /** The handler of an MCP route, or undefined for the probes, metrics and unknown paths. */
  function mcpRoute(
    method: string | undefined,
    path: string,
  ): ((req: IncomingMessage, res: ServerResponse, query: string) => Promise<void>) | undefined {
    if (path === '/sse') return method === 'GET' ? openSseStream : undefined;
    if (path === SSE_MESSAGE_PATH) return method === 'POST' ? postSseMessage : undefined;
    if (path !== '/mcp') return undefined;
    if (method === 'POST') return postStreamable;
    return method === 'GET' || method === 'DELETE' ? streamableWithSession : undefined;
  }

  /**
   * The probes, and beside them, outside the MCP routes' Origin and token checks as the probes
   * are, what Prometheus scrapes inside the cluster (counts and durations, no workspace content);
   * a not-found envelope for anything else.
   */
  async function answerOther(req: IncomingMessage, res: ServerResponse, path: string) {
    const started = performance.now();
    const head = req.method === 'HEAD';
    // A response finished after shutdown began closes its connection: keep-alive clients do not
    // hold the server open until the grace period runs out.
    if (closing) res.setHeader('connection', 'close');
    const probe = head || req.method === 'GET' ? await health.answer(path) : undefined;
    if (probe) {
      sendJson(res, probe.status, probe.body, head);
    } else if (metrics && path === '/metrics' && (head || req.method === 'GET')) {
      const { contentType, body } = await metrics.exposition();
      res.writeHead(200, { 'content-type': contentType }).end(head ? undefined : body);
    } else {
      const message = `no route for ${req.method ?? 'GET'} ${path}`;
      sendJson(res, 404, { error: 'not_found', message }, head);
    }
    logger.debug(
      { method: req.method, url: req.url, status: res.statusCode, ms: performance.now() - started },
      'request',
    );
  }

  // Node's HTTP server answers every route itself: a tool call is the hot path, and a framework's
  // routing, hooks and reply objects cost more per call (and about 16 MiB at rest) than these few
  // routes need. The SDK's transports take node's request and response as they are.
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const route = mcpRoute(req.method, path);
    const answered = !route
      ? answerOther(req, res, path)
      : admitted(req, res)
        ? route(req, res, mark === -1 ? '' : url.slice(mark + 1))
        : undefined;
    answered?.catch((err: unknown) => {
      logger.error({ err }, 'MCP request failed');
      sendError(res, 500, JSONRPC.SERVER_ERROR, 'internal error');
    });
  });

  const close = async (budget?: StopBudget) => {
    closing = true;
    health.startDraining();
    clearInterval(idleTimer);
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
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
    server.closeAllConnections();
    await closed;
  };

  return { server, sessions, health, close };
}
