import { createHash, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Duplex } from 'node:stream';
import {
  formatAddress,
  HttpError,
  httpErrors,
  PROOF_HEADER as PROOF_HEADER_NAME,
  sendErrorEnvelope,
  silentLogger,
  type Address,
  type Logger,
} from '@paddock/common';
import { ProofSigner } from '@paddock/dashboard/shared';
import {
  CORE_KINDS,
  Informer,
  podDnsName,
  podEndpoint,
  type EndpointPod,
  type Kube,
  type KubeObject,
  type NamedPod,
} from '@paddock/kube';
import { ProxyServer } from 'http-proxy-3';

/**
 * The local platform's door to one agent pod: two stable addresses on this machine (the MCP
 * listener and the human API, the README's 127.0.0.1:7070 and :7071) that lead to wherever the pod
 * runs now. The human API wants a signed identity proof; the door signs one for the local user
 * `dev`, as the dashboard does for a signed-in user. Off loopback, whoever reaches the door must
 * show the bearer token the platform printed, since the door would otherwise open the pod to the
 * network.
 */

/** The identity the door proves for whoever uses it. */
export const LOCAL_IDENTITY = { sub: 'dev', user: 'dev', groups: [] as string[] };
const PROOF_HEADER = PROOF_HEADER_NAME.toLowerCase();

export interface LocalDoorOptions {
  kube: Kube;
  namespace: string;
  pod: string;
  /** The MCP door; the human API's is the next port. */
  listen: Address;
  /** The Secret holding the operator's proof key pair (PROOF_SECRET_NAME in its namespace). */
  signingSecret: { namespace: string; name: string };
  /** Required as `Authorization: Bearer <token>` on both doors when set (off loopback). */
  token?: string | undefined;
  logger?: Logger;
}

interface Door {
  server: Server;
  port: string;
  signs: boolean;
}

type DoorPod = EndpointPod & NamedPod & KubeObject;

const digest = (text: string) => createHash('sha256').update(text).digest();

export class LocalDoor {
  private readonly logger: Logger;
  private readonly pods: Informer<DoorPod>;
  private readonly proxy = new ProxyServer({ xfwd: false, ws: true });
  private readonly doors: Door[];
  private readonly tokenDigest: Buffer | undefined;
  private readonly signer: ProofSigner;

  constructor(private readonly options: LocalDoorOptions) {
    this.logger = options.logger ?? silentLogger();
    this.pods = new Informer(
      options.kube.resource<DoorPod>(CORE_KINDS.pod),
      { namespace: options.namespace, fieldSelector: `metadata.name=${options.pod}` },
      (err) => this.logger.warn({ err }, 'pod watch failed; retrying'),
    );
    this.tokenDigest = options.token === undefined ? undefined : digest(options.token);
    this.signer = new ProofSigner(options.kube, options.signingSecret);
    this.doors = [
      { server: createServer(), port: 'mcp', signs: false },
      { server: createServer(), port: 'api', signs: true },
    ];
    for (const door of this.doors) {
      door.server.on('request', (req, res) => void this.web(door, req, res));
      door.server.on('upgrade', (req, socket, head) => void this.upgrade(door, req, socket, head));
    }
    // An upstream that vanishes mid-request ends that request only.
    this.proxy.on('error', (err, _req, res) => {
      this.logger.debug({ err }, 'the pod did not answer');
      if (res !== undefined && 'writeHead' in res) {
        sendErrorEnvelope(
          res,
          new HttpError(502, 'bad_gateway', `pod ${options.pod} did not answer: ${err.message}`),
        );
      } else {
        res?.destroy();
      }
    });
  }

  /** Watches the pod and listens on both doors; resolves with the addresses bound. */
  async start(): Promise<string[]> {
    this.pods.start();
    await this.pods.synced;
    const { host, port } = this.options.listen;
    const bound: string[] = [];
    for (const [index, door] of this.doors.entries()) {
      door.server.listen(port + index, host);
      await once(door.server, 'listening');
      const address = door.server.address();
      if (address !== null && typeof address === 'object') {
        bound.push(formatAddress({ host: address.address, port: address.port }));
      }
    }
    return bound;
  }

  async stop(): Promise<void> {
    this.pods.stop();
    await Promise.all(
      this.doors.map(async (door) => {
        if (!door.server.listening) return;
        door.server.closeAllConnections();
        door.server.close();
        await once(door.server, 'close');
      }),
    );
    this.proxy.close();
  }

  private authorized(req: IncomingMessage): boolean {
    if (this.tokenDigest === undefined) return true;
    const header = req.headers.authorization ?? '';
    const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : '';
    return timingSafeEqual(digest(given), this.tokenDigest);
  }

  /** Where the door leads now, the pod's headers set; throws why it cannot. */
  private async route(door: Door, req: IncomingMessage): Promise<string> {
    if (!this.authorized(req)) throw httpErrors.unauthorized('send Authorization: Bearer <token>');
    const pod = this.pods.get(this.options.pod, this.options.namespace);
    const endpoint = pod === undefined ? undefined : podEndpoint(pod, door.port);
    if (pod === undefined || endpoint === undefined) {
      throw httpErrors.unavailable(
        `pod ${this.options.namespace}/${this.options.pod} is not running yet`,
      );
    }
    // The door's token is for the door: the pod sees only what it would see from a proxy.
    delete req.headers.authorization;
    delete req.headers[PROOF_HEADER];
    if (door.signs) {
      req.headers[PROOF_HEADER] = await this.signer.proofFor(podDnsName(pod), LOCAL_IDENTITY);
    }
    return `http://${endpoint.host}:${endpoint.port}`;
  }

  private async web(door: Door, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      this.proxy.web(req, res, { target: await this.route(door, req) });
    } catch (err) {
      if (!(err instanceof HttpError)) this.logger.warn({ err }, 'could not open the door');
      sendErrorEnvelope(res, err instanceof HttpError ? err : httpErrors.unavailable(String(err)));
    }
  }

  private async upgrade(
    door: Door,
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): Promise<void> {
    try {
      this.proxy.ws(req, socket, head, { target: await this.route(door, req) });
    } catch (err) {
      const status = err instanceof HttpError ? err.status : 503;
      if (!(err instanceof HttpError)) this.logger.warn({ err }, 'could not open the door');
      socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nconnection: close\r\n\r\n`);
    }
  }
}
