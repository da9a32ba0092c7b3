import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import { formatAddress, sendErrorEnvelope, type Logger } from '@paddock/common';
import type { PodEndpoint } from '@paddock/kube';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ProxyServer } from 'http-proxy-3';
import { secretRef } from '../config.js';
import type { DashboardContext } from '../http/context.js';
import { apiError, statusOfError } from '../http/errors.js';
import {
  mcpOperation,
  messageOperation,
  sandboxOperation,
  sseOperation,
} from '../http/schemas/door.js';
import { inCluster, requestedWorkspace } from '../http/workspace-routes.js';
import { mayAct, type WorkspaceAction } from '../workspaces/views.js';
import type { WorkspaceInUse } from '../workspaces/service.js';
import { AgentPods } from './agent-pods.js';
import { AgentRuntimes } from './agent-runtimes.js';
import { EndpointRewrite } from './mcp-sse.js';
import { ordinalOf, parseStickySessionId, stickySessionId } from './mcp-session-id.js';
import { podTarget, readyPods, runsAvailability, type DoorPort } from './pod-target.js';
import { ProofSigner } from './proof-signer.js';
import { sandboxRoute } from './sandbox-paths.js';
import { hardenSandboxResponse, headersForSandbox, sandboxIdentity } from './sandbox-identity.js';
import { registerRunsRoutes, type RunsAction, type RunsPass } from './runs-routes.js';
import { upgradeOf } from './upgrade.js';

/**
 * The dashboard as the door into agent workspaces (docs/decisions/0022): each pod's human API
 * under `.../pods/{pod}/sandbox/...`, each pod's runs API under `.../pods/{pod}/runs`
 * (runs-routes.ts) and the agent's MCP server under `.../mcp`, `/sse` and `/message`, proxied as
 * byte streams (HTTP, server-sent events, WebSockets) after the same authentication and workspace
 * roles as every other workspace route.
 */

export interface DoorParts {
  pods: AgentPods;
  runtimes: AgentRuntimes;
  signer: ProofSigner;
}

const AGENT = '/api/workspaces/:name/agents/:agentName';
export const DOOR_ROUTES = {
  sandbox: `${AGENT}/pods/:podName/sandbox/*`,
  mcp: `${AGENT}/mcp`,
  sse: `${AGENT}/sse`,
  message: `${AGENT}/message`,
} as const;

/** Where a proxied request goes, and what its answer needs. */
interface Hop {
  target: string;
  /** The replica of an MCP request, for the sticky session id of its answer. */
  ordinal?: number;
}

const HOP = Symbol('paddock.hop');
/** Agents whose next replica for a new MCP session is remembered. */
const MAX_ROUND_ROBIN_AGENTS = 10_000;
type HopRequest = IncomingMessage & { [HOP]?: Hop };
/** A request to one of the door's routes: below an agent of a workspace. */
type AgentRequest = FastifyRequest & { params: { name: string; agentName: string } };

/** The methods of the sandbox's route, each an operation of its own in the OpenAPI document. */
const SANDBOX_METHODS = [
  ['GET', 'readAgentSandbox', 'A pod’s sandbox: read, or open a terminal or tunnel'],
  ['POST', 'postAgentSandbox', 'A pod’s sandbox: register an SSH key'],
  ['DELETE', 'deleteAgentSandbox', 'A pod’s sandbox: remove an SSH key'],
] as const;
const MCP_METHODS = [
  ['GET', 'streamAgentMcp', 'The agent’s MCP server (Streamable HTTP): the session’s stream'],
  ['POST', 'postAgentMcp', 'The agent’s MCP server (Streamable HTTP): a JSON-RPC message'],
  ['DELETE', 'deleteAgentMcp', 'The agent’s MCP server (Streamable HTTP): end the session'],
] as const;

/** The door's actions: a pod's sandbox, the agent's MCP server, a pod's runs. */
type DoorAction = Extract<WorkspaceAction, 'viewFiles' | 'useTerminal' | 'useMcp'> | RunsAction;

