// Tool servers a ToolRegistry can name, for the tests of discovery and of the agent calling the
// workspace's tools: an MCP server with one tool and an http tool, each recording what it got.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

export interface ToolServer {
  server: Server;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  close(): Promise<void>;
}

/** The schema of greet's arguments. */
export const GREET_SCHEMA = {
  type: 'object',
  properties: { name: { type: 'string' } },
  required: ['name'],
};

async function listening(server: Server): Promise<ToolServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * An MCP server (stateless streamable HTTP, at any path) with one tool, greet, which answers
 * `hello, <name>`; each call's arguments are pushed to `calls`.
 */
export function startGreeterMcp(calls: unknown[]): Promise<ToolServer> {
  const http = createServer((req, res) => {
    void (async () => {
      const server = new McpServer(
        { name: 'greeter', version: '1.0.0' },
        { capabilities: { tools: {} } },
      );
      server.setRequestHandler(ListToolsRequestSchema, () => ({
        tools: [{ name: 'greet', description: 'Greets someone', inputSchema: GREET_SCHEMA }],
      }));
      server.setRequestHandler(CallToolRequestSchema, (request) => {
        calls.push(request.params.arguments);
        const who = String(request.params.arguments?.['name']);
        return { content: [{ type: 'text', text: `hello, ${who}` }] };
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res);
    })();
  });
  return listening(http);
}

/** An http tool answering `found <body>`; each request's body is pushed to `bodies`. */
export function startEchoHttpTool(bodies: string[]): Promise<ToolServer> {
  const http = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      bodies.push(body);
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`found ${body}`);
    });
  });
  return listening(http);
}
