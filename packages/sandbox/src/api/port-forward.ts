import { connect, type NetConnectOpts, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { WebSocket } from 'ws';
import { auditLine } from './audit.js';
import type { ApiContext } from './context.js';
import type { FeatureModule } from './listener.js';
import { ROUTES } from './routes.js';
import { ReadSlabs } from './read-slabs.js';
import { PortForwardQuery } from './schemas.js';
import { checkParameters } from './validation.js';
import {
  asBuffer,
  CLOSE,
  closeForShutdown,
  closeWith,
  type RouteSession,
  type Parsed,
  mountWebSocketRoute,
} from './websocket-upgrade.js';

/** The only host a tunnel reaches: services of the workspace's own container. */
export const TARGET_HOST = '127.0.0.1';
export { MAX_PORT, MIN_PORT } from './schemas.js';
/**
 * Bytes queued towards the client beyond which the target is no longer read. Large enough that a
 * fast client never waits on the round trip of a resume, small enough to bound memory per tunnel.
 */
export const CLIENT_HIGH_WATER_BYTES = 1024 * 1024;
/** Queued bytes towards the client below which reading the target resumes. */
export const CLIENT_LOW_WATER_BYTES = 256 * 1024;
/**
 * The most one read of the target takes, and so the largest frame sent to the client: large frames
 * cost the client and any proxy in between less per byte than the 64 KiB of a default socket read.
 */
export const TARGET_READ_BYTES = 256 * 1024;
/**
 * Read slabs a tunnel may hold (being read into, or being sent) before it stops reading the
 * target: bounds its memory whatever the sizes of the reads, which bufferedAmount alone does not
 * (a slab holding a short read counts its few bytes there, but keeps its whole size).
 */
export const MAX_READ_SLABS = 6;
/** Slabs in use at or below which a tunnel paused for them reads the target again. */
const RESUME_READ_SLABS = MAX_READ_SLABS / 2;
/**
 * A read shorter than this (an interactive session's keystrokes and prompts) is copied into a
 * small pooled Buffer and its slab reused at once, rather than holding a whole slab until sent.
 */
export const COPY_READS_BELOW_BYTES = 4 * 1024;
/**
 * Bytes queued towards the target beyond which the client's frames are no longer read: one full
 * client frame (the listener's 1 MiB maxPayload) fits without stopping.
 */
export const TARGET_HIGH_WATER_BYTES = 1024 * 1024;
/** A local connect that has not completed by then will not (a full listen backlog). */
export const CONNECT_TIMEOUT_MS = 10_000;
/** After the client left, how long the target may take to close its side before it is cut. */
export const TARGET_LINGER_MS = 10_000;
/**
 * The one text frame of the tunnel, in both directions: the sender has no more bytes to send (TCP's
 * FIN, a half-close). The other direction stays open until its own end-of-stream.
 */
export const EOF_FRAME = 'eof';
/** Close code of a client that sends bytes after its own end-of-stream frame. */
const PROTOCOL_ERROR = 1002;

/** The port of GET /api/port-forward?port=N, as its schema (PortForwardQuery) allows it. */
export function parsePortQuery(query: Record<string, unknown>): Parsed<number> {
  const checked = checkParameters(PortForwardQuery, query);
  return checked.ok ? { ok: true, value: checked.value.port } : checked;
}

/**
 * The tunnel's target, refused when it is one of the sandbox's own HTTP listeners (MCP, the human
 * API): reached from inside the sandbox, they would take requests that never passed the proxy. The
 * embedded SSH server stays reachable: the tunnel is its only way in, and it authenticates by key.
 * The tunnel's host is always 127.0.0.1, which reaches a listener bound to loopback or to every
 * address on that port, so the port alone decides.
 */
export function checkTarget(port: Parsed<number>, selfPorts: ReadonlySet<number>): Parsed<number> {
  if (port.ok && selfPorts.has(port.value)) {
    return {
      ok: false,
      error: `port ${port.value} is one of the sandbox's own listeners; a tunnel reaches only the workspace's services`,
    };
  }
  return port;
}

/** The close reason when the target fails: what happened, and to which address. */
export function targetFailureReason(code: string | undefined, port: number): string {
  const what =
    code === 'ECONNREFUSED'
      ? 'connection refused'
      : code === 'ECONNRESET' || code === 'EPIPE'
        ? 'connection reset by the target'
        : code === 'ETIMEDOUT'
          ? 'connection timed out'
          : `connection failed (${code ?? 'unknown error'})`;
  return `${what}: ${TARGET_HOST}:${port}`;
}

/** WebSocket GET /api/port-forward?port=N: a raw TCP tunnel to 127.0.0.1:N. */
export const portForwardFeature: FeatureModule = (app, ctx) => {
  const tunnels = mountWebSocketRoute(
    app,
    ROUTES.portForward,
    (query: Record<string, unknown>) => checkTarget(parsePortQuery(query), ctx.selfPorts),
    (socket, query, sub) => new Tunnel(socket, query, sub, ctx),
  );
  ctx.metrics?.trackTunnels(tunnels);
  return Promise.resolve(tunnels);
};

/**
 * One tunnel: binary frames from the client are written to the target, the target's bytes are sent
 * as binary frames. Each direction stops reading its source while its destination is backed up, so
 * memory stays bounded whatever the speeds. Audited once, when both sides are closed.
 */
class Tunnel implements RouteSession {
  readonly done: Promise<void>;

  private readonly startedAt = performance.now();
  private readonly tcp: Socket;
  /** Bytes from the client written to the target. */
  private bytesIn = 0;
  /** Bytes from the target sent to the client. */
  private bytesOut = 0;
  private targetPaused = false;
  /** The target is read into these, and each filled slab is sent as one frame without a copy. */
  private readonly slabs = new ReadSlabs(TARGET_READ_BYTES, MAX_READ_SLABS);
  /** The client sent its end-of-stream frame: the target got FIN. */
  private clientEnded = false;
  /** The target sent FIN: the client got the end-of-stream frame. */
  private targetEnded = false;
  private wsClosed = false;
  private tcpClosed = false;
  private finished = false;
  private settle!: () => void;

  constructor(
    private readonly socket: WebSocket,
    private readonly port: number,
    private readonly sub: string,
    private readonly ctx: ApiContext,
  ) {
    this.done = new Promise((resolve) => (this.settle = resolve));
    // Node hands stream options through to the socket; its type definitions do not list them.
    // `onread` is typed here with the Buffers the slabs are, where the definitions say Uint8Array.
    const options: NetConnectOpts & {
      writableHighWaterMark: number;
      onread: { buffer: () => Buffer; callback: (bytes: number, slab: Buffer) => boolean };
    } = {
      host: TARGET_HOST,
      port,
      // The target's FIN ends only its direction: the client may still be sending.
      allowHalfOpen: true,
      noDelay: true,
      timeout: CONNECT_TIMEOUT_MS,
      writableHighWaterMark: TARGET_HIGH_WATER_BYTES,
      // Target to client: read into reused slabs rather than a new Buffer per read.
      onread: { buffer: this.slabs.take, callback: this.fromTarget },
    };
    const tcp = connect(options);
    this.tcp = tcp;

    // Client to target. Bytes sent before the connection is up wait in the socket's buffer.
    socket.on('message', (data, isBinary) => {
      if (!isBinary) {
        if (!this.clientEnded && asBuffer(data).toString('utf8') === EOF_FRAME) {
          this.clientEnded = true;
          tcp.end(); // FIN to the target once what the client sent is written
          if (this.targetEnded) closeWith(socket, CLOSE.normal, 'both sides finished');
          return;
        }
        closeWith(
          socket,
          CLOSE.unsupportedData,
          `the only text frame is "${EOF_FRAME}", once; send bytes as binary frames`,
        );
        tcp.destroy();
        return;
      }
      if (this.clientEnded) {
        closeWith(socket, PROTOCOL_ERROR, `bytes after "${EOF_FRAME}"`);
        tcp.destroy();
        return;
      }
      if (!tcp.writable) return; // the target is gone: nothing can take these bytes any more
      const bytes = asBuffer(data);
      this.bytesIn += bytes.length;
      this.ctx.metrics?.countTunnelBytes('in', bytes.length);
      if (!tcp.write(bytes)) socket.pause();
    });
    tcp.on('drain', () => socket.resume());

    tcp.once('connect', () => tcp.setTimeout(0));
    tcp.once('timeout', () =>
      tcp.destroy(Object.assign(new Error('connect timed out'), { code: 'ETIMEDOUT' })),
    );
    tcp.on('error', (err: NodeJS.ErrnoException) => {
      closeWith(socket, CLOSE.internalError, targetFailureReason(err.code, port));
    });
    // The target finished sending (FIN): the client learns it after every byte the target sent,
    // and may go on sending until it ends too; then the tunnel closes.
    tcp.on('end', () => {
      this.targetEnded = true;
      if (socket.readyState !== socket.OPEN) return;
      socket.send(EOF_FRAME, { binary: false });
      if (this.clientEnded) closeWith(socket, CLOSE.normal, 'the target closed the connection');
    });
    tcp.on('close', () => {
      this.tcpClosed = true;
      socket.resume(); // nothing more to write: read on so that the closing handshake completes
      if (socket.readyState === socket.OPEN) {
        closeWith(socket, CLOSE.normal, 'the target closed the connection');
      }
      this.finishIfDone();
    });

    socket.on('close', () => {
      this.wsClosed = true;
      this.clientGone();
      this.finishIfDone();
    });
  }

  /** Ends the tunnel now (sandbox shutdown). */
  shutdown(): Promise<void> {
    closeForShutdown(this.socket);
    this.tcp.destroy();
    return this.done;
  }

  /**
   * Target to client: `bytes` were read into `slab`, which is sent as one frame without a copy and
   * taken back once written. Returns false (stop reading) while the client is backed up.
   */
  private readonly fromTarget = (bytes: number, slab: Buffer): boolean => {
    const { socket, slabs } = this;
    // The client left; the target is being closed and what it still sends is dropped.
    if (socket.readyState !== socket.OPEN) {
      slabs.give(slab);
      return true;
    }
    this.bytesOut += bytes;
    this.ctx.metrics?.countTunnelBytes('out', bytes);
    if (bytes < COPY_READS_BELOW_BYTES) {
      socket.send(Buffer.from(slab.subarray(0, bytes)), { binary: true }, this.afterSend);
      slabs.give(slab);
    } else {
      socket.send(slab.subarray(0, bytes), { binary: true }, (err) => {
        // A failed send may leave the bytes queued on a socket being destroyed: not reused.
        if (err) slabs.forget();
        else slabs.give(slab);
        this.afterSend(err);
      });
    }
    if (socket.bufferedAmount > CLIENT_HIGH_WATER_BYTES || slabs.inUse >= MAX_READ_SLABS) {
      this.targetPaused = true;
      return false;
    }
    return true;
  };

  /** Called as each frame towards the client is flushed: resumes the target once caught up. */
  private readonly afterSend = (err?: Error): void => {
    if (
      !err &&
      this.targetPaused &&
      this.socket.bufferedAmount <= CLIENT_LOW_WATER_BYTES &&
      this.slabs.inUse <= RESUME_READ_SLABS
    ) {
      this.targetPaused = false;
      this.tcp.resume();
    }
  };

  /**
   * The client's close ends the TCP connection: what it sent is flushed, then FIN; what the target
   * still sends is read and dropped until it closes too, or until TARGET_LINGER_MS.
   */
  private clientGone(): void {
    if (this.tcpClosed) return;
    this.tcp.end();
    this.targetPaused = false;
    this.tcp.resume();
    const linger = setTimeout(() => this.tcp.destroy(), TARGET_LINGER_MS);
    this.tcp.once('close', () => clearTimeout(linger));
  }

  private finishIfDone(): void {
    if (!this.wsClosed || !this.tcpClosed || this.finished) return;
    this.finished = true;
    const ms = performance.now() - this.startedAt;
    this.ctx.audit(
      auditLine.portForward({
        sub: this.sub,
        port: this.port,
        bytesIn: this.bytesIn,
        bytesOut: this.bytesOut,
        ms,
      }),
    );
    this.settle();
  }
}