const FORBIDDEN: Record<DoorAction, string> = {
  viewFiles: "viewing an agent's files needs a viewer role or higher in the workspace",
  useTerminal: 'terminals, port-forwards and SSH need an editor role or higher in the workspace',
  useMcp: "the agent's MCP server needs an editor role or higher in the workspace",
  viewRuns: "viewing an agent's runs needs a viewer role or higher in the workspace",
  startRuns: 'starting and cancelling runs needs an editor role or higher in the workspace',
};

function targetUrl(endpoint: PodEndpoint): string {
  return `http://${formatAddress(endpoint)}`;
}

/** The path and query of a request below the first `depth` path segments, as sent. */
export function pathBelow(url: string, depth: number): { path: string; query: string } {
  const at = url.indexOf('?');
  const path = at < 0 ? url : url.slice(0, at);
  return {
    path: path
      .split('/')
      .slice(depth + 1)
      .join('/'),
    query: at < 0 ? '' : url.slice(at),
  };
}

/** The door's parts for a dashboard with a cluster; undefined without one. */
export function doorParts(ctx: DashboardContext): DoorParts | undefined {
  if (ctx.workspaces === undefined) return undefined;
  const secret = secretRef(ctx.config.SVC_SANDBOX_PROOF_SECRET);
  if (secret === undefined) throw new Error('SVC_SANDBOX_PROOF_SECRET is not namespace/name');
  return {
    pods: new AgentPods(ctx.now),
    runtimes: new AgentRuntimes(ctx.now),
    signer: new ProofSigner(ctx.workspaces.kube, secret, ctx.now),
  };
}

