// A ModelClient over OpenAI's Chat Completions, for OpenAI and every server that speaks it (Azure
// OpenAI, vLLM, Ollama, llama.cpp's server, LiteLLM), through the official SDK.
import OpenAI from 'openai';
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type {
  ModelClient,
  ModelEvent,
  ModelMessage,
  ModelRequest,
  ModelToolCall,
  StopReason,
} from '../model.js';
import { ModelError } from '../model.js';
import { toModelError } from './model-failure.js';
import { parseToolArguments } from './tool-arguments.js';

/** Attempts after the first on 429, 5xx and dropped connections, honouring Retry-After. */
export const DEFAULT_MAX_RETRIES = 4;

export interface OpenAIChatOptions {
  apiKey: string;
  /** The API root, e.g. `http://localhost:11434/v1` for Ollama; OpenAI's own when absent. */
  baseURL?: string;
  maxRetries?: number;
}

export function openAIChatClient(options: OpenAIChatOptions): ModelClient {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
  });
  return { stream: (request, signal) => streamChat(client, request, signal) };
}

/** Chat Completions parameters for a request. */
export function chatParams(request: ModelRequest): ChatCompletionCreateParamsStreaming {
  return {
    model: request.model,
    messages: [
      { role: 'system', content: request.system },
      ...request.messages.flatMap(chatMessages),
    ],
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool) => ({
            type: 'function' as const,
            function: {
              name: tool.name,
              description: tool.description,
              parameters: tool.inputSchema,
            },
          })),
        }
      : {}),
    // max_tokens is refused by OpenAI's reasoning models; the compatible servers take this name too.
    max_completion_tokens: request.maxOutputTokens,
    stream: true,
    stream_options: { include_usage: true },
  };
}

function chatMessages(message: ModelMessage): ChatCompletionMessageParam[] {
  switch (message.role) {
    case 'user':
      return [{ role: 'user', content: message.text }];
    case 'assistant':
      return [
        {
          role: 'assistant',
          content: message.text === '' ? null : message.text,
          ...(message.toolCalls.length > 0
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: argumentText(call) },
                })),
              }
            : {}),
        },
      ];
    case 'tool':
      return message.results.map((result) => ({
        role: 'tool' as const,
        tool_call_id: result.callId,
        content: result.text,
      }));
  }
}

/** The arguments as the model wrote them: unusable ones go back as the text they were. */
function argumentText(call: ModelToolCall): string {
  if (call.invalidArguments !== undefined && typeof call.arguments === 'string') {
    return call.arguments;
  }
  return JSON.stringify(call.arguments);
}

function stopReason(finish: string | null, hasToolCalls: boolean): StopReason {
  if (hasToolCalls || finish === 'tool_calls' || finish === 'function_call') return 'tool_calls';
  if (finish === 'length') return 'max_tokens';
  return 'end';
}

interface PartialCall {
  id: string;
  name: string;
  argumentText: string;
}

async function* streamChat(
  client: OpenAI,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const calls = new Map<number, PartialCall>();
  let finish: string | null = null;
  let usage: ChatCompletionChunk['usage'] = null;
  try {
    const stream = await client.chat.completions.create(chatParams(request), { signal });
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      // One choice is asked for; some servers still number it differently, so take the first.
      const choice = chunk.choices[0];
      if (!choice) continue;
      if (choice.delta.content) yield { type: 'text', delta: choice.delta.content };
      for (const piece of choice.delta.tool_calls ?? []) {
        const call = calls.get(piece.index) ?? { id: '', name: '', argumentText: '' };
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name += piece.function.name;
        if (piece.function?.arguments) call.argumentText += piece.function.arguments;
        calls.set(piece.index, call);
      }
      if (choice.finish_reason) finish = choice.finish_reason;
    }
  } catch (error) {
    throw toModelError(error, signal);
  }
  // The SDK ends a stream quietly when it is aborted: that is a cancellation, not an answer.
  if (signal.aborted) throw new ModelError('cancelled', 'the model call was cancelled');
  const ordered = [...calls.entries()].sort(([a], [b]) => a - b);
  for (const [index, call] of ordered) {
    yield {
      type: 'tool_call',
      // Some compatible servers leave ids out; the conversation still needs one per call.
      id: call.id || `call_${index}`,
      name: call.name,
      ...parseToolArguments(call.argumentText),
    };
  }
  if (usage) {
    yield { type: 'usage', input: usage.prompt_tokens, output: usage.completion_tokens };
  }
  yield { type: 'stop', reason: stopReason(finish, calls.size > 0) };
}
