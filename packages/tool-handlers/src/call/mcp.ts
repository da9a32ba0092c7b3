import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp } from '../mcp-connection.js';
import { cutText } from '../response-limit.js';
import type { CallResult, McpConnection, McpTarget } from '../target.js';

/**
 * MCP sessions kept open between calls, one per server; a session that fails is dropped, so the
 * next call connects again.
 */
export class McpSessions {
  private readonly clients = new Map<string, Promise<Client>>();

  async call(
    target: McpTarget,
    args: unknown,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<CallResult> {
    if (args === null || typeof args !== 'object' || Array.isArray(args)) {
      return { text: `${target.tool} takes a JSON object of arguments`, isError: true };
    }
    const key = JSON.stringify(target.connection);
    let client: Client;
    try {
      client = await untilAborted(this.client(key, target.connection, timeoutMs), signal);
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      return {
        text: `connecting to ${target.tool}'s server failed: ${message(error)}`,
        isError: true,
      };
    }
    try {
      const result = (await client.callTool(
        { name: target.tool, arguments: args as Record<string, unknown> },
        undefined,
        { timeout: timeoutMs, ...(signal === undefined ? {} : { signal }) },
      )) as CallToolResult;
      return { text: cutText(resultText(result)), isError: result.isError === true };
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (!(error instanceof McpError)) await this.drop(key);
      if (error instanceof McpError && error.code === Number(ErrorCode.RequestTimeout)) {
        return { text: `no answer in ${timeoutMs} ms`, isError: true };
      }
      return { text: `${target.tool} failed: ${message(error)}`, isError: true };
    }
  }

  /** Ends every session (and the subprocesses of stdio servers). */
  async close(): Promise<void> {
    const clients = [...this.clients.values()];
    this.clients.clear();
    await Promise.all(
      clients.map((client) => client.then((c) => c.close()).catch(() => undefined)),
    );
  }

  /** The open session with the server, or a new one; concurrent calls share the connection. */
  private client(key: string, connection: McpConnection, timeoutMs: number): Promise<Client> {
    const open = this.clients.get(key);
    if (open !== undefined) return open;
    const connecting = connectMcp(connection, timeoutMs).then((client) => {
      client.onclose = () => {
        if (this.clients.get(key) === connecting) this.clients.delete(key);
      };
      return client;
    });
    this.clients.set(key, connecting);
    connecting.catch(() => {
      if (this.clients.get(key) === connecting) this.clients.delete(key);
    });
    return connecting;
  }

  private async drop(key: string): Promise<void> {
    const client = this.clients.get(key);
    this.clients.delete(key);
    await client?.then((c) => c.close()).catch(() => undefined);
  }
}

/** The text of a result: its text items joined, other kinds named so nothing vanishes silently. */
export function resultText(result: CallToolResult): string {
  const parts = result.content.map((item) =>
    item.type === 'text' ? item.text : `[${item.type} content not shown]`,
  );
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join('\n');
}

/** The promise, or the signal's reason when it aborts first (the connection goes on for others). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
