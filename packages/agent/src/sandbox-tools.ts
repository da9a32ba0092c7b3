// The sandbox's tools, reached through its own MCP server so that its containment, scrubbing and
// limits apply to the agent exactly as to any other client.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AgentTool, ToolResult } from './tools.js';

/**
 * How long one tool call may take: the longest Bash timeout (ten minutes) and a minute for the
 * sandbox to kill, collect and answer. Progress notifications do not extend it.
 */
export const TOOL_CALL_TIMEOUT_MS = 660_000;
/** tools/list pages read at most (the sandbox lists its nine tools in one). */
export const MAX_TOOL_LIST_PAGES = 20;

export interface SandboxTools {
  tools: AgentTool[];
  /** Ends the MCP session (and what the sandbox still runs for it). */
  close: () => Promise<void>;
}

const CLIENT_INFO = { name: 'paddock-agent', version: '0.1.0' };

export async function connectSandboxTools(
  mcpUrl: URL,
  headers: Record<string, string> = {},
): Promise<SandboxTools> {
  const client = new Client(CLIENT_INFO);
  const transport = new StreamableHTTPClientTransport(mcpUrl, { requestInit: { headers } });
  await client.connect(transport);
  try {
    const listed = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_LIST_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor });
      listed.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    const tools = listed.map((tool): AgentTool => ({
      name: tool.name,
      description: tool.description ?? '',
      inputSchema: tool.inputSchema,
      call: (args, signal) => callTool(client, tool.name, args, signal),
    }));
    const close = async () => {
      // Ending the session lets the sandbox stop what it still runs for it (background shells).
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    };
    return { tools, close };
  } catch (error) {
    await client.close();
    throw error;
  }
}

async function callTool(
  client: Client,
  name: string,
  args: unknown,
  signal: AbortSignal,
): Promise<ToolResult> {
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { text: `${name} takes a JSON object of arguments`, isError: true };
  }
  try {
    const result = (await client.callTool(
      { name, arguments: args as Record<string, unknown> },
      undefined,
      { signal, timeout: TOOL_CALL_TIMEOUT_MS },
    )) as CallToolResult;
    return { text: resultText(result), isError: result.isError === true };
  } catch (error) {
    // Cancellation is the caller's to report; any other failure is the model's answer.
    if (signal.aborted) throw error;
    return { text: `${name} failed: ${(error as Error).message}`, isError: true };
  }
}

/** The text of a result: its text items joined, other kinds named so nothing vanishes silently. */
export function resultText(result: CallToolResult): string {
  return result.content
    .map((item) => (item.type === 'text' ? item.text : `[${item.type} content not shown]`))
    .join('\n');
}
