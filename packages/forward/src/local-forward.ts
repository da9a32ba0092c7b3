import { createServer, type AddressInfo, type Socket } from 'node:net';
import type WebSocket from 'ws';
import type { Target } from './credentials.js';
import { ForwardError } from './failure.js';
import { describeEnd, openTunnel, pipeTunnel } from './tunnel.js';

export interface LocalForwardOptions {
  target: Target;
  remotePort: number;
  localPort: number;
  bind: string;
  /** One line per connection that failed. */
  log: (line: string) => void;
}

export interface LocalForward {
  /** The address actually bound. */
  address: AddressInfo;
  close: () => Promise<void>;
}

/** `host:port`, with brackets for IPv6. */
export function formatHostPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * Listens on bind:localPort and opens one tunnel per accepted connection to the sandbox's
 * 127.0.0.1:remotePort. A connection waits (its bytes buffered, not read) until its tunnel is open.
 */
export async function forwardLocalPort(options: LocalForwardOptions): Promise<LocalForward> {
  const { target, remotePort, log } = options;
  const tunnels = new Set<WebSocket>();
  const sockets = new Set<Socket>();

  // The local client's FIN ends only its direction: the answer still arrives (half-close).
  const server = createServer({ pauseOnConnect: true, allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    const peer = formatHostPort(socket.remoteAddress ?? '?', socket.remotePort ?? 0);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => sockets.delete(socket));
    openTunnel(target, remotePort).then(
      async (tunnel) => {
        if (socket.destroyed) return tunnel.ws.close(1000);
        tunnels.add(tunnel.ws);
        const end = await pipeTunnel(tunnel, socket, socket, { endOutput: true });
        tunnels.delete(tunnel.ws);
        socket.destroySoon();
        if (!end.normal) log(`connection from ${peer}: ${describeEnd(end)}`);
      },
      (err: Error) => {
        log(`connection from ${peer}: ${err.message}`);
        socket.destroy();
      },
    );
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const where = formatHostPort(options.bind, options.localPort);
      reject(
        new ForwardError(
          err.code === 'EADDRINUSE'
            ? `cannot listen on ${where}: the port is in use (choose another with --local-port)`
            : `cannot listen on ${where}: ${err.message}`,
        ),
      );
    });
    server.listen(options.localPort, options.bind, () => resolve());
  });

  return {
    address: server.address() as AddressInfo,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // 1001: going away, the forwarder stops.
      for (const ws of tunnels) ws.close(1001);
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
