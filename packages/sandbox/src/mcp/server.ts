import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@paddock/common';
import type { SandboxMetrics } from '../metrics.js';
import type { ScrubSegment } from '@paddock/common/scrub';
import type { Workspace } from '../workspace/containment.js';
import { callTool, type ToolSet } from './dispatch.js';
import { serverInstructions } from './instructions.js';
import type { ProcessGroups } from './process-group.js';
import type { SessionState } from './session.js';

export const SERVER_NAME = 'paddock-sandbox';

export interface McpContext {
  version: string;
  tools: ToolSet;
  workspace: Workspace;
  childEnv: NodeJS.ProcessEnv;
  /** Where this listener's commands run: its own registry, ended with it. */
  groups: ProcessGroups;
  scrub: (text: string) => string;
  /** The scrubber's view of a text, for Edit and Write to map redaction markers back. */
  scrubView?: (text: string) => ScrubSegment[];
  logger: Logger;
  /** Where tool calls are counted and timed; none in tests that do not look. */
  metrics?: SandboxMetrics | undefined;
  /** Counts tool calls in flight, so shutdown can wait for them. */
  track: <T>(work: Promise<T>) => Promise<T>;
}

/**
 * One MCP server per session, as the SDK intends (a Server speaks over one transport). The tool set
 * is fixed at startup: tools.listChanged is advertised as the specification says, and no
 * list_changed notification is ever sent. The initialize result carries the instructions an agent
 * needs before its first call (the workspace root, how paths and Bash work, redaction).
 */
export function createMcpServer(context: McpContext, session: SessionState): Server {
  const server = new Server(
    { name: SERVER_NAME, version: context.version },
    {
      capabilities: { tools: { listChanged: true } },
      instructions: serverInstructions({ root: context.workspace.root }),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: context.tools.descriptors }));
  // What every call of the session shares, made once; a call adds only its own abort signal.
  const observe = context.metrics
    ? context.metrics.observeToolCall.bind(context.metrics)
    : undefined;
  const shared = {
    tools: context.tools,
    scrub: context.scrub,
    logger: context.logger,
    ...(observe ? { observe } : {}),
  };
  const sessionCtx = {
    workspace: context.workspace,
    session,
    childEnv: context.childEnv,
    ...(context.scrubView ? { scrubView: context.scrubView } : {}),
  };
  server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
    context.track(
      callTool(request.params.name, request.params.arguments, {
        ...shared,
        // The SDK aborts this when the client cancels and when the session's server closes,
        // which is how a session end and the shutdown reach running tools.
        ctx: { ...sessionCtx, signal: extra.signal },
      }),
    ),
  );
  return server;
}
