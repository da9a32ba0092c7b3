import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpConnection } from './target.js';

const CLIENT_INFO = { name: 'paddock-tool-handlers', version: '0.1.0' };

/** Where an mcp handler is: a URL whose transport is still to find, or a command. */
export type McpAddress =
  { transport: 'http'; url: string } | Extract<McpConnection, { transport: 'stdio' }>;

/** The endpoint reported for an mcp handler's tools. */
export function mcpEndpoint(address: McpAddress | McpConnection): string {
  return address.transport === 'stdio'
    ? `stdio:${[address.command, ...address.args].join(' ')}`
    : address.url;
}

/**
 * The connections to try, in order. Over HTTP: SSE first, and streamable HTTP when the URL ends
 * with /mcp or SSE fails.
 */
export function connectionsFor(address: McpAddress): McpConnection[] {
  if (address.transport === 'stdio') return [address];
  const path = new URL(address.url).pathname.replace(/\/+$/, '');
  const sse = { transport: 'sse' as const, url: address.url };
  const streamable = { transport: 'streamable-http' as const, url: address.url };
  return path.endsWith('/mcp') ? [streamable, sse] : [sse, streamable];
}

function transportFor(connection: McpConnection): Transport {
  if (connection.transport === 'stdio') {
    return new StdioClientTransport({
      command: connection.command,
      args: connection.args,
      ...(connection.workDir === undefined ? {} : { cwd: connection.workDir }),
      env: { ...getDefaultEnvironment(), ...connection.env },
      // The server's own logs are not ours to print.
      stderr: 'ignore',
    });
  }
  const url = new URL(connection.url);
  return connection.transport === 'sse'
    ? new SSEClientTransport(url)
    : new StreamableHTTPClientTransport(url);
}

/** A connected, initialized client. */
export async function connectMcp(connection: McpConnection, timeoutMs: number): Promise<Client> {
  const client = new Client(CLIENT_INFO);
  try {
    await client.connect(transportFor(connection), { timeout: timeoutMs });
    return client;
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Connects with the first connection that works, runs `use`, and always closes the client (and
 * with it a stdio subprocess).
 */
export async function withMcpClient<T>(
  address: McpAddress,
  timeoutMs: number,
  use: (client: Client, connection: McpConnection) => Promise<T>,
): Promise<T> {
  let lastError: unknown;
  for (const connection of connectionsFor(address)) {
    let client: Client;
    try {
      client = await connectMcp(connection, timeoutMs);
    } catch (error) {
      lastError = error;
      continue;
    }
    try {
      return await use(client, connection);
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  throw lastError;
}
