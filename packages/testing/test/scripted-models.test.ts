import { describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import {
  startScriptedAnthropic,
  startScriptedOpenAI,
  type ScriptedModelServer,
  type ScriptedTurn,
} from '../src/scripted-models.js';

const MODEL = 'scripted-model';
const SYSTEM = 'You are a careful agent.';
const TEXT = 'The file is written and the tests pass.';
const SCHEMA = {
  type: 'object',
  properties: { path: { type: 'string' }, content: { type: 'string' } },
  required: ['path', 'content'],
};
const ARGS = { path: 'notes/hello.txt', content: 'hello, "world"\nsecond line' };

async function openAIServer(t: TestContext, turns: ScriptedTurn[], maxRetries = 0) {
  const server = await startScriptedOpenAI(turns);
  t.after(() => server.close());
  return { server, client: new OpenAI({ apiKey: 'sk-test', baseURL: server.baseURL, maxRetries }) };
}

async function anthropicServer(t: TestContext, turns: ScriptedTurn[], maxRetries = 0) {
  const server = await startScriptedAnthropic(turns);
  t.after(() => server.close());
  return {
    server,
    client: new Anthropic({ apiKey: 'sk-ant-test', baseURL: server.baseURL, maxRetries }),
  };
}

const openAIMessages: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: 'Write the file.' },
];
const openAITools: OpenAI.ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'Write', description: 'Writes a file', parameters: SCHEMA },
  },
];
const anthropicRequest = {
  model: MODEL,
  max_tokens: 1024,
  system: SYSTEM,
  messages: [{ role: 'user' as const, content: 'Write the file.' }],
  tools: [
    {
      name: 'Write',
      description: 'Writes a file',
      input_schema: SCHEMA as Anthropic.Tool.InputSchema,
    },
  ],
};

function headerOf(server: ScriptedModelServer, i: number, name: string): unknown {
  return server.requests[i]?.headers[name];
}

/** Sends `body` straight to `url`, for requests no SDK would make. */
async function post(url: string, body: string | Uint8Array) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

/** A streamed answer as its server-sent events, each as its `event` name (if any) and `data`. */
async function events(url: string, body: unknown) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.headers.get('content-type'), 'text/event-stream; charset=utf-8');
  const text = await res.text();
  assert.ok(text.endsWith('\n\n'));
  return text
    .slice(0, -2)
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((l) => l.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((l) => l.startsWith('data: '))?.slice('data: '.length) ?? '';
      return { event, data };
    });
}

/** Names in order, runs of the same name folded into one `name×count`. */
function folded(names: string[]): string[] {
  const out: string[] = [];
  let count = 0;
  names.forEach((name, i) => {
    count++;
    if (names[i + 1] === name) return;
    out.push(count > 1 ? `${name}×${count}` : name);
    count = 0;
  });
  return out;
}

