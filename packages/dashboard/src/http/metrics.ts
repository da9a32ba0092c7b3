import type { Socket } from 'node:net';
import { collectProcessMetrics } from '@paddock/common/process-metrics';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { SignInMode, SignInResult } from '../auth/sign-in-log.js';
import { DOOR_ROUTES } from '../door/door-routes.js';
import { RUNS_ROUTES } from '../door/runs-routes.js';
import { operation } from './operation.js';

/** Names of the dashboard's metrics, for dashboards and tests. */
export const METRIC_NAMES = {
  requests: 'paddock_dashboard_http_requests_total',
  duration: 'paddock_dashboard_http_request_duration_seconds',
  signIns: 'paddock_dashboard_sign_ins_total',
  apiKeyVerifications: 'paddock_dashboard_api_key_verifications_total',
  doorStreams: 'paddock_dashboard_door_open_streams',
  doorBytes: 'paddock_dashboard_door_bytes_total',
} as const;

/** Where the exposition is served. */
export const METRICS_PATH = '/metrics';

/** Requests range from a cached read to a slow cluster call; door streams last far longer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/** The label of requests no route took (the raw path is never a label: it is unbounded). */
export const UNMATCHED_ROUTE = 'unmatched';

export type ApiKeyVerification = 'valid' | 'invalid';

/** What the door proxies: plain requests, event streams, WebSockets and the agents' MCP. */
export type DoorStreamKind = 'http' | 'sse' | 'websocket' | 'mcp';

/** The dashboard's Prometheus metrics, in a registry of their own (not prom-client's global one). */
export class DashboardMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly duration: Histogram<'method' | 'route'>;
  private readonly signIns: Counter<'mode' | 'result'>;
  private readonly apiKeys: Counter<'result'>;
  private readonly doorStreams: Gauge<'kind'>;
  private readonly doorBytes: Counter<'kind' | 'direction'>;

  constructor(options: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    this.requests = new Counter({
      name: METRIC_NAMES.requests,
      help: 'HTTP requests answered, by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.duration = new Histogram({
      name: METRIC_NAMES.duration,
      help: 'Time to answer an HTTP request (a proxied stream: its lifetime), by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.signIns = new Counter({
      name: METRIC_NAMES.signIns,
      help: 'Sign-in events as logged, by mode (builtin, oauth, proxy, api-key, bearer) and result (success, failure).',
      labelNames: ['mode', 'result'],
      registers,
    });
    this.apiKeys = new Counter({
      name: METRIC_NAMES.apiKeyVerifications,
      help: 'API keys presented, by result (valid, invalid).',
      labelNames: ['result'],
      registers,
    });
    this.doorStreams = new Gauge({
      name: METRIC_NAMES.doorStreams,
      help: "Requests open on the door's routes into agent pods, by kind (http, sse, websocket, mcp).",
      labelNames: ['kind'],
      registers,
    });
    this.doorBytes = new Counter({
      name: METRIC_NAMES.doorBytes,
      help: "Bytes moved by the door's requests while open, by kind and direction (in from the client, out to it).",
      labelNames: ['kind', 'direction'],
      registers,
    });
    if (options.processMetrics ?? true) {
      collectProcessMetrics(this.registry, 'paddock_dashboard_');
    }
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.duration.observe({ method, route }, seconds);
  }

  signIn(mode: SignInMode, result: SignInResult): void {
    this.signIns.inc({ mode, result });
  }

  apiKeyVerified(result: ApiKeyVerification): void {
    this.apiKeys.inc({ result });
  }

  /** A door request opened; the returned function closes it with the bytes it moved. */
  doorStreamOpened(kind: DoorStreamKind): (bytesIn: number, bytesOut: number) => void {
    this.doorStreams.inc({ kind });
    return (bytesIn, bytesOut) => {
      this.doorStreams.dec({ kind });
      this.doorBytes.inc({ kind, direction: 'in' }, bytesIn);
      this.doorBytes.inc({ kind, direction: 'out' }, bytesOut);
    };
  }

  /** The Prometheus text exposition and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

/**
 * The door's routes: a pod's sandbox API and runs API (counted alike: plain requests and event
 * streams), and the agent's MCP server (all its transports).
 */
const DOOR_ROUTE_KINDS: Record<string, 'sandbox' | 'mcp'> = {
  [DOOR_ROUTES.sandbox]: 'sandbox',
  ...Object.fromEntries(Object.values(RUNS_ROUTES).map((route) => [route, 'sandbox' as const])),
  [DOOR_ROUTES.mcp]: 'mcp',
  [DOOR_ROUTES.sse]: 'mcp',
  [DOOR_ROUTES.message]: 'mcp',
};

/** What a door request carries: MCP, or a sandbox WebSocket, event stream or plain request. */
export function doorStreamKind(
  route: 'sandbox' | 'mcp',
  headers: { upgrade?: string | undefined; accept?: string | undefined },
): DoorStreamKind {
  if (route === 'mcp') return 'mcp';
  if (headers.upgrade !== undefined) return 'websocket';
  return headers.accept?.includes('text/event-stream') ? 'sse' : 'http';
}

const METRICS_SCHEMA = operation(
  {
    operationId: 'getMetrics',
    summary: 'Prometheus metrics',
    description:
      'The dashboard’s metrics in the Prometheus text format: requests by route pattern, method ' +
      'and status with their durations, sign-ins by mode and result, API key verifications, the ' +
      'door’s open requests and bytes, and the process’s own. Any role may read them ("View ' +
      'metrics"); a scraper presents an API key. Answered whatever the Host header, as ' +
      'Prometheus addresses pods by IP.',
    tag: 'health',
  },
  {
    response: {
      200: {
        description: 'The metrics.',
        content: { 'text/plain; version=0.0.4': { schema: Type.String() } },
      },
    },
  },
);

/**
 * Counts every request by route pattern, method and status, the door's open requests and their
 * bytes, and serves GET /metrics: to any authenticated caller (the permission "View metrics" is
 * every role's), so a scraper presents an API key.
 */
export function registerMetrics(app: FastifyInstance, metrics: DashboardMetrics): void {
  app.addHook('onResponse', (req, reply, done) => {
    const route = req.routeTaken?.pattern ?? UNMATCHED_ROUTE;
    metrics.observeRequest(req.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  // Only the door's routes count streams: their hook is theirs alone, added as each registers.
  app.addHook('onRoute', (route) => {
    const doorRoute = DOOR_ROUTE_KINDS[route.url];
    if (doorRoute === undefined) return;
    const countStream: onRequestHookHandler = (req, reply, done) => {
      const kind = doorStreamKind(doorRoute, req.headers);
      const socket = req.raw.socket as Socket | null;
      // One request at a time on an HTTP/1.1 connection: its bytes are the socket's growth.
      const readAtStart = socket?.bytesRead ?? 0;
      const writtenAtStart = socket?.bytesWritten ?? 0;
      const close = metrics.doorStreamOpened(kind);
      reply.raw.once('close', () =>
        close(
          Math.max(0, (socket?.bytesRead ?? 0) - readAtStart),
          Math.max(0, (socket?.bytesWritten ?? 0) - writtenAtStart),
        ),
      );
      done();
    };
    route.onRequest = [...[route.onRequest ?? []].flat(), countStream];
  });

  app.get(METRICS_PATH, { schema: METRICS_SCHEMA }, async (_req, reply) => {
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });
}
