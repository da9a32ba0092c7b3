import type { CallOptions, CallResult, ToolTarget } from '../target.js';
import { callGrpc } from './grpc.js';
import { callHttp } from './http.js';
import { McpSessions } from './mcp.js';
import { callOpenApi } from './openapi.js';

export interface ToolCallerOptions {
  /**
   * Whether tools of mcp stdio handlers may run their command here. Anyone who can edit a
   * ToolRegistry chooses that command, so it is off unless asked for.
   */
  allowStdio?: boolean;
}

/**
 * Calls discovered tools with their handler's protocol, keeping MCP sessions open between calls
 * until close().
 */
export class ToolCaller {
  private readonly sessions = new McpSessions();

  constructor(private readonly options: ToolCallerOptions = {}) {}

  /**
   * Answers with the tool's text, isError when the tool failed, could not be reached or ran out of
   * time (the handler's timeout unless options say otherwise). Rejects only when the signal aborts.
   */
  async call(target: ToolTarget, args: unknown, options: CallOptions = {}): Promise<CallResult> {
    const { signal } = options;
    signal?.throwIfAborted();
    const timeoutMs = options.timeoutMs ?? target.timeoutMs;
    switch (target.type) {
      case 'mcp':
        if (target.connection.transport === 'stdio' && this.options.allowStdio !== true) {
          return { text: 'tools of mcp stdio handlers are not run here', isError: true };
        }
        return this.sessions.call(target, args, timeoutMs, signal);
      case 'http':
        return callHttp(target, args, timeoutMs, signal);
      case 'openapi':
        return callOpenApi(target, args, timeoutMs, signal);
      case 'grpc':
        return callGrpc(target, args, timeoutMs, signal);
    }
  }

  /** Ends the MCP sessions. */
  close(): Promise<void> {
    return this.sessions.close();
  }
}

/** One call with a caller of its own, closed afterwards. */
export async function callTool(
  target: ToolTarget,
  args: unknown,
  options: CallOptions & ToolCallerOptions = {},
): Promise<CallResult> {
  const caller = new ToolCaller({ allowStdio: options.allowStdio === true });
  try {
    return await caller.call(target, args, options);
  } finally {
    await caller.close();
  }
}
