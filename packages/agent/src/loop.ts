// The agent loop: the model thinks, asks for tools, reads their results, until it answers without
// asking, a limit or the budget stops it, or the run is cancelled. Every step is an event.
import {
  ModelError,
  type ModelClient,
  type ModelMessage,
  type ModelTool,
  type ModelToolCall,
  type ModelToolResult,
  type StopReason,
} from './model.js';
import type { TokenUsage } from './pricing.js';
import type { AgentTool, ToolResult } from './tools.js';
import {
  Interruption,
  type Outcome,
  type TranscriptEntry,
  type TranscriptEvent,
} from './transcript.js';
import { DEFAULT_MAX_TOOL_RESULT_CHARS, truncateForModel } from './truncate.js';

/** The default bound on one model answer, in tokens. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 8_192;
/** Tool calls run from one model answer; any beyond are answered as not run. */
export const MAX_TOOL_CALLS_PER_TURN = 64;

export interface AgentLimits {
  /** Model calls in the run. */
  maxTurns: number;
  /** Input and output tokens of all model calls together. */
  maxTokens: number;
  /** Wall time from the start, checked before each model call and each tool call. */
  maxWallMs: number;
}

export interface RunAgentOptions {
  client: ModelClient;
  model: string;
  system: string;
  task: string;
  tools: AgentTool[];
  limits: AgentLimits;
  /** Milliseconds on any monotonic-enough clock (injected so that tests own time). */
  now: () => number;
  /** Cancels the run: the model stream and the tool in flight are stopped. */
  signal: AbortSignal;
  /** Each transcript event, in order, as it happens. */
  onEvent: (event: TranscriptEvent) => void;
  /** The USD cost of one model call's usage. */
  price: (usage: TokenUsage) => number;
  maxToolResultChars?: number;
  maxOutputTokens?: number;
  /** Applied to tool arguments before they reach the transcript (never to what the tool gets). */
  scrub?: (value: unknown) => unknown;
  /** Asked before each model call: a reason to stop the run now (e.g. "budget exceeded"). */
  beforeModelCall?: () => string | undefined;
}

export interface RunTotals {
  input: number;
  output: number;
  usd: number;
  /** Model calls made. */
  turns: number;
}

export interface RunResult {
  outcome: Outcome;
  totals: RunTotals;
}

/**
 * Runs one task to its outcome. A failing model call, tool or limit ends the run with an outcome;
 * only an exception thrown by `onEvent` (the transcript could not be kept) is thrown on.
 */
export async function runAgent(options: RunAgentOptions): Promise<RunResult> {
  try {
    return await runLoop(options);
  } catch (error) {
    throw error instanceof TranscriptSinkFailure ? error.cause : error;
  }
}

/** An exception of `onEvent`, kept apart from the model's and the tools' failures. */
class TranscriptSinkFailure extends Error {
  constructor(cause: unknown) {
    super('onEvent failed', { cause });
  }
}

