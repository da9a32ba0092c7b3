import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/**
 * WebSocket upgrades go through the dashboard's router like any request, so the same hooks
 * authenticate them (Host check, session or API key, roles) before a route takes the socket; a
 * refusal is an ordinary HTTP answer on the socket, which then closes.
 */

const UPGRADE = Symbol('paddock.upgrade');

export interface Upgrade {
  socket: Duplex;
  head: Buffer;
}

type UpgradingRequest = IncomingMessage & { [UPGRADE]?: Upgrade };

/** Routes every upgrade request of the app's server through its router. */
export function routeUpgrades(app: FastifyInstance): void {
  app.server.on('upgrade', (req: UpgradingRequest, socket: Duplex, head: Buffer) => {
    req[UPGRADE] = { socket, head };
    const res = new ServerResponse(req);
    res.assignSocket(socket as Socket);
    // An answer written here is a refusal: the route that takes the socket writes none.
    res.on('finish', () => socket.end());
    socket.on('error', () => socket.destroy());
    app.routing(req, res);
  });
}

/** The socket of an upgrade request, for the route that takes it; undefined for plain requests. */
export function upgradeOf(req: IncomingMessage): Upgrade | undefined {
  return (req as UpgradingRequest)[UPGRADE];
}
