import { createServer, connect, type Server as NetServer, type Socket } from 'node:net';
import type { Logger } from '@paddock/common';
import type {
  AuthContext,
  Server as Ssh2Server,
  Session,
  Connection,
  ServerChannel,
  TcpipRequestInfo,
} from 'ssh2';
import { auditLine, type AuditSink } from '../api/audit.js';
import type { Workspace } from '../workspace/containment.js';
import { ed25519KeyPair, type Ed25519KeyPair } from './key-pair.js';
import type { SshKeyRegistry } from './keys.js';
import type * as SessionModule from './session.js';
import type * as SftpModule from './sftp.js';
import { ssh2 } from './ssh2-on-demand.js';

/** Connections open at once, authenticated or not. */
export const MAX_CONNECTIONS = 64;
/** Channels (sessions and -L tunnels) one connection may hold at once (OpenSSH's MaxSessions is 10). */
export const MAX_CHANNELS_PER_CONNECTION = 32;
/** Failed authentication attempts before the connection is dropped (OpenSSH's MaxAuthTries is 6). */
export const MAX_AUTH_FAILURES = 10;
/** Time a connection has to authenticate (OpenSSH's LoginGraceTime is 120 s). */
export const LOGIN_GRACE_MS = 30_000;
/** Keepalive probe interval and unanswered probes before a silent client is dropped. */
const KEEPALIVE_INTERVAL_MS = 15_000;
const KEEPALIVE_COUNT_MAX = 3;
/** The software name in the server's identification string (`SSH-2.0-<ident>`). */
const SERVER_IDENT = 'paddock_sandbox';

/** The only authentication method offered: publickey. */
const AUTH_METHODS: ['publickey'] = ['publickey'];

/**
 * The host an `ssh -L` target may name, mapped to the address to connect to, or undefined when
 * the target is not the sandbox's own loopback (every other host is refused).
 */
export function loopbackTarget(host: string): string | undefined {
  switch (host.toLowerCase()) {
    case '127.0.0.1':
    case 'localhost':
      return '127.0.0.1';
    case '::1':
    case '[::1]':
      return '::1';
    default:
      return undefined;
  }
}

export interface SshServerOptions {
  workspace: Workspace;
  keys: SshKeyRegistry;
  childEnv: NodeJS.ProcessEnv;
  logger: Logger;
  audit: AuditSink;
}

export interface SshServer {
  /** The port on 127.0.0.1. */
  port: number;
  /** Its host public keys as `<type> <base64>` lines, for clients to pin (GET /api/ssh-port). */
  hostKeys: string[];
  /** Stops listening, ends every connection and kills every process group its sessions started. */
  close(): Promise<void>;
}

/** A fresh ed25519 host key in the OpenSSH format ssh2 takes. */
export function hostPrivateKey(): string {
  return ed25519KeyPair().private;
}

/** What serving a connection takes, loaded with the first connection (sessions, SFTP, ssh2). */
interface Sessions {
  serveSession: (typeof SessionModule)['serveSession'];
  maxSftpHandles: (typeof SftpModule)['MAX_SFTP_HANDLES'];
}

/**
 * The embedded SSH server on 127.0.0.1 with an OS-chosen port, reached through the port-forward
 * tunnel. Its ed25519 host key is generated once, in memory only. The listener accepts at once;
 * ssh2, the host key and the session code load on first need (the first connection, or the host
 * key asked for by GET /api/ssh-port): a sandbox nobody reaches by SSH never holds them.
 */