async function runLoop(options: RunAgentOptions): Promise<RunResult> {
  const { client, limits, now, signal } = options;
  checkLimits(limits);
  const maxToolResultChars = options.maxToolResultChars ?? DEFAULT_MAX_TOOL_RESULT_CHARS;
  const started = now();
  const totals: RunTotals = { input: 0, output: 0, usd: 0, turns: 0 };
  let seq = 0;
  const emit = (entry: TranscriptEntry) => {
    try {
      options.onEvent({ ...entry, seq: ++seq });
    } catch (error) {
      throw new TranscriptSinkFailure(error);
    }
  };
  const finish = (outcome: Outcome): RunResult => {
    emit({ type: 'outcome', ...outcome });
    return { outcome, totals };
  };
  const cancelled = (): RunResult =>
    finish(
      signal.reason instanceof Interruption
        ? { status: 'interrupted', reason: signal.reason.reason }
        : {
            status: 'cancelled',
            ...(typeof signal.reason === 'string' ? { reason: signal.reason } : {}),
          },
    );
  const overWallTime = (): Outcome | undefined => {
    const elapsed = now() - started;
    return elapsed >= limits.maxWallMs
      ? { status: 'limit', reason: `maxWallMs reached (${elapsed} of ${limits.maxWallMs} ms)` }
      : undefined;
  };

  const toolsByName = new Map(options.tools.map((tool) => [tool.name, tool]));
  const modelTools: ModelTool[] = options.tools.map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema,
  }));
  const messages: ModelMessage[] = [{ role: 'user', text: options.task }];
  emit({ type: 'task', text: options.task });

  for (;;) {
    if (signal.aborted) return cancelled();
    const stop = beforeModelCall(options, totals) ?? overWallTime();
    if (stop) return finish(stop);

    totals.turns += 1;
    let text = '';
    const calls: ModelToolCall[] = [];
    let usage: TokenUsage | undefined;
    let reason: StopReason = 'end';
    /** Counts the call's usage once, also when it ended early: the provider bills it. */
    const account = () => {
      const spent = usage ?? { input: 0, output: 0 };
      const usd = options.price(spent);
      totals.input += spent.input;
      totals.output += spent.output;
      totals.usd += usd;
      emit({ type: 'usage', input: spent.input, output: spent.output, usd });
    };
    try {
      const request = {
        model: options.model,
        system: options.system,
        messages,
        tools: modelTools,
        maxOutputTokens: options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
      };
      for await (const event of client.stream(request, signal)) {
        if (event.type === 'text') {
          text += event.delta;
          emit({ type: 'text', delta: event.delta });
        } else if (event.type === 'tool_call') {
          const { type: _type, ...call } = event;
          calls.push(call);
        } else if (event.type === 'usage') {
          usage = { input: event.input, output: event.output };
        } else {
          reason = event.reason;
        }
      }
    } catch (error) {
      if (error instanceof TranscriptSinkFailure) throw error;
      if (usage) account();
      if (signal.aborted) return cancelled();
      const failure =
        error instanceof ModelError
          ? error
          : new ModelError('model_unavailable', `the model call failed: ${String(error)}`);
      if (failure.code === 'cancelled') return cancelled();
      return finish({ status: 'failed', reason: failure.message, code: failure.code });
    }
    account();
    if (signal.aborted) return cancelled();
    messages.push({ role: 'assistant', text, toolCalls: calls });

    if (calls.length === 0) {
      if (reason === 'max_tokens') {
        return finish({ status: 'limit', reason: 'the answer reached the output token limit' });
      }
      return finish({ status: 'completed' });
    }

    const results: ModelToolResult[] = [];
    for (const [index, call] of calls.entries()) {
      if (signal.aborted) return cancelled();
      const overTime = overWallTime();
      if (overTime) return finish(overTime);
      const scrubbed = options.scrub ? options.scrub(call.arguments) : call.arguments;
      emit({ type: 'tool_call', id: call.id, name: call.name, arguments: scrubbed });
      const result =
        index < MAX_TOOL_CALLS_PER_TURN
          ? await runTool(toolsByName, call, signal)
          : {
              text: `Not run: at most ${MAX_TOOL_CALLS_PER_TURN} tool calls are run per answer.`,
              isError: true,
            };
      if (signal.aborted) return cancelled();
      const cut = truncateForModel(result.text, maxToolResultChars);
      emit({
        type: 'tool_result',
        id: call.id,
        text: cut.text,
        isError: result.isError,
        truncated: cut.truncated,
      });
      results.push({ callId: call.id, text: cut.text, isError: result.isError });
    }
    messages.push({ role: 'tool', results });
  }
}

/** Why the next model call must not happen: a limit, or the caller's reason (the budget). */
function beforeModelCall(options: RunAgentOptions, totals: RunTotals): Outcome | undefined {
  const { limits } = options;
  if (totals.turns >= limits.maxTurns) {
    return { status: 'limit', reason: `maxTurns reached (${limits.maxTurns})` };
  }
  const used = totals.input + totals.output;
  if (used >= limits.maxTokens) {
    return { status: 'limit', reason: `maxTokens reached (${used} of ${limits.maxTokens})` };
  }
  const blocked = options.beforeModelCall?.();
  return blocked === undefined ? undefined : { status: 'blocked', reason: blocked };
}

async function runTool(
  tools: ReadonlyMap<string, AgentTool>,
  call: ModelToolCall,
  signal: AbortSignal,
): Promise<ToolResult> {
  const tool = tools.get(call.name);
  if (!tool) {
    const known = [...tools.keys()].join(', ') || 'none';
    return { text: `Unknown tool "${call.name}". The tools are: ${known}.`, isError: true };
  }
  if (call.invalidArguments !== undefined) {
    return { text: `${call.name} was not run: ${call.invalidArguments}.`, isError: true };
  }
  try {
    return await tool.call(call.arguments, signal);
  } catch (error) {
    if (signal.aborted) return { text: `${call.name} was cancelled.`, isError: true };
    return { text: `${call.name} failed: ${(error as Error).message}`, isError: true };
  }
}

function checkLimits(limits: AgentLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isFinite(value) || value <= 0) {
      throw new RangeError(`limits.${name} must be a positive number, not ${value}`);
    }
  }
}
