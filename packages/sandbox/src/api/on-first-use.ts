import { EventEmitter } from 'node:events';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { createNodeServer, type Logger } from '@paddock/common';
import type { FastifyServerFactory } from 'fastify';
import type { ApiListener } from './listener.js';

/** What the listener's builder is given: the server to answer on, and the upgrades to hear. */
export interface FirstUseHooks {
  serverFactory: FastifyServerFactory;
  upgrades: EventEmitter;
}

export interface ApiOnFirstUse {
  /** Listening from the start; the listener behind it is built by the first request or upgrade. */
  server: Server;
  close: () => Promise<void>;
}

/**
 * The human API listening at once but built on first use: its HTTP framework, plugins and route
 * tables (about 16 MiB resident) load with the first request or upgrade, not at start, so that a
 * sandbox nobody has opened costs only what its agent uses. What arrives while the listener is
 * being built waits for it; a build that fails answers 503 and is tried again by the next request.
 */
export function apiOnFirstUse(
  build: (hooks: FirstUseHooks) => Promise<ApiListener>,
  logger: Logger,
): ApiOnFirstUse {
  const server = createNodeServer();
  const upgrades = new EventEmitter();
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let listener: ApiListener | undefined;
  let building: Promise<ApiListener> | undefined;

  const built = (): Promise<ApiListener> =>
    (building ??= build({
      serverFactory: (answer) => {
        handler = answer;
        return server;
      },
      upgrades,
    })
      .then(async (made) => {
        await made.app.ready();
        listener = made;
        return made;
      })
      .catch((err: unknown) => {
        // Said once per failed build, however many requests were waiting for it.
        logger.error({ err }, 'the human-facing API could not start');
        building = undefined;
        throw err;
      }));

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (listener) return handler!(req, res);
    built().then(
      () => handler!(req, res),
      () => {
        res
          .writeHead(503, { 'content-type': 'application/json; charset=utf-8' })
          .end(JSON.stringify({ error: 'unavailable', message: 'the API could not start' }));
      },
    );
  });
  // Handed to the app's WebSocket routes; a socket nothing hears (the app closing) is ended.
  const relay = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!upgrades.emit('upgrade', req, socket, head)) socket.destroy();
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (listener) return relay(req, socket, head);
    built().then(
      () => relay(req, socket, head),
      () => {
        socket.end(
          'HTTP/1.1 503 Service Unavailable\r\nconnection: close\r\ncontent-length: 0\r\n\r\n',
        );
      },
    );
  });

  return {
    server,
    close: async () => {
      // The app does not close a server its owner made (fastify's serverFactory): closed here.
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      // A build under way finishes first, so that what it started is closed too.
      const made = listener ?? (await building?.catch(() => undefined));
      await made?.close();
      server.closeAllConnections();
      await stopped;
    },
  };
}
