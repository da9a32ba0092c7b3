import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';

/** The first byte of a TLS handshake record. */
const TLS_HANDSHAKE = 0x16;

export interface DualProtocolListener {
  /** Listens on the one port both protocols share. */
  net: NetServer;
  servers: [Server, Server];
  /** Stops listening; idle connections go now, busy ones after `graceMs`. */
  close(graceMs: number): Promise<void>;
}

/**
 * HTTP and HTTPS on one port, told apart by the first byte a client sends. Plain HTTP is what tests
 * and the platform use on loopback; HTTPS is for kubectl, which sends no credentials over HTTP.
 */
export function dualProtocolListener(
  handler: RequestListener,
  tls: { cert: string; key: string },
): DualProtocolListener {
  const http = createHttpServer(handler);
  const https = createHttpsServer({ cert: tls.cert, key: tls.key }, handler);
  const undecided = new Set<Socket>();
  const net = createNetServer((socket) => {
    undecided.add(socket);
    socket.once('close', () => undecided.delete(socket));
    socket.once('data', (first: Buffer) => {
      undecided.delete(socket);
      socket.pause();
      socket.unshift(first);
      (first[0] === TLS_HANDSHAKE ? https : http).emit('connection', socket);
      process.nextTick(() => socket.resume());
    });
  });
  return {
    net,
    servers: [http, https],
    async close(graceMs) {
      const closed = new Promise<void>((resolve) => net.close(() => resolve()));
      for (const socket of undecided) socket.destroy();
      for (const server of [http, https]) {
        server.close();
        server.closeIdleConnections();
      }
      const timer = setTimeout(() => {
        for (const server of [http, https]) server.closeAllConnections();
      }, graceMs);
      await closed;
      clearTimeout(timer);
    },
  };
}