export async function startSshServer(options: SshServerOptions): Promise<SshServer> {
  let hostKey: Ed25519KeyPair | undefined;
  const theHostKey = () => (hostKey ??= ed25519KeyPair());
  let daemon: Promise<Ssh2Server> | undefined;
  const theDaemon = () => (daemon ??= startDaemon());
  const sockets = new Set<Socket>();
  /** Pending login deadlines by remote address: ssh2 reports clients by address, not socket. */
  const loginTimers = new Map<string, NodeJS.Timeout>();
  const connections = new Set<SshConnection>();
  let port = 0;

  const tcp: NetServer = createServer((socket) => {
    if (sockets.size >= MAX_CONNECTIONS) return void socket.destroy();
    sockets.add(socket);
    const key = `${socket.remoteAddress}:${socket.remotePort}`;
    const timer = setTimeout(() => socket.destroy(), LOGIN_GRACE_MS);
    loginTimers.set(key, timer);
    socket.once('close', () => {
      sockets.delete(socket);
      clearTimeout(timer);
      loginTimers.delete(key);
    });
    socket.on('error', () => {}); // ssh2 reports socket errors on the connection
    // Small answers (SFTP statuses, keystroke echoes) must not wait for Nagle's algorithm.
    socket.setNoDelay(true);
    // What the client sends meanwhile waits in the socket, which nothing reads until ssh2 does.
    theDaemon().then(
      (ssh) => {
        if (!socket.destroyed) ssh.injectSocket(socket);
      },
      (err: unknown) => {
        // Dropped; the next connection tries again (startDaemon forgets a failed start).
        options.logger.error({ err }, 'ssh server could not start');
        socket.destroy();
      },
    );
  });

  async function startDaemon(): Promise<Ssh2Server> {
    try {
      const [{ serveSession }, { MAX_SFTP_HANDLES }] = await Promise.all([
        import('./session.js'),
        import('./sftp.js'),
      ]);
      const sessions: Sessions = { serveSession, maxSftpHandles: MAX_SFTP_HANDLES };
      const ssh = new (ssh2().Server)({
        hostKeys: [theHostKey().private],
        ident: SERVER_IDENT,
        keepaliveInterval: KEEPALIVE_INTERVAL_MS,
        keepaliveCountMax: KEEPALIVE_COUNT_MAX,
      });
      serveConnections(ssh, sessions);
      return ssh;
    } catch (err) {
      daemon = undefined;
      throw err;
    }
  }

  function serveConnections(ssh: Ssh2Server, sessions: Sessions): void {
    ssh.on('connection', (client, info) => {
      const key = `${info.ip}:${info.port}`;
      const connection = new SshConnection(
        client,
        info.ip,
        info.port,
        port,
        options,
        sessions,
        () => {
          clearTimeout(loginTimers.get(key));
        },
      );
      connections.add(connection);
      client.once('close', () => connections.delete(connection));
    });
    ssh.on('error', (err: Error) => options.logger.warn({ err }, 'ssh server error'));
  }

  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(0, '127.0.0.1', () => {
      tcp.off('error', reject);
      resolve();
    });
  });
  tcp.on('error', (err) => options.logger.warn({ err }, 'ssh listener error'));
  const address = tcp.address();
  if (address !== null && typeof address === 'object') port = address.port;

  return {
    port,
    // The public half without a comment, as a known_hosts line holds it after the host name.
    get hostKeys() {
      return [theHostKey().public.trim().split(/\s+/).slice(0, 2).join(' ')];
    },
    close: async () => {
      const closed = new Promise<void>((resolve) => tcp.close(() => resolve()));
      await Promise.all([...connections].map((c) => c.terminate()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

/** One client connection: authentication, its channels, and its audit line when it closes. */
class SshConnection {
  /** The subject whose key authenticated this connection: sessions run as them. */
  private sub: string | undefined;
  private readyAt = 0;
  private lastExit = 0;
  private failures = 0;
  private channels = 0;
  private readonly kills = new Set<() => Promise<void>>();

  constructor(
    private readonly client: Connection,
    private readonly remoteIp: string,
    private readonly remotePort: number,
    private readonly localPort: number,
    private readonly options: SshServerOptions,
    sessions: Sessions,
    onAuthenticated: () => void,
  ) {
    client.on('authentication', (ctx) => this.authenticate(ctx));
    client.on('ready', () => {
      this.readyAt = performance.now();
      onAuthenticated();
      options.logger.debug({ sub: this.sub }, 'ssh connection authenticated');
      client.on('session', (accept, reject) => {
        if (!this.reserveChannel()) return reject();
        const session = accept() as Session | undefined; // nothing when the connection is ending
        if (!session) return this.releaseChannel();
        session.once('close', () => this.releaseChannel());
        sessions.serveSession(session, {
          workspace: options.workspace,
          env: this.environment(),
          logger: options.logger,
          maxSftpHandles: sessions.maxSftpHandles,
          onExit: (code) => (this.lastExit = code),
          track: (kill) => {
            this.kills.add(kill);
            return () => this.kills.delete(kill);
          },
        });
      });
      client.on('tcpip', (accept, reject, info) => this.forward(accept, reject, info));
    });
    client.on('error', (err: Error) => options.logger.debug({ err }, 'ssh connection error'));
    client.once('close', () => {
      void this.terminate();
      if (this.sub !== undefined) {
        options.audit(
          auditLine.ssh({
            sub: this.sub,
            ms: performance.now() - this.readyAt,
            exit: this.lastExit,
          }),
        );
      }
    });
  }

  /** Kills every process group the connection's sessions still run, and ends the connection. */
  async terminate(): Promise<void> {
    const kills = [...this.kills];
    this.kills.clear();
    this.client.end();
    await Promise.all(kills.map((kill) => kill()));
  }

  private authenticate(ctx: AuthContext): void {
    // Any user name is accepted: the key alone decides who the session runs as.
    if (ctx.method !== 'publickey') {
      // "none" is how clients ask which methods exist; only the others count as failures.
      if (ctx.method !== 'none') this.failed();
      return ctx.reject(AUTH_METHODS);
    }
    const key = this.options.keys.lookup(ctx.key.data);
    if (!key || key.record.type !== ctx.key.algo) {
      this.failed();
      return ctx.reject(AUTH_METHODS);
    }
    // Without a signature the client only asks whether the key would do.
    if (ctx.signature === undefined) return ctx.accept();
    if (
      ctx.blob === undefined ||
      key.parsed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) !== true
    ) {
      this.failed();
      return ctx.reject(AUTH_METHODS);
    }
    this.sub = key.sub;
    ctx.accept();
  }

  private failed(): void {
    if (++this.failures >= MAX_AUTH_FAILURES) {
      this.options.logger.debug({ ip: this.remoteIp }, 'ssh: too many authentication failures');
      setImmediate(() => this.client.end()); // after the failure answer went out
    }
  }

  private reserveChannel(): boolean {
    if (this.channels >= MAX_CHANNELS_PER_CONNECTION) return false;
    this.channels++;
    return true;
  }

  private releaseChannel(): void {
    this.channels--;
  }

  /** What every command of this connection starts with. */
  private environment(): NodeJS.ProcessEnv {
    return {
      ...this.options.childEnv,
      SSH_CONNECTION: `${this.remoteIp} ${this.remotePort} 127.0.0.1 ${this.localPort}`,
      SSH_CLIENT: `${this.remoteIp} ${this.remotePort} ${this.localPort}`,
      PADDOCK_SUB: this.sub ?? '',
    };
  }

  /** `ssh -L`: a TCP connection to the sandbox's own loopback, opened before the channel is. */
  private forward(accept: () => ServerChannel, reject: () => void, info: TcpipRequestInfo): void {
    const host = loopbackTarget(info.destIP);
    const port = info.destPort;
    if (host === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
      this.options.logger.debug({ host: info.destIP.slice(0, 255), port }, 'ssh -L target refused');
      return reject();
    }
    if (!this.reserveChannel()) return reject();
    const socket = connect({ host, port });
    let channel: ServerChannel | undefined;
    socket.once('connect', () => {
      const opened = accept() as ServerChannel | undefined; // nothing when the connection is ending
      if (!opened) return void socket.destroy();
      channel = opened;
      opened.on('error', () => socket.destroy());
      opened.once('close', () => socket.destroy());
      socket.pipe(opened);
      opened.pipe(socket);
    });
    socket.on('error', () => {
      if (channel) channel.destroy();
      else reject();
    });
    socket.once('close', () => {
      this.releaseChannel();
      channel?.end();
    });
  }
}
