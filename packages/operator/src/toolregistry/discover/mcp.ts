import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ToolHandler } from '@paddock/kube';
import { handlerTimeoutMs } from '../timeouts.js';
import type { ToolReport } from './context.js';

const CLIENT_INFO = { name: 'paddock-operator', version: '0.1.0' };

/** What an mcp handler is reached through: a URL, or a command run as a subprocess. */
export type McpTarget =
  | { transport: 'http'; url: string }
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      workDir?: string;
      env?: Record<string, string>;
    };

/** The endpoint reported for an mcp handler's tools. */
export function mcpEndpoint(target: McpTarget): string {
  return target.transport === 'http'
    ? target.url
    : `stdio:${[target.command, ...target.args].join(' ')}`;
}

/**
 * Connects an MCP client, initializes, and lists every tool (following pagination). Over HTTP it
 * tries SSE first, and streamable HTTP when the URL ends with /mcp or SSE fails. The client, and
 * with it a stdio subprocess, is always closed.
 */
export async function discoverMcp(handler: ToolHandler, target: McpTarget): Promise<ToolReport[]> {
  const timeout = handlerTimeoutMs(handler);
  const endpoint = mcpEndpoint(target);
  const names = await withClient(target, timeout, async (client) => {
    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
      found.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return found;
  });
  return names.map((name) => ({
    handlerName: handler.name,
    name,
    status: 'Available' as const,
    endpoint,
  }));
}

async function withClient<T>(
  target: McpTarget,
  timeout: number,
  use: (client: Client) => Promise<T>,
): Promise<T> {
  const attempts = transportsFor(target);
  let lastError: unknown;
  for (const makeTransport of attempts) {
    const client = new Client(CLIENT_INFO);
    try {
      await client.connect(makeTransport(), { timeout });
    } catch (error) {
      lastError = error;
      await client.close().catch(() => undefined);
      continue;
    }
    try {
      return await use(client);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  throw lastError;
}

function transportsFor(target: McpTarget): (() => Transport)[] {
  if (target.transport === 'stdio') {
    return [
      () =>
        new StdioClientTransport({
          command: target.command,
          args: target.args,
          ...(target.workDir === undefined ? {} : { cwd: target.workDir }),
          env: { ...getDefaultEnvironment(), ...target.env },
          // The server's own logs are not the operator's to print.
          stderr: 'ignore',
        }),
    ];
  }
  const url = new URL(target.url);
  const sse = () => new SSEClientTransport(url);
  const streamable = () => new StreamableHTTPClientTransport(url);
  return url.pathname.replace(/\/+$/, '').endsWith('/mcp') ? [streamable, sse] : [sse, streamable];
}
