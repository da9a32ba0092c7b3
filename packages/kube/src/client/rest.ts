import { Agent as HttpsAgent, type AgentOptions } from 'node:https';
import {
  HttpMethod,
  KubernetesObjectApi,
  Watch,
  type KubeConfig,
  type RequestContext,
} from '@kubernetes/client-node';
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

/**
 * Keep-alive agents, one per set of TLS options. The library makes a new agent for every request,
 * so each request paid a TLS handshake and a certificate context of its own (time, and native
 * memory the process kept); requests with the same TLS options now share connections, those of
 * other tokens to the same cluster included (a client's `as(token)` clients share its pool). The
 * pool belongs to the client that made it and ends with it: `close()` destroys its agents.
 */
export class AgentPool {
  private readonly agents = new Map<string, HttpsAgent>();
  private closed = false;

  /** The pool's agent for the TLS options of `fresh`, which is destroyed. */
  agentFor(fresh: HttpsAgent): HttpsAgent {
    const options: AgentOptions = fresh.options;
    const text = (value: unknown) =>
      Buffer.isBuffer(value)
        ? value.toString('base64')
        : typeof value === 'string' || typeof value === 'boolean'
          ? String(value)
          : JSON.stringify(value ?? null);
    const key = [
      options.ca,
      options.cert,
      options.key,
      options.pfx,
      options.passphrase,
      options.rejectUnauthorized,
      options.servername,
    ]
      .map(text)
      .join('\0');
    // A closed pool keeps nothing: a late request gets an agent of its own, as the library's.
    if (this.closed) return fresh;
    let agent = this.agents.get(key);
    if (agent === undefined) {
      agent = new HttpsAgent({ ...options, keepAlive: true, maxSockets: 64, maxFreeSockets: 16 });
      this.agents.set(key, agent);
    }
    fresh.destroy();
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

/**
 * Plain JSON requests to any path of the API server, through @kubernetes/client-node's own
 * configuration, transport and authentication (tokens, client certificates, exec plugins). The
 * library's typed APIs turn timestamps into Dates and know no custom kinds; this keeps objects as
 * the server sent them, for every kind alike.
 */
class RawApi extends KubernetesObjectApi {
  agents: AgentPool | undefined;

  async send(
    method: HttpMethod,
    path: string,
    options: { query?: Query; body?: unknown; contentType?: string; accept?: string } = {},
  ): Promise<{ status: number; text: string }> {
    const context: RequestContext = this.configuration.baseServer.makeRequestContext(path, method);
    context.setHeaderParam('Accept', options.accept ?? 'application/json');
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) context.setQueryParam(name, String(value));
    }
    if (options.body !== undefined) {
      context.setHeaderParam('Content-Type', options.contentType ?? 'application/json');
      context.setBody(
        typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
      );
    }
    await this.configuration.authMethods.default?.applySecurityAuthentication(context);
    const agent = context.getAgent();
    // Only plain HTTPS agents are shared: proxy agents carry their own connection logic.
    if (this.agents && agent instanceof HttpsAgent && agent.constructor === HttpsAgent) {
      context.setAgent(this.agents.agentFor(agent));
    }
    let response;
    try {
      response = await this.configuration.httpApi.send(context).toPromise();
    } catch (err) {
      throw unreachable(err);
    }
    return { status: response.httpStatusCode, text: await response.body.text() };
  }
}

/** JSON over the Kubernetes API: requests, and watches that stream events to a callback. */
export class RestClient {
  private readonly api: RawApi;
  private readonly watcher: Watch;

  constructor(
    readonly config: KubeConfig,
    /** Where keep-alive agents come from; the client's own unless shared with it. */
    readonly agents: AgentPool = new AgentPool(),
  ) {
    this.api = config.makeApiClient(RawApi);
    this.api.agents = agents;
    this.watcher = new Watch(config);
  }

  async request<T>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    options: { query?: Query; body?: unknown; contentType?: string } = {},
  ): Promise<T> {
    const { status, text } = await this.api.send(HttpMethod[method], path, options);
    const body: unknown = text === '' ? undefined : parseJson(text);
    if (status < 200 || status > 299) throw errorForStatus(status, body);
    return body as T;
  }

  /** Plain text (pod logs). */
  async text(path: string, query: Query = {}): Promise<string> {
    const { status, text } = await this.api.send(HttpMethod.GET, path, { query, accept: '*/*' });
    if (status < 200 || status > 299) throw errorForStatus(status, parseJson(text));
    return text;
  }

  /**
   * Streams watch events of a collection path until `done` is called with the reason it ended
   * (undefined when the server closed the stream cleanly). Returns a function that stops it.
   */
  async watch(
    path: string,
    query: Query,
    onEvent: (type: string, object: unknown) => void,
    done: (err: unknown) => void,
  ): Promise<() => void> {
    const controller = await this.watcher.watch(path, query, onEvent, done);
    return () => controller.abort();
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { message: text };
  }
}