describe('scripted OpenAI Chat Completions server', () => {
  it('streams text in chunks that reassemble, then usage and [DONE]', async (t) => {
    const { server, client } = await openAIServer(t, [{ text: TEXT }]);
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    const pieces: string[] = [];
    const finishes: string[] = [];
    let usage: OpenAI.CompletionUsage | undefined | null;
    for await (const chunk of stream) {
      const choice = chunk.choices[0];
      if (choice?.delta.content) pieces.push(choice.delta.content);
      if (choice?.finish_reason) finishes.push(choice.finish_reason);
      if (chunk.choices.length === 0) usage = chunk.usage;
    }
    assert.ok(pieces.length > 1, `text came in ${pieces.length} chunk(s)`);
    assert.equal(pieces.join(''), TEXT);
    assert.deepEqual(finishes, ['stop']);
    // Default usage: a token per four characters of what was sent and answered.
    assert.equal(usage?.completion_tokens, Math.ceil(TEXT.length / 4));
    assert.ok((usage?.prompt_tokens ?? 0) > 0);
    assert.equal(
      usage?.total_tokens,
      (usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0),
    );
    assert.equal(server.remaining(), 0);
  });

  it('answers without streaming, with the usage the turn gives', async (t) => {
    const { client } = await openAIServer(t, [{ text: TEXT, usage: { input: 120, output: 7 } }]);
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
    });
    assert.equal(completion.model, MODEL);
    assert.match(completion.id, /^chatcmpl-/);
    assert.equal(completion.choices[0]?.message.content, TEXT);
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    assert.deepEqual(
      [completion.usage?.prompt_tokens, completion.usage?.completion_tokens],
      [120, 7],
    );
  });

  it('streams tool calls whose names and JSON arguments reassemble, after the text', async (t) => {
    const { client } = await openAIServer(t, [
      {
        text: 'Writing it.',
        toolCalls: [
          { id: 'call_given', name: 'Write', arguments: ARGS },
          { name: 'Bash', arguments: { command: 'cat notes/hello.txt' } },
        ],
      },
    ]);
    const stream = client.chat.completions.stream({
      model: MODEL,
      messages: openAIMessages,
      tools: openAITools,
    });
    let argumentPieces = 0;
    for await (const chunk of stream) {
      argumentPieces += (chunk.choices[0]?.delta.tool_calls ?? []).filter(
        (c) => c.function?.arguments,
      ).length;
    }
    const message = (await stream.finalChatCompletion()).choices[0]?.message;
    assert.equal(message?.content, 'Writing it.');
    const calls = (message?.tool_calls ?? []).map((c) => {
      assert.equal(c.type, 'function');
      return { id: c.id, name: c.function.name, args: JSON.parse(c.function.arguments) as unknown };
    });
    assert.deepEqual(calls[0], { id: 'call_given', name: 'Write', args: ARGS });
    assert.equal(calls[1]?.name, 'Bash');
    assert.deepEqual(calls[1]?.args, { command: 'cat notes/hello.txt' });
    assert.match(calls[1]?.id ?? '', /^call_/);
    assert.ok(argumentPieces > 2, `arguments came in ${argumentPieces} piece(s)`);
    assert.equal((await stream.finalChatCompletion()).choices[0]?.finish_reason, 'tool_calls');
  });

  it('answers tool calls without streaming', async (t) => {
    const { client } = await openAIServer(t, [{ toolCalls: [{ name: 'Write', arguments: ARGS }] }]);
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
      tools: openAITools,
    });
    const [call] = completion.choices[0]?.message.tool_calls ?? [];
    assert.equal(completion.choices[0]?.message.content, null);
    assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
    assert.ok(call?.type === 'function');
    assert.equal(call.function.name, 'Write');
    assert.deepEqual(JSON.parse(call.function.arguments), ARGS);
    assert.ok((completion.usage?.completion_tokens ?? 0) > 1);
  });

  it('records each request: path, headers, system prompt, tools and their schemas', async (t) => {
    const { server, client } = await openAIServer(t, [{ text: 'one' }, { text: 'two' }]);
    await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
      tools: openAITools,
    });
    await client.chat.completions.create({ model: MODEL, messages: openAIMessages, stream: true });
    await server.waitForRequests(2);
    assert.equal(server.requests.length, 2);
    const [first, second] = server.requests;
    assert.equal(first?.path, '/v1/chat/completions');
    assert.equal(first?.headers.authorization, 'Bearer sk-test');
    const body = first?.body as OpenAI.ChatCompletionCreateParams;
    assert.deepEqual(body.messages[0], { role: 'system', content: SYSTEM });
    assert.deepEqual(body.tools, openAITools);
    assert.equal((second?.body as { stream: boolean }).stream, true);
  });

  it('answers a 429 with retry-after, which the SDK honours before its retry succeeds', async (t) => {
    const { server, client } = await openAIServer(
      t,
      [{ error: { status: 429, message: 'slow down', retryAfterSeconds: 0 } }, { text: 'ok' }],
      1,
    );
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
    });
    assert.equal(completion.choices[0]?.message.content, 'ok');
    assert.equal(server.requests.length, 2);
    assert.deepEqual(
      [
        headerOf(server, 0, 'x-stainless-retry-count'),
        headerOf(server, 1, 'x-stainless-retry-count'),
      ],
      ['0', '1'],
    );
  });

  it("answers errors in OpenAI's error shape, with retry-after when given", async (t) => {
    const { server } = await openAIServer(t, [
      { error: { status: 429, message: 'slow down', retryAfterSeconds: 1 } },
    ]);
    const answer = await post(
      `${server.baseURL}/chat/completions`,
      JSON.stringify({ model: MODEL, messages: [] }),
    );
    assert.equal(answer.status, 429);
    assert.equal(answer.headers.get('retry-after'), '1');
    assert.deepEqual(answer.body, {
      error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' },
    });
  });

  it('turns a 401 into the SDK’s AuthenticationError', async (t) => {
    const { client } = await openAIServer(t, [{ error: { status: 401, message: 'bad key' } }]);
    await assert.rejects(
      client.chat.completions.create({ model: MODEL, messages: openAIMessages }),
      (err) => err instanceof OpenAI.AuthenticationError && /bad key/.test(err.message),
    );
  });

  it('holds a stream after its first chunk until release()', async (t) => {
    const { server, client } = await openAIServer(t, [{ text: TEXT, hold: true }]);
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
      stream: true,
    });
    const pieces: string[] = [];
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content;
      if (!piece) continue;
      // Only the first chunk can arrive before the release.
      if (pieces.length === 0) server.release();
      pieces.push(piece);
    }
    assert.equal(pieces.join(''), TEXT);
  });

  it('sees a client abort a held stream', async (t) => {
    const { server, client } = await openAIServer(t, [{ text: TEXT, hold: true }]);
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: MODEL, messages: openAIMessages, stream: true },
      { signal: controller.signal },
    );
    const pieces: string[] = [];
    // The SDK ends the iteration quietly when its own signal aborts it.
    for await (const chunk of stream) {
      const piece = chunk.choices[0]?.delta.content;
      if (!piece) continue;
      pieces.push(piece);
      controller.abort();
    }
    // Had the turn not held, the whole answer would have been sent before the abort: no disconnect.
    await server.waitForDisconnect();
    assert.equal(pieces.length, 1);
    assert.ok(TEXT.startsWith(pieces[0] ?? '-'));
  });

  it('answers 500 once the script has no more turns, and records that request', async (t) => {
    const { server, client } = await openAIServer(t, [{ text: 'only' }]);
    await client.chat.completions.create({ model: MODEL, messages: openAIMessages });
    await assert.rejects(
      client.chat.completions.create({ model: MODEL, messages: openAIMessages }),
      (err) => err instanceof OpenAI.InternalServerError && /no more turns/.test(err.message),
    );
    assert.equal(server.requests.length, 2);
    assert.equal(server.remaining(), 0);
  });

  it('streams on the wire as the real API: data-only events, usage: null, a usage chunk, [DONE]', async (t) => {
    const { server } = await openAIServer(t, [
      { text: TEXT, toolCalls: [{ name: 'Write', arguments: ARGS }] },
    ]);
    const sent = await events(`${server.baseURL}/chat/completions`, {
      model: MODEL,
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    assert.ok(sent.every((e) => e.event === undefined));
    assert.equal(sent.at(-1)?.data, '[DONE]');
    const chunks = sent.slice(0, -1).map((e) => JSON.parse(e.data) as OpenAI.ChatCompletionChunk);
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk' && c.id === chunks[0]?.id));
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null && c.choices.length === 1));
    const kinds = chunks.map((c) => {
      const choice = c.choices[0];
      if (!choice) return 'usage';
      if (choice.finish_reason) return `finish:${choice.finish_reason}`;
      if (choice.delta.role) return 'role';
      if (choice.delta.content) return 'content';
      return choice.delta.tool_calls?.[0]?.function?.name ? 'tool' : 'arguments';
    });
    assert.deepEqual(folded(kinds), [
      'role',
      'content×3',
      'tool',
      'arguments×3',
      'finish:tool_calls',
      'usage',
    ]);
  });

  it('lets through a held turn released before it arrived', async (t) => {
    const { server, client } = await openAIServer(t, [{ text: TEXT, hold: true }]);
    server.release();
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: openAIMessages,
    });
    assert.equal(completion.choices[0]?.message.content, TEXT);
  });

  it('refuses bodies that are not JSON, lack model or messages, or are too large', async (t) => {
    const { server } = await openAIServer(t, [{ text: 'unplayed' }]);
    const url = `${server.baseURL}/chat/completions`;
    const notJson = await post(url, '{"model":');
    assert.equal(notJson.status, 400);
    assert.equal((notJson.body as { error: { type: string } }).error.type, 'invalid_request_error');
    assert.equal((await post(url, JSON.stringify({ messages: [] }))).status, 400);
    assert.equal((await post(url, JSON.stringify({ model: MODEL }))).status, 400);
    assert.equal((await post(url, new Uint8Array(9 * 1024 * 1024).fill(32))).status, 413);
    assert.equal(server.requests.length, 4);
    assert.equal(server.requests[0]?.body, '{"model":');
    assert.equal(server.remaining(), 1);
  });
});

