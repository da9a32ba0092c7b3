import { env, httpErrors, loadConfig } from '@paddock/common';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { FeatureHandle } from './context.js';

/** What the terminal and tunnel routes share: the upgrade gate, close codes, keepalive, shutdown. */

/** A query or message checked by a pure function: its value, or what is wrong with it. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** The close codes these routes use (RFC 6455 section 7.4.1). */
export const CLOSE = {
  /** The session ended: the shell exited, or the target closed the connection. */
  normal: 1000,
  /** The sandbox is shutting down. */
  goingAway: 1001,
  /** A frame of the wrong kind: text on the tunnel. */
  unsupportedData: 1003,
  /** A malformed or unknown control message on the terminal. */
  policyViolation: 1008,
  /** The server could not do its part: the shell did not start, the target refused or failed. */
  internalError: 1011,
} as const;

/** The protocol caps a close reason at 123 bytes of UTF-8 (a 125-byte control frame minus the code). */
export const MAX_CLOSE_REASON_BYTES = 123;

/** A close reason cut to what the protocol allows, never splitting a character. */
export function closeReason(text: string): string {
  if (Buffer.byteLength(text) <= MAX_CLOSE_REASON_BYTES) return text;
  let cut = text;
  while (Buffer.byteLength(cut) > MAX_CLOSE_REASON_BYTES - 3) cut = cut.slice(0, -1);
  // A lone high surrogate left at the end would be replaced by U+FFFD; drop it.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut}...`;
}

/** Closes the socket with a code and reason, unless it is already closing. */
export function closeWith(socket: WebSocket, code: number, reason: string): void {
  if (socket.readyState === socket.OPEN) socket.close(code, closeReason(reason));
}

/** The envelope of a request without Upgrade to a WebSocket route. */
export function answerUpgradeRequired(req: FastifyRequest, reply: FastifyReply): void {
  const path = req.url.split('?')[0] ?? '';
  void reply
    .code(426)
    .header('upgrade', 'websocket')
    .header('connection', 'Upgrade')
    .send({
      error: 'upgrade_required',
      message: `${path} is a WebSocket endpoint; connect with a WebSocket client (Upgrade: websocket)`,
    });
}

/**
 * The preValidation hook of a WebSocket route: a plain request is answered 426 whatever else is
 * wrong with it; an upgrade whose query `parse` refuses is answered 400 with the envelope. Both
 * happen before the handshake, so a refused client never holds an open socket.
 */
export function upgradeGate(
  req: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  if (!req.ws) return answerUpgradeRequired(req, reply);
  done();
}

/**
 * After the schema's check, the route's own rule on the query (a domain rule no schema says, such
 * as the tunnel's refusal of the sandbox's own ports): a refusal is a 400 before the handshake.
 */
function domainGate<Q>(
  parse: (query: Q) => Parsed<unknown>,
): (req: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void {
  return (req, _reply, done) => {
    const parsed = parse(req.query as Q);
    done(parsed.ok ? undefined : httpErrors.invalidRequest(parsed.error));
  };
}

/** Seconds between server pings when SVC_API_PING_SECONDS is not set. */
export const DEFAULT_PING_SECONDS = 30;
/** Longest ping interval accepted: beyond an hour a dead peer would hold its shell far too long. */
const MAX_PING_SECONDS = 3600;

/** The keepalive interval: SVC_API_PING_SECONDS (tests shorten it), else 30 s. */
export function pingIntervalMs(environment: NodeJS.ProcessEnv = process.env): number {
  const config = loadConfig(
    { SVC_API_PING_SECONDS: env.integer(DEFAULT_PING_SECONDS, { min: 1, max: MAX_PING_SECONDS }) },
    environment,
  );
  return config.SVC_API_PING_SECONDS * 1000;
}

/**
 * Pings the peer every `intervalMs` and terminates it when the previous ping got no pong, so a
 * client that vanished without closing (a sleeping laptop, a dropped NAT entry) does not keep its
 * shell or tunnel alive. While the socket is paused by our own backpressure its pongs cannot be
 * read, so those pings judge nothing; they are still sent, so that a peer that is gone shows up as a
 * write error and closes the socket even then.
 */
export function keepAlive(socket: WebSocket, intervalMs: number): void {
  let answered = true;
  socket.on('pong', () => {
    answered = true;
  });
  const timer = setInterval(() => {
    if (!answered && !socket.isPaused) {
      socket.terminate();
      return;
    }
    answered = socket.isPaused;
    socket.ping();
  }, intervalMs);
  socket.once('close', () => clearInterval(timer));
}

/** At shutdown, how long a client gets to answer the close frame before its socket is cut. */
export const SHUTDOWN_CLOSE_WAIT_MS = 1_000;

/**
 * Closes the socket with 1001 for a shutdown, and cuts it if the client has not completed the
 * closing handshake within SHUTDOWN_CLOSE_WAIT_MS (a paused or vanished client never will).
 */
export function closeForShutdown(socket: WebSocket): void {
  closeWith(socket, CLOSE.goingAway, 'sandbox shutting down');
  const cut = setTimeout(() => socket.terminate(), SHUTDOWN_CLOSE_WAIT_MS);
  socket.once('close', () => clearTimeout(cut));
}

/** A binary message's bytes as one Buffer, whatever shape ws delivered them in. */
export function asBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Something alive that shutdown must end: a terminal or a tunnel. */
export interface LiveSession {
  /** Ends the session now and resolves once it is gone (its audit line written). */
  shutdown(): Promise<void>;
}

/** The sessions of one route, so that the feature's handle can end them all at shutdown. */
export class LiveSessions implements FeatureHandle {
  private readonly sessions = new Set<LiveSession>();

  add(session: LiveSession): void {
    this.sessions.add(session);
  }

  delete(session: LiveSession): void {
    this.sessions.delete(session);
  }

  get size(): number {
    return this.sessions.size;
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.shutdown()));
  }
}

/** A session a WebSocket route opens: it ends on its own and resolves `done` once audited. */
export interface RouteSession extends LiveSession {
  readonly done: Promise<void>;
}

/**
 * Mounts a WebSocket route the way the terminal and tunnel routes share: a plain request gets 426
 * whatever else is wrong with it, then the query is checked (the route's schema, then `parse`)
 * before the handshake, so a mistake is an HTTP 400 and no upgrade happens; every session is kept
 * alive with pings and tracked so that shutdown can end it. The returned handle is the feature's.
 */
export function mountWebSocketRoute<Q, V>(
  app: FastifyInstance,
  route: { path: string; schema: FastifySchema },
  parse: (query: Q) => Parsed<V>,
  open: (socket: WebSocket, value: V, sub: string) => RouteSession,
): LiveSessions {
  const sessions = new LiveSessions();
  const pingMs = pingIntervalMs();
  app.route({
    method: 'GET',
    url: route.path,
    schema: route.schema,
    // preValidation runs before the schema's check: the 426 comes first.
    preValidation: upgradeGate,
    preHandler: domainGate(parse),
    handler: answerUpgradeRequired,
    wsHandler: (socket, req) => {
      const parsed = parse(req.query as Q);
      if (!parsed.ok) return closeWith(socket, CLOSE.policyViolation, parsed.error); // validated before
      const session = open(socket, parsed.value, req.identity.sub);
      sessions.add(session);
      void session.done.then(() => sessions.delete(session));
      keepAlive(socket, pingMs);
    },
  });
  return sessions;
}
