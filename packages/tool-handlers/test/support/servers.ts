// Real servers of each handler protocol, recording what reached them.
import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as GrpcServer, ServerCredentials, type ServiceError } from '@grpc/grpc-js';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { toolProtocol, type ProtoTool } from '../../src/index.js';

/** Longer than any answer a caller reads. */
export const BIG_ANSWER = 'x'.repeat(2 * 1024 * 1024);

export const ECHO_SCHEMA = {
  type: 'object',
  properties: { text: { type: 'string', description: 'What to echo' } },
  required: ['text'],
};

export interface Recorder {
  /** The arguments each tool was called with, in order. */
  calls: { tool: string; args: unknown }[];
  /** Tools whose call was cancelled or whose client went away. */
  cancelled: string[];
}

const recorder = (): Recorder => ({ calls: [], cancelled: [] });

export interface RunningMcp extends Recorder {
  base: string;
  /** SSE sessions opened so far. */
  sseSessions(): number;
  stop(): Promise<void>;
}

/** The tools: echo, fail (an error result), big (a long answer) and slow (answers only when cancelled). */
function mcpServer(record: Recorder): McpServer {
  const server = new McpServer(
    { name: 'test-tools', version: '1.0.0' },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'echo', description: 'Echoes text', inputSchema: ECHO_SCHEMA },
      { name: 'fail', description: 'Always fails', inputSchema: { type: 'object' } },
      { name: 'big', description: 'Answers at length', inputSchema: { type: 'object' } },
      { name: 'slow', description: 'Never answers', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler(
    CallToolRequestSchema,
    async (request, extra): Promise<CallToolResult> => {
      const { name, arguments: args } = request.params;
      record.calls.push({ tool: name, args });
      if (name === 'echo')
        return { content: [{ type: 'text', text: `echo: ${String(args?.text)}` }] };
      if (name === 'fail') return { content: [{ type: 'text', text: 'it broke' }], isError: true };
      if (name === 'big') return { content: [{ type: 'text', text: BIG_ANSWER }] };
      await new Promise<void>((resolve) =>
        extra.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      record.cancelled.push(name);
      return { content: [{ type: 'text', text: 'too late' }] };
    },
  );
  return server;
}

/** An MCP server over SSE (/sse and /messages) and stateless streamable HTTP (/mcp). */
export async function startMcp(): Promise<RunningMcp> {
  const record = recorder();
  const sessions = new Map<string, SSEServerTransport>();
  let opened = 0;
  const servers = new Set<McpServer>();
  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        opened++;
        const server = mcpServer(record);
        servers.add(server);
        res.on('close', () => sessions.delete(transport.sessionId));
        await server.connect(transport);
      } else if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = sessions.get(url.searchParams.get('sessionId') ?? '');
        if (transport === undefined) res.writeHead(404).end();
        else await transport.handlePostMessage(req, res);
      } else if (url.pathname === '/mcp' && req.method === 'POST') {
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const server = mcpServer(record);
        servers.add(server);
        res.on('close', () => {
          void transport.close();
          void server.close();
          servers.delete(server);
        });
        await server.connect(transport);
        await transport.handleRequest(req, res);
      } else {
        res.writeHead(405).end();
      }
    })();
  });
  const base = await listen(http);
  return {
    ...record,
    calls: record.calls,
    cancelled: record.cancelled,
    base,
    sseSessions: () => opened,
    stop: async () => {
      await Promise.all([...servers].map((server) => server.close()));
      await close(http);
    },
  };
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RunningHttp {
  base: string;
  requests: RecordedRequest[];
  /** Paths of requests whose client went away before the answer. */
  abandoned: string[];
  stop(): Promise<void>;
}

/**
 * An HTTP server: /fail answers 500, /big at length, /slow never (until the client goes away),
 * /openapi.json the document set; anything else echoes method, path and body as JSON.
 */
export async function startHttp(document?: object): Promise<RunningHttp> {
  const requests: RecordedRequest[] = [];
  const abandoned: string[] = [];
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = req.url ?? '/';
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', url, headers: req.headers, body });
      const path = new URL(url, 'http://localhost').pathname;
      if (path === '/openapi.json' && document !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(document));
      } else if (path === '/fail') {
        res.writeHead(500).end('boom');
      } else if (path === '/big') {
        res.writeHead(200).end(BIG_ANSWER);
      } else if (path === '/slow') {
        res.on('close', () => abandoned.push(path));
      } else {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ method: req.method, url, body }));
      }
    });
  });
  const base = await listen(http);
  return { base, requests, abandoned, stop: () => close(http) };
}

export interface RunningGrpc extends Recorder {
  address: string;
  stop(): Promise<void>;
}

export const GRPC_TOOLS: ProtoTool[] = [
  {
    name: 'echo',
    description: 'Echoes text',
    input_schema_json: JSON.stringify(ECHO_SCHEMA),
    output_schema_json: '',
  },
  {
    name: 'bare',
    description: 'Declares no schema',
    input_schema_json: '',
    output_schema_json: '',
  },
];

type Callback = (error: ServiceError | null, answer?: object) => void;

/** A server of the platform's tool protocol: echo, fail (an error), slow (answers only when cancelled). */
export async function startGrpc(): Promise<RunningGrpc> {
  const record = recorder();
  const protocol = await toolProtocol();
  const server = new GrpcServer();
  server.addService(protocol.ToolService.service, {
    ListTools: (_call: unknown, callback: Callback) => callback(null, { tools: GRPC_TOOLS }),
    Execute: (
      call: {
        request: { tool_name: string; arguments_json: string };
        on(event: 'cancelled', listener: () => void): void;
      },
      callback: Callback,
    ) => {
      const tool = call.request.tool_name;
      const args: unknown = JSON.parse(call.request.arguments_json);
      record.calls.push({ tool, args });
      if (tool === 'fail') callback(null, { result_json: '', error: 'it broke' });
      else if (tool === 'slow') call.on('cancelled', () => record.cancelled.push(tool));
      else callback(null, { result_json: JSON.stringify({ echoed: args }), error: '' });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return {
    ...record,
    calls: record.calls,
    cancelled: record.cancelled,
    address: `127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.forceShutdown();
        resolve();
      }),
  };
}

async function listen(server: HttpServer): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: HttpServer): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