describe('scripted Anthropic Messages server', () => {
  it('streams text in chunks that reassemble, with usage in message_start and message_delta', async (t) => {
    const { server, client } = await anthropicServer(t, [{ text: TEXT }]);
    const stream = client.messages.stream(anthropicRequest);
    const pieces: string[] = [];
    stream.on('text', (piece) => pieces.push(piece));
    const message = await stream.finalMessage();
    assert.ok(pieces.length > 1, `text came in ${pieces.length} chunk(s)`);
    assert.equal(pieces.join(''), TEXT);
    assert.deepEqual(message.content, [{ type: 'text', text: TEXT }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.equal(message.usage.output_tokens, Math.ceil(TEXT.length / 4));
    assert.ok(message.usage.input_tokens > 0);
    assert.equal(server.remaining(), 0);
  });

  it('answers without streaming, with the usage the turn gives', async (t) => {
    const { client } = await anthropicServer(t, [{ text: TEXT, usage: { input: 120, output: 7 } }]);
    const message = await client.messages.create(anthropicRequest);
    assert.equal(message.model, MODEL);
    assert.match(message.id, /^msg_/);
    assert.deepEqual(message.content, [{ type: 'text', text: TEXT }]);
    assert.equal(message.stop_reason, 'end_turn');
    assert.deepEqual([message.usage.input_tokens, message.usage.output_tokens], [120, 7]);
  });

  it('streams tool_use blocks whose names and JSON input reassemble, after the text', async (t) => {
    const { client } = await anthropicServer(t, [
      {
        text: 'Writing it.',
        toolCalls: [
          { id: 'toolu_given', name: 'Write', arguments: ARGS },
          { name: 'Bash', arguments: { command: 'cat notes/hello.txt' } },
        ],
      },
    ]);
    const stream = client.messages.stream(anthropicRequest);
    let inputPieces = 0;
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') {
        if (event.delta.partial_json !== '') inputPieces++;
      }
    }
    const message = await stream.finalMessage();
    assert.equal(message.stop_reason, 'tool_use');
    const [text, write, bash] = message.content;
    assert.ok(text?.type === 'text' && text.text === 'Writing it.');
    assert.ok(write?.type === 'tool_use' && bash?.type === 'tool_use');
    assert.deepEqual([write.id, write.name, write.input], ['toolu_given', 'Write', ARGS]);
    assert.deepEqual([bash.name, bash.input], ['Bash', { command: 'cat notes/hello.txt' }]);
    assert.match(bash.id, /^toolu_/);
    assert.ok(inputPieces > 2, `input came in ${inputPieces} piece(s)`);
  });

  it('answers tool_use without streaming', async (t) => {
    const { client } = await anthropicServer(t, [
      { toolCalls: [{ name: 'Write', arguments: ARGS }] },
    ]);
    const message = await client.messages.create(anthropicRequest);
    assert.equal(message.stop_reason, 'tool_use');
    assert.equal(message.content.length, 1);
    const [call] = message.content;
    assert.ok(call?.type === 'tool_use');
    assert.deepEqual([call.name, call.input], ['Write', ARGS]);
    assert.ok(message.usage.output_tokens > 1);
  });

  it('records each request: path, headers, system prompt, tools and their schemas', async (t) => {
    const { server, client } = await anthropicServer(t, [{ text: 'one' }]);
    await client.messages.stream(anthropicRequest).finalMessage();
    await server.waitForRequests(1);
    const [request] = server.requests;
    assert.equal(request?.path, '/v1/messages');
    assert.equal(request?.headers.authorization, 'Bearer sk-ant-test');
    assert.ok(request?.headers['anthropic-version']);
    const body = request?.body as Anthropic.MessageCreateParams;
    assert.equal(body.system, SYSTEM);
    assert.equal(body.stream, true);
    assert.deepEqual(body.tools, anthropicRequest.tools);
  });

  it('answers a 429 with retry-after, after which the SDK’s retry succeeds', async (t) => {
    const { server, client } = await anthropicServer(
      t,
      [{ error: { status: 429, retryAfterSeconds: 0 } }, { text: 'ok' }],
      1,
    );
    const message = await client.messages.create(anthropicRequest);
    assert.deepEqual(message.content, [{ type: 'text', text: 'ok' }]);
    assert.equal(server.requests.length, 2);
    assert.deepEqual(
      [
        headerOf(server, 0, 'x-stainless-retry-count'),
        headerOf(server, 1, 'x-stainless-retry-count'),
      ],
      ['0', '1'],
    );
  });

  it("answers errors in Anthropic's error shape, with retry-after when given", async (t) => {
    const { server } = await anthropicServer(t, [
      { error: { status: 529, message: 'Overloaded', retryAfterSeconds: 1 } },
    ]);
    const answer = await post(
      `${server.baseURL}/v1/messages`,
      JSON.stringify({ model: MODEL, messages: [] }),
    );
    assert.equal(answer.status, 529);
    assert.equal(answer.headers.get('retry-after'), '1');
    const body = answer.body as { type: string; error: unknown; request_id: string };
    assert.equal(body.type, 'error');
    assert.deepEqual(body.error, { type: 'overloaded_error', message: 'Overloaded' });
    assert.equal(body.request_id, answer.headers.get('request-id'));
  });

  it('turns a 401 into the SDK’s AuthenticationError', async (t) => {
    const { client } = await anthropicServer(t, [{ error: { status: 401, message: 'bad key' } }]);
    await assert.rejects(
      client.messages.create(anthropicRequest),
      (err) => err instanceof Anthropic.AuthenticationError && /bad key/.test(err.message),
    );
  });

  it('holds a stream after its first chunk until release()', async (t) => {
    const { server, client } = await anthropicServer(t, [{ text: TEXT, hold: true }]);
    const stream = client.messages.stream(anthropicRequest);
    const pieces: string[] = [];
    stream.on('text', (piece) => {
      if (pieces.length === 0) server.release();
      pieces.push(piece);
    });
    await stream.finalMessage();
    assert.equal(pieces.join(''), TEXT);
  });

  it('sees a client abort a held stream', async (t) => {
    const { server, client } = await anthropicServer(t, [{ text: TEXT, hold: true }]);
    const controller = new AbortController();
    const stream = await client.messages.create(
      { ...anthropicRequest, stream: true },
      { signal: controller.signal },
    );
    const pieces: string[] = [];
    // This SDK ends the iteration quietly when its own signal aborts it.
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        pieces.push(event.delta.text);
        controller.abort();
      }
    }
    // Had the turn not held, the whole answer would have been sent before the abort: no disconnect.
    await server.waitForDisconnect();
    assert.equal(pieces.length, 1);
    assert.ok(TEXT.startsWith(pieces[0] ?? '-'));
  });

  it('answers 500 once the script has no more turns, and records that request', async (t) => {
    const { server, client } = await anthropicServer(t, []);
    await assert.rejects(
      client.messages.create(anthropicRequest),
      (err) => err instanceof Anthropic.InternalServerError && /no more turns/.test(err.message),
    );
    assert.equal(server.requests.length, 1);
  });

  it('streams on the wire as the real API: named events in the documented order', async (t) => {
    const { server } = await anthropicServer(t, [
      {
        text: TEXT,
        toolCalls: [{ name: 'Write', arguments: ARGS }],
        usage: { input: 9, output: 4 },
      },
    ]);
    const sent = await events(`${server.baseURL}/v1/messages`, {
      model: MODEL,
      max_tokens: 64,
      messages: [{ role: 'user', content: 'go' }],
      stream: true,
    });
    const data = sent.map((e) => JSON.parse(e.data) as Anthropic.RawMessageStreamEvent);
    assert.ok(sent.every((e, i) => e.event === data[i]?.type));
    assert.deepEqual(folded(sent.map((e) => e.event ?? '')), [
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta×3',
      'content_block_stop',
      'content_block_start',
      'content_block_delta×4',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = data[0];
    assert.ok(start?.type === 'message_start');
    assert.equal(start.message.usage.input_tokens, 9);
    const delta = data.at(-2);
    assert.ok(delta?.type === 'message_delta');
    assert.deepEqual([delta.delta.stop_reason, delta.usage.output_tokens], ['tool_use', 4]);
  });

  it('refuses bodies that are not JSON, lack model or messages, or are too large', async (t) => {
    const { server } = await anthropicServer(t, [{ text: 'unplayed' }]);
    const url = `${server.baseURL}/v1/messages`;
    const notJson = await post(url, 'not json');
    assert.equal(notJson.status, 400);
    assert.deepEqual((notJson.body as { error: unknown }).error, {
      type: 'invalid_request_error',
      message: 'the body is not valid JSON',
    });
    assert.equal((await post(url, JSON.stringify({ messages: [] }))).status, 400);
    assert.equal((await post(url, JSON.stringify({ model: MODEL }))).status, 400);
    assert.equal((await post(url, new Uint8Array(9 * 1024 * 1024).fill(32))).status, 413);
    assert.equal(server.requests.length, 4);
    assert.equal(server.remaining(), 1);
  });
});
