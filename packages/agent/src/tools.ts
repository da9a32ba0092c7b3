// What the loop offers the model: a named tool with a JSON Schema, and a call that answers with
// text (a failure the model caused is an answer too, flagged isError, never a thrown error).

export interface ToolResult {
  text: string;
  isError: boolean;
}

export interface AgentTool {
  name: string;
  description: string;
  /** A JSON Schema object describing the arguments. */
  inputSchema: Record<string, unknown>;
  /** Runs the tool; the signal aborts it. Throws only for cancellation or broken plumbing. */
  call(args: unknown, signal: AbortSignal): Promise<ToolResult>;
}
