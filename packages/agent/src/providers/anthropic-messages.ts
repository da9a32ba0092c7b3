// A ModelClient over Anthropic's Messages API, streaming text and tool_use blocks, through the
// official SDK.
import Anthropic from '@anthropic-ai/sdk';
import type {
  ContentBlockParam,
  MessageCreateParamsStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelClient, ModelEvent, ModelMessage, ModelRequest, StopReason } from '../model.js';
import { ModelError } from '../model.js';
import { toModelError } from './model-failure.js';
import { parseToolArguments } from './tool-arguments.js';

/** Attempts after the first on 429, 5xx and dropped connections, honouring Retry-After. */
export const DEFAULT_MAX_RETRIES = 4;

export interface AnthropicMessagesOptions {
  apiKey: string;
  /** The API root (without /v1); Anthropic's own when absent. */
  baseURL?: string;
  maxRetries?: number;
}

export function anthropicMessagesClient(options: AnthropicMessagesOptions): ModelClient {
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL,
    maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
  });
  return { stream: (request, signal) => streamMessages(client, request, signal) };
}

/** Messages API parameters for a request. */
export function messagesParams(request: ModelRequest): MessageCreateParamsStreaming {
  return {
    model: request.model,
    system: request.system,
    messages: request.messages.map(messageParam),
    ...(request.tools.length > 0
      ? {
          tools: request.tools.map((tool): Tool => ({
            name: tool.name,
            description: tool.description,
            input_schema: { type: 'object', ...tool.inputSchema },
          })),
        }
      : {}),
    max_tokens: request.maxOutputTokens,
    stream: true,
  };
}

function messageParam(message: ModelMessage): MessageParam {
  switch (message.role) {
    case 'user':
      return { role: 'user', content: message.text };
    case 'assistant': {
      const content: ContentBlockParam[] = [];
      if (message.text !== '') content.push({ type: 'text', text: message.text });
      for (const call of message.toolCalls) {
        content.push({
          type: 'tool_use',
          id: call.id,
          name: call.name,
          // tool_use input must be an object: unusable arguments go back as an empty one.
          input: call.invalidArguments === undefined ? call.arguments : {},
        });
      }
      return { role: 'assistant', content };
    }
    case 'tool':
      return {
        role: 'user',
        content: message.results.map((result) => ({
          type: 'tool_result' as const,
          tool_use_id: result.callId,
          content: result.text,
          is_error: result.isError,
        })),
      };
  }
}

function stopReason(reason: string | null, hasToolCalls: boolean): StopReason {
  if (hasToolCalls || reason === 'tool_use') return 'tool_calls';
  if (reason === 'max_tokens' || reason === 'model_context_window_exceeded') return 'max_tokens';
  return 'end';
}

interface OpenToolUse {
  id: string;
  name: string;
  json: string;
}

async function* streamMessages(
  client: Anthropic,
  request: ModelRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const open = new Map<number, OpenToolUse>();
  let toolCalls = 0;
  let reason: string | null = null;
  let input = 0;
  let output = 0;
  let sawUsage = false;
  let stopped = false;
  try {
    const stream = await client.messages.create(messagesParams(request), { signal });
    for await (const event of stream) {
      switch (event.type) {
        case 'message_start': {
          const usage = event.message.usage;
          input = totalInput(usage);
          output = usage.output_tokens;
          sawUsage = true;
          // Known before any text: a run cancelled mid-answer still counts its input.
          yield { type: 'usage', input, output };
          break;
        }
        case 'content_block_start':
          if (event.content_block.type === 'tool_use') {
            const block = event.content_block;
            open.set(event.index, { id: block.id, name: block.name, json: '' });
          } else if (event.content_block.type === 'text' && event.content_block.text) {
            yield { type: 'text', delta: event.content_block.text };
          }
          break;
        case 'content_block_delta':
          if (event.delta.type === 'text_delta') yield { type: 'text', delta: event.delta.text };
          else if (event.delta.type === 'input_json_delta') {
            const call = open.get(event.index);
            if (call) call.json += event.delta.partial_json;
          }
          break;
        case 'content_block_stop': {
          const call = open.get(event.index);
          if (call) {
            open.delete(event.index);
            toolCalls += 1;
            yield {
              type: 'tool_call',
              id: call.id,
              name: call.name,
              ...parseToolArguments(call.json),
            };
          }
          break;
        }
        case 'message_delta':
          reason = event.delta.stop_reason ?? reason;
          // The delta's counts are cumulative for the whole message.
          output = event.usage.output_tokens;
          if (event.usage.input_tokens != null) input = totalInput(event.usage);
          sawUsage = true;
          break;
        case 'message_stop':
          stopped = true;
          break;
      }
    }
  } catch (error) {
    throw toModelError(error, signal);
  }
  if (signal.aborted) throw new ModelError('cancelled', 'the model call was cancelled');
  if (!stopped) {
    throw new ModelError(
      'model_unavailable',
      'the model provider ended the stream before the message did',
    );
  }
  if (sawUsage) yield { type: 'usage', input, output };
  yield { type: 'stop', reason: stopReason(reason, toolCalls > 0) };
}

/** Input tokens, those written to and read from the prompt cache included. */
function totalInput(usage: {
  input_tokens: number | null;
  cache_creation_input_tokens: number | null;
  cache_read_input_tokens: number | null;
}): number {
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}
