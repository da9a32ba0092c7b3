import {
  ErrorCode,
  McpError,
  type CallToolResult,
  type Tool as ToolDescriptor,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '@paddock/common';
import type { z } from 'zod';
import { UNKNOWN_TOOL, type ToolCallResult } from '../metrics.js';
import { PathError } from '../workspace/containment.js';
import { agentInputSchema } from './input-schema.js';
import { ToolFailure, type Tool, type ToolContext } from './tool.js';

/** The fixed tool set of one sandbox process, with its descriptors computed once. */
export class ToolSet {
  private readonly byName: Map<string, Tool>;
  readonly descriptors: ToolDescriptor[];

  constructor(tools: readonly Tool[]) {
    this.byName = new Map(tools.map((t) => [t.name, t]));
    this.descriptors = tools.map((t) => ({
      name: t.name,
      // Clients of 2025-06-18 read the top-level title, older ones the annotation's.
      ...(t.annotations?.title === undefined ? {} : { title: t.annotations.title }),
      description: t.description,
      inputSchema: agentInputSchema(t.input),
      ...(t.annotations === undefined ? {} : { annotations: t.annotations }),
    }));
  }

  get(name: string): Tool | undefined {
    return this.byName.get(name);
  }
}

/** How the arguments failed their schema, one line per field, for the agent to correct itself. */
export function describeIssues(toolName: string, error: z.ZodError): string {
  const lines = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
    return `- ${field}: ${issue.message}`;
  });
  return `Invalid arguments for ${toolName}:\n${lines.join('\n')}`;
}

function text(value: string, isError: boolean): CallToolResult {
  return isError
    ? { content: [{ type: 'text', text: value }], isError: true }
    : { content: [{ type: 'text', text: value }] };
}

export interface CallOptions {
  tools: ToolSet;
  ctx: ToolContext;
  scrub: (text: string) => string;
  logger: Logger;
  /** Told how each call ended and how long it took (the metrics). */
  observe?: (tool: string, result: ToolCallResult, seconds: number) => void;
}

/**
 * Runs one tools/call: validate, run, scrub, log. The caller's mistakes (bad arguments, a path
 * outside the workspace, a missing file, a failed command) come back as isError results; an unknown
 * tool is invalid params; any other failure becomes a JSON-RPC internal error with a scrubbed
 * message, so a throwing tool never takes the process down.
 */
export async function callTool(
  name: string,
  args: Record<string, unknown> | undefined,
  { tools, ctx, scrub, logger, observe }: CallOptions,
): Promise<CallToolResult> {
  const started = performance.now();
  let result: CallToolResult | undefined;
  try {
    result = await runTool(name, args, tools, ctx, scrub);
    return result;
  } catch (err) {
    if (err instanceof McpError) throw err;
    const message = scrub(err instanceof Error ? err.message : String(err));
    logger.error({ tool: scrub(name), err: message }, 'tool failed');
    throw new McpError(ErrorCode.InternalError, `${name} failed: ${message}`);
  } finally {
    // One line per call, however it ended; a JSON-RPC error shows as isError with no bytes.
    const first = result?.content[0];
    const ms = performance.now() - started;
    // A name the tool set lacks is the caller's text: never a label of its own.
    observe?.(
      tools.get(name) ? name : UNKNOWN_TOOL,
      result === undefined ? 'failed' : result.isError === true ? 'error' : 'ok',
      ms / 1000,
    );
    logger.info(
      {
        tool: scrub(name),
        ms: Math.round(ms * 100) / 100,
        isError: result === undefined || result.isError === true,
        bytes: first?.type === 'text' ? Buffer.byteLength(first.text) : 0,
      },
      'tool call',
    );
  }
}

/** Validates and runs; the caller's mistakes become isError results, anything else throws. */
async function runTool(
  name: string,
  args: Record<string, unknown> | undefined,
  tools: ToolSet,
  ctx: ToolContext,
  scrub: (text: string) => string,
): Promise<CallToolResult> {
  const tool = tools.get(name);
  if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${scrub(name)}`);
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) return text(scrub(describeIssues(name, parsed.error)), true);
  try {
    return text(scrub(await tool.run(parsed.data, ctx)), false);
  } catch (err) {
    if (err instanceof ToolFailure || err instanceof PathError)
      return text(scrub(err.message), true);
    throw err;
  }
}