export function registerDoorRoutes(app: FastifyInstance, ctx: DashboardContext): void {
  const parts = doorParts(ctx);
  const door = (): DoorParts => {
    if (parts === undefined) {
      throw apiError('unavailable', 'no cluster is configured, so there are no workspaces');
    }
    return parts;
  };
  const logger: Logger = ctx.logger;
  // Who the proxy auth mode takes from headers: never passed on, whatever the mode.
  const claimHeaders = [
    ctx.config.SVC_AUTH_PROXY_HEADER_USER,
    ctx.config.SVC_AUTH_PROXY_HEADER_EMAIL,
    ctx.config.SVC_AUTH_PROXY_HEADER_GROUPS,
    ctx.config.SVC_AUTH_PROXY_HEADER_DISPLAY_NAME,
  ];
  // Connections to the pods are kept open and reused: a tool call or a file read through the door
  // then costs no TCP connect (WebSocket upgrades take a connection of their own).
  const agent = new Agent({ keepAlive: true });
  const proxies = {
    api: new ProxyServer({ xfwd: false, changeOrigin: true, ws: true }),
    mcp: new ProxyServer({ xfwd: false, changeOrigin: true }),
    sse: new ProxyServer({ xfwd: false, changeOrigin: true, selfHandleResponse: true }),
    runs: new ProxyServer({ xfwd: false, changeOrigin: true, selfHandleResponse: true }),
  };
  app.addHook('onClose', (_app, done) => {
    agent.destroy();
    done();
  });
  for (const proxy of Object.values(proxies)) {
    proxy.on('error', (err, req, res) => {
      logger.debug({ err, url: req.url }, 'an agent pod did not answer');
      const failure = apiError('bad_gateway', `the agent's pod did not answer: ${err.message}`);
      // A WebSocket's socket has no HTTP answer to give once the proxy has it: it is cut.
      if ('writeHead' in res) sendErrorEnvelope(res, failure);
      else res.destroy();
    });
    proxy.on('proxyRes', (proxyRes) => hardenSandboxResponse(proxyRes.headers));
  }
  proxies.mcp.on('proxyRes', (proxyRes, req: HopRequest) => {
    const id = proxyRes.headers['mcp-session-id'];
    const ordinal = req[HOP]?.ordinal;
    if (typeof id === 'string' && ordinal !== undefined) {
      proxyRes.headers['mcp-session-id'] = stickySessionId(ordinal, id);
    }
  });
  proxies.sse.on('proxyRes', (proxyRes, req: HopRequest, res: ServerResponse) => {
    res.writeHead(proxyRes.statusCode ?? 502, proxyRes.headers);
    const ordinal = req[HOP]?.ordinal;
    const streaming = proxyRes.statusCode === 200 && ordinal !== undefined;
    (streaming ? proxyRes.pipe(new EndpointRewrite(ordinal)) : proxyRes).pipe(res);
    // A pod that goes away ends the client's stream, and a client that goes ends the pod's.
    proxyRes.on('error', () => res.destroy());
    res.on('close', () => proxyRes.destroy());
  });

  proxies.runs.on('proxyRes', (proxyRes, _req, res: ServerResponse) => {
    res.writeHead(proxyRes.statusCode ?? 502, proxyRes.headers);
    // A transcript's stream: its headers go at once, each event as the pod sends it.
    if (/^text\/event-stream/.test(String(proxyRes.headers['content-type']))) res.flushHeaders();
    proxyRes.pipe(res);
    // A pod that goes away ends the client's stream, and a client that goes ends the pod's.
    proxyRes.on('error', () => res.destroy());
    res.on('close', () => proxyRes.destroy());
  });

  /** The workspace of the request, the user allowed `action` in it. */
  const workspaceFor = (req: AgentRequest, action: DoorAction): WorkspaceInUse => {
    const used = requestedWorkspace(req, ctx);
    if (!mayAct(req.principal.user.role, used.role, action)) {
      throw apiError('forbidden', FORBIDDEN[action]);
    }
    return used;
  };

  /** The pod's address for `port`, or why it cannot be reached. */
  const reach = async (used: WorkspaceInUse, agent: string, pod: string, port: DoorPort) => {
    const namespace = used.workspace.spec.namespace.name;
    const kube = await inCluster('a workspace token', () => used.cluster());
    const found = await inCluster(`pod "${pod}"`, () => door().pods.pod(kube, namespace, pod));
    const target = podTarget(found, agent, pod, port);
    if (!target.ok) throw apiError(target.code, target.message);
    return target;
  };

  /** Rewrites the request for the pod and hands it, or its socket, to the proxy. */
  const pass = async (
    req: FastifyRequest,
    reply: FastifyReply,
    proxy: ProxyServer,
    hop: Hop & { url: string; audience?: string },
  ) => {
    const identity = sandboxIdentity(req.principal.user);
    const proof =
      hop.audience === undefined ? undefined : await door().signer.proofFor(hop.audience, identity);
    headersForSandbox(req.raw.headers, identity, proof, claimHeaders);
    const raw = req.raw as HopRequest;
    raw.url = hop.url;
    raw[HOP] = hop;
    void reply.hijack();
    const upgrade = upgradeOf(raw);
    if (upgrade !== undefined) {
      proxy.ws(raw, upgrade.socket, upgrade.head, { target: hop.target });
    } else {
      proxy.web(raw, reply.raw, { target: hop.target, agent });
    }
  };

  void app.register((scope, _options, registered) => {
    // Bodies pass to the pod unread, as the client sends them; the pod applies its own limits.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_req, _payload, done) => done(null));

    /** A runs request: the role, then an agent that runs tasks, then its Ready pod. */
    const passRuns: RunsPass = async (req, reply, action, upstreamPath) => {
      const used = workspaceFor(req, action);
      const { agentName, podName } = req.params;
      const namespace = used.workspace.spec.namespace.name;
      const kube = await inCluster('a workspace token', () => used.cluster());
      const runtime = await inCluster(`agent "${agentName}"`, () =>
        door().runtimes.get(kube, namespace, agentName),
      );
      const runs = runsAvailability(runtime, agentName);
      if (!runs.ok) throw apiError(runs.code, runs.message);
      const target = await reach(used, agentName, podName, 'runs');
      await pass(req, reply, proxies.runs, {
        target: targetUrl(target.endpoint),
        audience: target.audience,
        url: upstreamPath,
      });
    };
    registerRunsRoutes(scope, passRuns);

    const typed = scope.withTypeProvider<TypeBoxTypeProvider>();
    for (const [method, operationId, summary] of SANDBOX_METHODS) {
      typed.route({
        method,
        url: DOOR_ROUTES.sandbox,
        schema: sandboxOperation(operationId, summary),
        handler: async (req, reply) => {
          const { path, query } = pathBelow(req.raw.url ?? '', 8);
          const route = sandboxRoute(req.raw.method ?? 'GET', path);
          if (!route.ok) {
            if (route.status === 405) {
              void reply.header('allow', route.allowed.join(', '));
              throw apiError(
                'method_not_allowed',
                `${req.method} is not allowed on the sandbox's /${path}`,
              );
            }
            throw apiError(
              'not_found',
              `the sandbox's /${path} is not reached through the dashboard`,
            );
          }
          const used = workspaceFor(req, route.action);
          const target = await reach(used, req.params.agentName, req.params.podName, 'api');
          await pass(req, reply, proxies.api, {
            target: targetUrl(target.endpoint),
            audience: target.audience,
            url: `/${path}${query}`,
          });
        },
      });
    }

    /** New sessions per agent so far: they go round the Ready replicas in turn. */
    const opened = new Map<string, number>();
    /** An MCP request to the replica its session is on, or to a Ready one for a new session. */
    const mcpHop = async (req: AgentRequest, session: string | undefined) => {
      const used = workspaceFor(req, 'useMcp');
      const agent = req.params.agentName;
      if (session !== undefined) {
        const sticky = parseStickySessionId(session);
        if (sticky === undefined) {
          throw apiError('not_found', 'no such MCP session: start a new one');
        }
        const pod = `${agent}-${sticky.ordinal}`;
        const target = await reach(used, agent, pod, 'mcp').catch((err: unknown) => {
          throw statusOfError(err) === 503
            ? apiError(
                'not_found',
                `the MCP session ended with its replica ${pod}: start a new one`,
              )
            : err;
        });
        return {
          target: targetUrl(target.endpoint),
          ordinal: sticky.ordinal,
          upstream: sticky.upstream,
        };
      }
      const namespace = used.workspace.spec.namespace.name;
      const kube = await inCluster('a workspace token', () => used.cluster());
      const pods = await inCluster(`the pods of agent "${agent}"`, () =>
        door().pods.ofAgent(kube, namespace, agent),
      );
      const ready = readyPods(pods, agent).filter(
        (p) => ordinalOf(agent, p.metadata.name) !== undefined,
      );
      if (ready.length === 0) {
        throw apiError(
          'unavailable',
          `agent "${agent}" has no ready replica; try again in a moment`,
        );
      }
      const key = `${namespace}/${agent}`;
      const turn = opened.get(key) ?? 0;
      opened.delete(key);
      opened.set(key, turn + 1);
      // Bounded like every cache here: the agents least recently opened go first.
      if (opened.size > MAX_ROUND_ROBIN_AGENTS) opened.delete(opened.keys().next().value!);
      const chosen = ready[turn % ready.length]!;
      const target = podTarget(chosen, agent, chosen.metadata.name, 'mcp');
      if (!target.ok) throw apiError(target.code, target.message);
      return {
        target: targetUrl(target.endpoint),
        ordinal: ordinalOf(agent, chosen.metadata.name)!,
        upstream: undefined,
      };
    };

    for (const [method, operationId, summary] of MCP_METHODS) {
      typed.route({
        method,
        url: DOOR_ROUTES.mcp,
        schema: mcpOperation(operationId, summary),
        handler: async (req, reply) => {
          const header = req.headers['mcp-session-id'];
          const session = Array.isArray(header) ? header[0] : header;
          const hop = await mcpHop(req, session);
          if (hop.upstream !== undefined) req.raw.headers['mcp-session-id'] = hop.upstream;
          await pass(req, reply, proxies.mcp, {
            target: hop.target,
            ordinal: hop.ordinal,
            url: `/mcp${pathBelow(req.raw.url ?? '', 6).query}`,
          });
        },
      });
    }

    typed.get(DOOR_ROUTES.sse, { schema: sseOperation() }, async (req, reply) => {
      const hop = await mcpHop(req, undefined);
      await pass(req, reply, proxies.sse, {
        target: hop.target,
        ordinal: hop.ordinal,
        url: '/sse',
      });
    });

    typed.post(DOOR_ROUTES.message, { schema: messageOperation() }, async (req, reply) => {
      const hop = await mcpHop(req, req.query.sessionId);
      await pass(req, reply, proxies.mcp, {
        target: hop.target,
        url: `/message?sessionId=${encodeURIComponent(hop.upstream!)}`,
      });
    });
    registered();
  });
}
