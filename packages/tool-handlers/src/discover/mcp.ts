import type { ToolHandler } from '@paddock/kube';
import { mcpEndpoint, withMcpClient, type McpAddress } from '../mcp-connection.js';
import { handlerTimeoutMs } from '../timeouts.js';
import { available, type Found } from './context.js';

/** tools/list pages read at most from one server. */
export const MAX_TOOL_LIST_PAGES = 100;

/**
 * Connects an MCP client, initializes, and lists every tool with its schema (following
 * pagination). The client, and with it a stdio subprocess, is always closed.
 */
export async function discoverMcp(handler: ToolHandler, address: McpAddress): Promise<Found> {
  const timeoutMs = handlerTimeoutMs(handler);
  const endpoint = mcpEndpoint(address);
  return withMcpClient(address, timeoutMs, async (client, connection) => {
    const found: Found = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_LIST_PAGES; page++) {
      const listed = await client.listTools(cursor === undefined ? {} : { cursor }, {
        timeout: timeoutMs,
      });
      for (const tool of listed.tools) {
        found.push(
          available(endpoint, {
            handlerName: handler.name,
            name: tool.name,
            description: tool.description ?? '',
            inputSchema: tool.inputSchema,
            target: { type: 'mcp', connection, tool: tool.name, timeoutMs },
          }),
        );
      }
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return found;
  });
}
