import { createHash, createPrivateKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { formatAddress, silentLogger, type Address, type Logger } from '@paddock/common';
import {
  CORE_KINDS,
  Informer,
  NotFoundError,
  podDnsName,
  podEndpoint,
  type EndpointPod,
  type Kube,
  type KubeObject,
  type NamedPod,
} from '@paddock/kube';
import { signIdentityProof } from '@paddock/sandbox';
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
/** A proof is signed for a minute and reused for half of that. */
const PROOF_LIFETIME_SECONDS = 60;
const PROOF_REUSE_MS = 30_000;
const PROOF_HEADER = 'x-paddock-proof';

export interface LocalDoorOptions {
  kube: Kube;
  namespace: string;
  pod: string;
  /** The MCP door; the human API's is the next port. */
  listen: Address;
  /** Where the signing key lives: a Secret's name, namespace and key holding a PKCS#8 PEM. */
  signingKey: { namespace: string; name: string; key: string };
  /** Required as `Authorization: Bearer <token>` on both doors when set (off loopback). */
  token?: string | undefined;
  logger?: Logger;
}

interface Door {
  server: Server;
  port: string;
  signs: boolean;
}

/** JSON error answer in the platform's envelope. */
function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.headersSent) return void res.destroy();
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { code, message } }));
}

type DoorPod = EndpointPod & NamedPod & KubeObject;

const digest = (text: string) => createHash('sha256').update(text).digest();

export class LocalDoor {
  private readonly logger: Logger;
  private readonly pods: Informer<DoorPod>;
  private readonly proxy = new ProxyServer({ xfwd: false, ws: true });
  private readonly doors: Door[];
  private readonly tokenDigest: Buffer | undefined;
  private proof: { value: string; audience: string; at: number } | undefined;

  constructor(private readonly options: LocalDoorOptions) {
    this.logger = options.logger ?? silentLogger();
    this.pods = new Informer(
      options.kube.resource<DoorPod>(CORE_KINDS.pod),
      { namespace: options.namespace, fieldSelector: `metadata.name=${options.pod}` },
      (err) => this.logger.warn({ err }, 'pod watch failed; retrying'),
    );
    this.tokenDigest = options.token === undefined ? undefined : digest(options.token);
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
        refuse(res, 502, 'bad_gateway', `pod ${options.pod} did not answer: ${err.message}`);
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

  /** Where the door leads now, with the headers to add, or why it cannot. */
  private async route(
    door: Door,
    req: IncomingMessage,
  ): Promise<{ target: string } | { status: number; code: string; message: string }> {
    if (!this.authorized(req)) {
      return { status: 401, code: 'unauthorized', message: 'send Authorization: Bearer <token>' };
    }
    const pod = this.pods.get(this.options.pod, this.options.namespace);
    const endpoint = pod === undefined ? undefined : podEndpoint(pod, door.port);
    if (pod === undefined || endpoint === undefined) {
      return {
        status: 503,
        code: 'unavailable',
        message: `pod ${this.options.namespace}/${this.options.pod} is not running yet`,
      };
    }
    // The door's token is for the door: the pod sees only what it would see from a proxy.
    delete req.headers.authorization;
    delete req.headers[PROOF_HEADER];
    if (door.signs) req.headers[PROOF_HEADER] = await this.proofFor(pod);
    return { target: `http://${endpoint.host}:${endpoint.port}` };
  }

  private async web(door: Door, req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const route = await this.route(door, req);
      if ('status' in route) return refuse(res, route.status, route.code, route.message);
      this.proxy.web(req, res, { target: route.target });
    } catch (err) {
      this.logger.warn({ err }, 'could not open the door');
      refuse(res, 503, 'unavailable', err instanceof Error ? err.message : String(err));
    }
  }

  private async upgrade(
    door: Door,
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
  ): Promise<void> {
    try {
      const route = await this.route(door, req);
      if ('status' in route) {
        socket.end(`HTTP/1.1 ${route.status} ${route.code}\r\nconnection: close\r\n\r\n`);
        return;
      }
      this.proxy.ws(req, socket, head, { target: route.target });
    } catch (err) {
      this.logger.warn({ err }, 'could not open the door');
      socket.destroy();
    }
  }

  /** A proof for the pod, signed for a minute and reused for half of it. */
  private async proofFor(pod: DoorPod): Promise<string> {
    const audience = podDnsName(pod);
    const now = Date.now();
    if (
      this.proof !== undefined &&
      this.proof.audience === audience &&
      now - this.proof.at < PROOF_REUSE_MS
    ) {
      return this.proof.value;
    }
    const value = await signIdentityProof({
      privateKey: await this.signingKey(),
      audience,
      identity: LOCAL_IDENTITY,
      lifetimeSeconds: PROOF_LIFETIME_SECONDS,
    });
    this.proof = { value, audience, at: now };
    return value;
  }

  /** Read at each signing: deleting the Secret rotates the key, and the door follows. */
  private async signingKey(): Promise<KeyObject> {
    const { namespace, name, key } = this.options.signingKey;
    let secret: KubeObject & { data?: Record<string, string> };
    try {
      secret = await this.options.kube
        .resource<KubeObject & { data?: Record<string, string> }>(CORE_KINDS.secret)
        .get(name, namespace);
    } catch (err) {
      if (err instanceof NotFoundError) {
        throw new Error(`the signing key ${namespace}/${name} does not exist yet`, { cause: err });
      }
      throw err;
    }
    const pem = secret.data?.[key];
    if (pem === undefined) throw new Error(`the Secret ${namespace}/${name} has no ${key}`);
    return createPrivateKey(Buffer.from(pem, 'base64').toString('utf8'));
  }
}
