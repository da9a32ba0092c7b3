// The provider-neutral conversation the loop holds with a model: what it sends, what streams back,
// and how a failure is named. Each provider translates to and from its own wire format.

/** A tool call the model asked for. */
export interface ModelToolCall {
  id: string;
  name: string;
  /** The parsed JSON arguments; the raw text when `invalidArguments` says they did not parse. */
  arguments: unknown;
  /** Why the arguments could not be used (not JSON, not an object); absent when they parsed. */
  invalidArguments?: string;
}

/** The answer to one tool call, matched to it by the call's id. */
export interface ModelToolResult {
  callId: string;
  text: string;
  isError: boolean;
}

export type ModelMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; text: string; toolCalls: ModelToolCall[] }
  | { role: 'tool'; results: ModelToolResult[] };

export interface ModelTool {
  name: string;
  description: string;
  /** A JSON Schema object describing the arguments. */
  inputSchema: Record<string, unknown>;
}

export interface ModelRequest {
  model: string;
  system: string;
  messages: ModelMessage[];
  tools: ModelTool[];
  maxOutputTokens: number;
}

export type StopReason = 'end' | 'tool_calls' | 'max_tokens';

export type ModelEvent =
  | { type: 'text'; delta: string }
  | ({ type: 'tool_call' } & ModelToolCall)
  /** The call's tokens so far, cumulative: a later usage event replaces an earlier one. */
  | { type: 'usage'; input: number; output: number }
  | { type: 'stop'; reason: StopReason };

/** One model endpoint. The stream ends after its `stop` event; it throws a ModelError on failure. */
export interface ModelClient {
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
}

export type ModelErrorCode =
  | 'model_unauthorized'
  | 'model_not_found'
  | 'model_request_invalid'
  | 'model_unavailable'
  | 'cancelled';

/** A model call that failed, named by what the operator of the agent can do about it. */
export class ModelError extends Error {
  readonly code: ModelErrorCode;
  /** The HTTP status the provider answered with, when it answered. */
  readonly status: number | undefined;

  constructor(code: ModelErrorCode, message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ModelError';
    this.code = code;
    this.status = status;
  }
}
