// The runs API of one replica: start a run, list them, follow one's transcript as server-sent
// events (resumable with Last-Event-ID), cancel. Reached through the dashboard's door, which
// decides who may do what; every request carries the door's signed proof of who asks.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  createHttpApp,
  EVENT_STREAM_HEADERS,
  identityFromHeaders,
  verifyProof,
  type Health,
  type Identity,
  type Logger,
  type ProofVerifier,
} from '@paddock/common';
import { schemaCompilers } from '@paddock/common/lazy-schemas';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RunStore } from '../runs/run-store.js';
import { AgentError, type AgentErrorCode, type Runner } from '../runs/runner.js';
import type { TranscriptEvent } from '../transcript.js';
import { EventsQuery, OneRun, RunId, RunList, Started, StartRun } from './schemas.js';

/** Request bodies are a task and its variables. */
export const AGENT_BODY_LIMIT = 512 * 1024;
/** Bytes an event stream may hold unread before the client is dropped. */
export const MAX_STREAM_BACKLOG_BYTES = 4 * 1024 * 1024;

const STATUS: Record<AgentErrorCode, number> = {
  invalid_request: 400,
  not_found: 404,
  budget_exceeded: 403,
  queue_full: 429,
  unavailable: 503,
};

const statusOf = (code: string) => STATUS[code as AgentErrorCode];

/** `Last-Event-ID`: a run's event number, digits only. */
function lastEventId(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !/^\d{1,15}$/.test(header))
    throw new AgentError('invalid_request', 'Last-Event-ID must be an event number');
  return Number(header);
}

/** One event as a server-sent event: its number as the id, its type as the event name. */
export function eventFrame(event: TranscriptEvent): string {
  return `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The routes open without a proof: the health checks the kubelet asks (common's Health). */
const OPEN_ROUTES: ReadonlySet<string> = new Set(['/healthz', '/readyz']);
/** The service a refusal names, for the caller to reach through its proxy (the dashboard). */
const SERVICE = 'the agent';

export interface AgentAppOptions {
  runner: Runner;
  store: RunStore;
  health: Health;
  logger: Logger;
  /**
   * The identity proof every request but the health checks must carry (X-Paddock-Proof, checked
   * as the sandbox's human API checks it). Undefined is dev mode only: no proof is checked and
   * the caller is whoever the X-Forwarded-* headers say, the dev identity when they say nothing.
   */
  proof?: ProofVerifier | undefined;
}

/** Where a request keeps its caller, as the proof (or, in dev mode, the headers) says. */
const IDENTITY = Symbol('paddock.identity');
type IdentifiedRequest = FastifyRequest & { [IDENTITY]?: Identity };

/** Who started a run: the verified user's name, or their subject when the proof names no user. */
function callerOf(req: FastifyRequest): string {
  const identity = (req as IdentifiedRequest)[IDENTITY]!;
  return identity.user ?? identity.sub;
}

export function createAgentApp(options: AgentAppOptions): FastifyInstance {
  const { runner, store, proof } = options;
  const app = createHttpApp({ logger: options.logger, bodyLimit: AGENT_BODY_LIMIT, statusOf });
  options.health.register(app);
  schemaCompilers.install(app);
  app.addHook('onRequest', async (req, reply) => {
    // Every other request, an unknown path included, needs the proof: a caller without one
    // learns nothing of the API.
    if (OPEN_ROUTES.has(req.routeOptions.url ?? '')) return;
    if (proof === undefined) {
      (req as IdentifiedRequest)[IDENTITY] = identityFromHeaders(req.headers, true);
      return;
    }
    const outcome = await verifyProof(req.headers, proof, new Date(), SERVICE);
    if (!outcome.ok) {
      return reply.code(401).send({ error: 'unauthorized', message: outcome.reason });
    }
    (req as IdentifiedRequest)[IDENTITY] = outcome.identity;
  });
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const found = (id: string) => {
    const run = store.get(id);
    if (run === undefined) throw new AgentError('not_found', `no run ${id}`);
    return run;
  };

  api.post(
    '/api/runs',
    { schema: { body: StartRun, response: { 202: Started } } },
    async (req, reply) => {
      const started = await runner.start({ ...req.body, startedBy: callerOf(req) });
      return reply.code(202).send(started);
    },
  );

  api.get('/api/runs', { schema: { response: { 200: RunList } } }, () => {
    const { running, queued } = runner.line;
    return { runs: store.list(), running: running ?? null, queued };
  });

  api.get('/api/runs/:id', { schema: { params: RunId, response: { 200: OneRun } } }, (req) => ({
    run: found(req.params.id),
  }));

  api.post(
    '/api/runs/:id/cancel',
    { schema: { params: RunId, response: { 200: OneRun } } },
    async (req) => ({ run: await runner.cancel(req.params.id) }),
  );

  api.get(
    '/api/runs/:id/events',
    { schema: { params: RunId, querystring: EventsQuery } },
    async (req, reply) => {
      const run = found(req.params.id);
      const after = lastEventId(req.headers['last-event-id']) ?? req.query.after ?? 0;
      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, EVENT_STREAM_HEADERS);
      res.setTimeout(0);
      const send = (event: TranscriptEvent) => {
        if (res.writableEnded || res.destroyed) return;
        res.write(eventFrame(event));
        if (event.type === 'outcome') res.end();
        else if (res.writableLength > MAX_STREAM_BACKLOG_BYTES) res.destroy();
      };
      const following = await store.follow(run.id, after, send);
      res.on('close', () => following.stop());
      // A finished run whose events were all seen before: nothing more will come.
      if (run.outcome !== undefined && run.lastSeq <= after) res.end();
      // Ended already (the outcome replayed, or the client gone while replaying).
      if (res.writableEnded || res.destroyed) following.stop();
    },
  );

  return app;
}
