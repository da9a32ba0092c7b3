import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import type { ScrubSegment } from '@paddock/common/scrub';
import type { Workspace } from '../workspace/containment.js';
import type { SessionState } from './session.js';

export { ToolFailure } from './tool-failure.js';

/** What a tool runs with: the workspace, its MCP session's state, and a signal for cancellation. */
export interface ToolContext {
  workspace: Workspace;
  session: SessionState;
  /** Aborted when the client cancels the call, the session ends, or the process shuts down. */
  signal: AbortSignal;
  /** The environment for child processes: the sandbox's own secrets already removed. */
  childEnv: NodeJS.ProcessEnv;
  /**
   * What the scrubber shows of a text, piece by piece with the real text behind each redaction,
   * for Edit and Write to map markers back (absent: no scrubbing, markers are plain text).
   */
  scrubView?: (text: string) => ScrubSegment[];
}

/**
 * One MCP tool. `input` is validated before `run` is called (a bad argument becomes an isError
 * result naming the field). `run` returns the result text; a failure the caller caused (missing
 * file, path outside the workspace, command failed) is a thrown ToolFailure (or PathError) and
 * becomes an isError result; anything else thrown becomes a JSON-RPC error, never a crash.
 */
export interface Tool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  /** Hints for clients (title, read-only, destructive...); the sandbox's come from its tool table. */
  annotations?: ToolAnnotations;
  run(args: z.output<S>, ctx: ToolContext): Promise<string>;
}

/** Helps `defineTool` infer the argument type from the schema. */
export function defineTool<S extends z.ZodObject>(tool: Tool<S>): Tool<S> {
  return tool;
}
