import {
  Agent as HttpAgent,
  request as httpRequest,
  STATUS_CODES,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest, type AgentOptions } from 'node:https';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';
import type { ClusterConfig, Connection, TlsFacts } from './cluster-config.js';
import { errorForStatus, unreachable } from './errors.js';

/** The media types of the PATCH flavours Kubernetes takes. */
export const PATCH_TYPES = {
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;
export type PatchType = keyof typeof PATCH_TYPES;

export type Query = Record<string, string | number | boolean | undefined>;

/** Connections kept per agent: enough for a controller's bursts, bounded. */
const MAX_SOCKETS = 64;
const MAX_FREE_SOCKETS = 16;
/** TCP keep-alive probes on a watch's connection, so that a dead peer ends it (client-go's). */
const WATCH_KEEPALIVE_MS = 30_000;

/**
 * Keep-alive agents, one per scheme and set of TLS options. Made per request, each request paid a
 * TLS handshake and a certificate context of its own (time, and native memory the process kept);
 * requests with the same TLS options now share connections, those of other tokens to the same
 * cluster included (a client's `as(token)` clients share its pool). The pool belongs to the client
 * that made it and ends with it: `close()` destroys its agents.
 */
export class AgentPool {
  private readonly agents = new Map<string, HttpAgent>();
  private closed = false;

  /** The pool's agent for the TLS options of `fresh`, which is destroyed. */
  agentFor(fresh: HttpsAgent): HttpAgent {
    const options: AgentOptions = fresh.options;
    const agent = this.agentWith('https:', {
      ...(options.ca === undefined ? {} : { ca: options.ca as Buffer }),
      ...(options.cert === undefined ? {} : { cert: options.cert as Buffer }),
      ...(options.key === undefined ? {} : { key: options.key as Buffer }),
      ...(options.rejectUnauthorized === undefined
        ? {}
        : { rejectUnauthorized: options.rejectUnauthorized }),
      ...(options.servername === undefined ? {} : { servername: options.servername }),
    });
    if (agent !== fresh) fresh.destroy();
    return agent;
  }

  /** The pool's agent for a scheme and TLS options (TLS options matter to https only). */
  agentWith(protocol: string, tls: TlsFacts): HttpAgent {
    const text = (value: Buffer | string | boolean | undefined) =>
      Buffer.isBuffer(value) ? value.toString('base64') : String(value ?? '');
    const https = protocol === 'https:';
    const key = https
      ? [protocol, tls.ca, tls.cert, tls.key, tls.rejectUnauthorized, tls.servername]
          .map(text)
          .join('\0')
      : protocol;
    // A closed pool keeps nothing: a late request gets an agent of its own, not kept alive.
    if (this.closed) return https ? new HttpsAgent({ ...tls }) : new HttpAgent();
    let agent = this.agents.get(key);
    if (agent === undefined) {
      const options = {
        keepAlive: true,
        maxSockets: MAX_SOCKETS,
        maxFreeSockets: MAX_FREE_SOCKETS,
      };
      agent = https ? new HttpsAgent({ ...tls, ...options }) : new HttpAgent(options);
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Agents kept, for tests. */
  get size(): number {
    return this.agents.size;
  }

  /** Destroys every agent and its connections. */
  close(): void {
    this.closed = true;
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

interface SendOptions {
  query?: Query;
  body?: unknown;
  contentType?: string;
  accept?: string;
}

/**
 * JSON over the Kubernetes API: requests, and watches that stream events to a callback. Requests
 * go over Node's HTTP client with the connection facts of the cluster's configuration (see
 * ClusterConfig) on pooled keep-alive agents, and watches as the library's Watch makes them (it
 * is not used: its node-fetch 2, with whatwg-url and tr46's Unicode tables, costs some 4 MiB).
 * Objects stay as the server sent them, for every kind alike (the library's typed APIs turn
 * timestamps into Dates and know no custom kinds).
 */
export class RestClient {
  constructor(
    readonly config: ClusterConfig,
    /** Where keep-alive agents come from; the client's own unless shared with it. */
    readonly agents: AgentPool = new AgentPool(),
  ) {}

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: { query?: Query; body?: unknown; contentType?: string } = {},
  ): Promise<T> {
    const { status, text } = await this.send(method, path, options);
    const body: unknown = text === '' ? undefined : parseJson(text);
    if (status < 200 || status > 299) throw errorForStatus(status, body);
    return body as T;
  }

  /** Plain text (pod logs). */
  async text(path: string, query: Query = {}): Promise<string> {
    const { status, text } = await this.send('GET', path, { query, accept: '*/*' });
    if (status < 200 || status > 299) throw errorForStatus(status, parseJson(text));
    return text;
  }

  /**
   * Streams a GET's answer into `into` (a followed log) until it ends or the returned function
   * is called; an answer other than 200 is its typed error.
   */
  async stream(path: string, query: Query, into: Writable): Promise<() => void> {
    const { response, stop } = await this.open('GET', path, { query, accept: '*/*' });
    if (response.statusCode !== 200) {
      const text = await readText(response);
      throw errorForStatus(response.statusCode ?? 0, parseJson(text));
    }
    // A stream cut short (stopped, or the connection lost) ends what it was written into, as one
    // the server ended; the reader gets what arrived.
    response.on('error', () => into.end());
    response.pipe(into);
    return stop;
  }

  /**
   * Streams watch events of a collection path until `done` is called with the reason it ended
   * (undefined when the server closed the stream cleanly). Returns a function that stops it.
   * As the library's Watch: one JSON event a line, lines that do not parse skipped, an answer
   * other than 200 an error with its `statusCode`, `done` called once; each watch has a
   * connection of its own, outside the pool, so that long watches never hold its sockets.
   */
  async watch(
    path: string,
    query: Query,
    onEvent: (type: string, object: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<() => void> {
    let ended = false;
    let stop = () => {};
    const end = (err: unknown) => {
      if (ended) return;
      ended = true;
      stop();
      done(err);
    };
    try {
      const opened = await this.open('GET', path, { query: { ...query, watch: true } }, 'own');
      stop = opened.stop;
      const { response } = opened;
      response.socket.setKeepAlive(true, WATCH_KEEPALIVE_MS);
      if (response.statusCode !== 200) {
        const status = response.statusCode ?? 0;
        response.resume();
        end(
          Object.assign(new Error(STATUS_CODES[status] ?? 'Internal Server Error'), {
            statusCode: status,
          }),
        );
        return stop;
      }
      response.on('error', end);
      response.on('close', () => end(undefined));
      const lines = createInterface({ input: response, crlfDelay: Infinity });
      lines.on('line', (line) => {
        let event: { type: string; object: unknown };
        try {
          event = JSON.parse(line) as { type: string; object: unknown };
        } catch {
          return;
        }
        onEvent(event.type, event.object);
      });
      // readline passes on its input's errors (a stopped watch's `aborted` among them).
      lines.on('error', end);
      lines.on('close', () => end(undefined));
    } catch (err) {
      end(err);
    }
    return () => end(undefined);
  }

  private async send(
    method: string,
    path: string,
    options: SendOptions,
  ): Promise<{ status: number; text: string }> {
    const { response } = await this.open(method, path, options);
    try {
      return { status: response.statusCode ?? 0, text: await readText(response) };
    } catch (err) {
      throw unreachable(err);
    }
  }

  /** Sends a request and resolves with the answer's head; its body is the caller's to read. */
  private async open(
    method: string,
    path: string,
    options: SendOptions,
    connections: 'pooled' | 'own' = 'pooled',
  ): Promise<{ response: IncomingMessage; stop: () => void }> {
    const connection = await this.config.connection();
    const url = new URL(connection.server + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string | number> = {
      ...connection.headers,
      Accept: options.accept ?? 'application/json',
    };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] = options.contentType ?? 'application/json';
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const agent =
      connections === 'pooled'
        ? this.agentOf(url.protocol, connection)
        : (connection.agent ?? ownAgent(url.protocol, connection.tls));
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const attempt = (again: boolean) =>
      new Promise<{ response: IncomingMessage; stop: () => void }>((resolve, reject) => {
        const request = send(url, { method, headers, agent }, (response) =>
          resolve({ response, stop: () => request.destroy() }),
        );
        request.on('error', (err: NodeJS.ErrnoException) => {
          // A kept-alive connection the server closed while it was idle fails the next request
          // sent on it before any answer: the server never read it, so it is sent once more, on a
          // fresh connection (as Node's documentation and Go's transport do).
          if (again && request.reusedSocket && err.code === 'ECONNRESET') {
            attempt(false).then(resolve, reject);
          } else reject(unreachable(err));
        });
        request.end(body);
      });
    return attempt(true);
  }

  private agentOf(protocol: string, connection: Connection): HttpAgent {
    const own = connection.agent;
    if (own === undefined) return this.agents.agentWith(protocol, connection.tls);
    // The library's plain HTTPS agents are pooled by their options; proxy agents carry their
    // own connection logic and are used as they are.
    return own instanceof HttpsAgent && own.constructor === HttpsAgent
      ? this.agents.agentFor(own)
      : own;
  }
}

/** An agent of one connection, not kept alive (a watch's). */
function ownAgent(protocol: string, tls: TlsFacts): HttpAgent {
  return protocol === 'https:' ? new HttpsAgent({ ...tls }) : new HttpAgent();
}

/** The whole body of an answer, as text. */
function readText(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => resolve(text));
    response.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}
