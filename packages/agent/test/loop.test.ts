// The agent loop against each provider's scripted model server and a real sandbox: the sandbox's
// tools are reached through its own MCP server, as in an agent pod.
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  eventually,
  isAlive,
  startScriptedAnthropic,
  startScriptedOpenAI,
  type RecordedRequest,
  type ScriptedModelServer,
  type ScriptedTurn,
} from '@paddock/testing';
import {
  anthropicMessagesClient,
  connectSandboxTools,
  costOf,
  openAIChatClient,
  runAgent,
  type AgentTool,
  type ModelClient,
  type RunAgentOptions,
  type RunResult,
  type TranscriptEvent,
} from '../src/index.js';
import { startSandbox, type RunningSandbox } from './support/sandbox.js';

const SYSTEM = 'You are a careful engineer. Work in the workspace with its tools.';
const LIMITS = { maxTurns: 10, maxTokens: 1_000_000, maxWallMs: 600_000 };

interface Provider {
  name: string;
  model: string;
  start(turns: ScriptedTurn[]): Promise<ScriptedModelServer>;
  client(server: ScriptedModelServer): ModelClient;
  /** Whether the provider tells the input tokens before the answer streams. */
  countsInputFirst: boolean;
  /** What the model was sent as its system prompt. */
  systemOf(body: RecordedRequest['body']): unknown;
  /** The tools offered, as name → JSON Schema. */
  toolsOf(body: RecordedRequest['body']): Map<string, unknown>;
  /** The tool calls of the model's earlier answers, as sent back to it in a request. */
  callsOf(body: RecordedRequest['body']): { id: string; name: string; arguments: unknown }[];
  /** The tool results the model was sent in a request, in order. */
  resultsOf(body: RecordedRequest['body']): { id: string; text: string; isError?: boolean }[];
}

/** The parts of the two wire formats these tests read. */
interface OpenAIBody {
  messages: {
    role: string;
    content?: unknown;
    tool_call_id?: string;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  }[];
  tools?: { function: { name: string; parameters: unknown } }[];
}
interface AnthropicBody {
  system?: unknown;
  messages: { role: string; content: unknown }[];
  tools?: { name: string; input_schema: unknown }[];
}
interface AnthropicBlock {
  type: string;
  id?: string;
  name?: string;
  input?: unknown;
  tool_use_id?: string;
  content?: unknown;
  is_error?: boolean;
}

const PROVIDERS: Provider[] = [
  {
    name: 'OpenAI Chat Completions',
    model: 'gpt-4o',
    start: startScriptedOpenAI,
    client: (server) => openAIChatClient({ apiKey: 'test-key', baseURL: server.baseURL }),
    countsInputFirst: false,
    systemOf: (body) => (body as OpenAIBody).messages.find((m) => m.role === 'system')?.content,
    toolsOf: (body) =>
      new Map(
        ((body as OpenAIBody).tools ?? []).map((t) => [t.function.name, t.function.parameters]),
      ),
    callsOf: (body) =>
      (body as OpenAIBody).messages
        .flatMap((m) => m.tool_calls ?? [])
        .map((c) => ({
          id: c.id,
          name: c.function.name,
          arguments: JSON.parse(c.function.arguments) as unknown,
        })),
    resultsOf: (body) =>
      (body as OpenAIBody).messages
        .filter((m) => m.role === 'tool')
        .map((m) => ({ id: String(m.tool_call_id), text: String(m.content) })),
  },
  {
    name: 'Anthropic Messages',
    model: 'claude-sonnet-5',
    start: startScriptedAnthropic,
    client: (server) => anthropicMessagesClient({ apiKey: 'test-key', baseURL: server.baseURL }),
    countsInputFirst: true,
    systemOf: (body) => (body as AnthropicBody).system,
    toolsOf: (body) =>
      new Map(((body as AnthropicBody).tools ?? []).map((t) => [t.name, t.input_schema])),
    callsOf: (body) =>
      (body as AnthropicBody).messages
        .filter((m) => m.role === 'assistant' && Array.isArray(m.content))
        .flatMap((m) => m.content as AnthropicBlock[])
        .filter((c) => c.type === 'tool_use')
        .map((c) => ({ id: String(c.id), name: String(c.name), arguments: c.input })),
    resultsOf: (body) =>
      (body as AnthropicBody).messages
        .filter((m) => m.role === 'user' && Array.isArray(m.content))
        .flatMap((m) => m.content as AnthropicBlock[])
        .filter((c) => c.type === 'tool_result')
        .map((c) => ({ id: String(c.tool_use_id), text: String(c.content), isError: c.is_error })),
  },
];

let sandbox: RunningSandbox;
before(async () => {
  sandbox = await startSandbox();
});
after(async () => {
  await sandbox?.stop();
});

interface Run {
  result: RunResult;
  events: TranscriptEvent[];
  server: ScriptedModelServer;
  tools: AgentTool[];
}

/** Runs the agent on `turns` against a fresh scripted server and a session with the sandbox. */
async function run(
  provider: Provider,
  turns: ScriptedTurn[],
  options: Partial<RunAgentOptions> & {
    /** Waits for something of the server's before it is closed. */
    beforeClose?: (server: ScriptedModelServer) => Promise<void>;
  } = {},
): Promise<Run> {
  const server = await provider.start(turns);
  const sandboxTools = await connectSandboxTools(sandbox.mcpUrl);
  const events: TranscriptEvent[] = [];
  const { beforeClose, ...overrides } = options;
  try {
    const result = await runAgent({
      client: provider.client(server),
      model: provider.model,
      system: SYSTEM,
      task: 'Write a script that greets, then run it.',
      tools: sandboxTools.tools,
      limits: LIMITS,
      now: () => Date.now(),
      signal: new AbortController().signal,
      price: (usage) => costOf(provider.model, usage).usd,
      ...overrides,
      onEvent: (event) => {
        events.push(event);
        overrides.onEvent?.(event);
      },
    });
    await beforeClose?.(server);
    return { result, events, server, tools: sandboxTools.tools };
  } finally {
    await sandboxTools.close();
    await server.close();
  }
}

const types = (events: TranscriptEvent[]) =>
  events.map((e) => e.type).filter((type, i, all) => type !== 'text' || all[i - 1] !== 'text');

function ofType<T extends TranscriptEvent['type']>(events: TranscriptEvent[], type: T) {
  return events.filter((e): e is Extract<TranscriptEvent, { type: T }> => e.type === type);
}

for (const provider of PROVIDERS) {
  const slug = provider.model;

  describe(`the agent loop with ${provider.name}`, () => {
    it('writes a script with Write, runs it with Bash and answers', async () => {
      const script = `greet-${slug}.sh`;
      const { result, events, server, tools } = await run(provider, [
        {
          text: 'I will write the script first.',
          toolCalls: [
            {
              id: 'call_write',
              name: 'Write',
              arguments: { file_path: script, content: 'echo "hello from the script"\n' },
            },
          ],
          usage: { input: 1_000, output: 100 },
        },
        {
          toolCalls: [{ id: 'call_bash', name: 'Bash', arguments: { command: `bash ${script}` } }],
          usage: { input: 2_000, output: 50 },
        },
        { text: 'The script greets: hello from the script.', usage: { input: 3_000, output: 20 } },
      ]);

      assert.deepEqual(result.outcome, { status: 'completed' });
      assert.equal(
        await readFile(join(sandbox.workspace, script), 'utf8'),
        'echo "hello from the script"\n',
      );
      assert.deepEqual(types(events), [
        'task',
        'text',
        'usage',
        'tool_call',
        'tool_result',
        'usage',
        'tool_call',
        'tool_result',
        'text',
        'usage',
        'outcome',
      ]);
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_, i) => i + 1),
      );
      assert.deepEqual(JSON.parse(JSON.stringify(events)), events, 'JSON-serialisable');
      const text = ofType(events, 'text')
        .map((e) => e.delta)
        .join('');
      assert.equal(text, 'I will write the script first.The script greets: hello from the script.');

      const [write, bash] = ofType(events, 'tool_call');
      assert.deepEqual(write, {
        type: 'tool_call',
        seq: write!.seq,
        id: 'call_write',
        name: 'Write',
        arguments: { file_path: script, content: 'echo "hello from the script"\n' },
      });
      assert.deepEqual(bash?.arguments, { command: `bash ${script}` });
      const [written, ran] = ofType(events, 'tool_result');
      assert.equal(written?.id, 'call_write');
      assert.equal(written?.isError, false);
      assert.match(written?.text ?? '', /Wrote \d+ bytes/);
      assert.equal(ran?.id, 'call_bash');
      assert.equal(ran?.isError, false);
      assert.match(ran?.text ?? '', /hello from the script/);
      assert.equal(ran?.truncated, false);

      const usages = ofType(events, 'usage');
      assert.deepEqual(
        usages.map((u) => [u.input, u.output]),
        [
          [1_000, 100],
          [2_000, 50],
          [3_000, 20],
        ],
      );
      const usd = costOf(provider.model, { input: 6_000, output: 170 }).usd;
      assert.ok(usd > 0);
      assert.deepEqual(
        { ...result.totals, usd: undefined },
        { input: 6_000, output: 170, turns: 3, usd: undefined },
      );
      assert.ok(Math.abs(result.totals.usd - usd) < 1e-12);
      assert.ok(Math.abs(usages.reduce((sum, u) => sum + u.usd, 0) - usd) < 1e-12);

      assert.equal(server.requests.length, 3);
      for (const request of server.requests) {
        assert.equal(provider.systemOf(request.body), SYSTEM);
        const offered = provider.toolsOf(request.body);
        assert.deepEqual(
          [...offered.keys()],
          tools.map((t) => t.name),
        );
        assert.ok(offered.has('Write') && offered.has('Bash'));
        for (const tool of tools) assert.deepEqual(offered.get(tool.name), tool.inputSchema);
      }
      assert.deepEqual(provider.callsOf(server.requests[1]!.body), [
        {
          id: 'call_write',
          name: 'Write',
          arguments: { file_path: script, content: 'echo "hello from the script"\n' },
        },
      ]);
      const results = provider.resultsOf(server.requests[2]!.body);
      assert.deepEqual(
        results.map((r) => [r.id, r.text]),
        [
          ['call_write', written?.text],
          ['call_bash', ran?.text],
        ],
      );
    });

    it('stops the model stream when cancelled mid-stream', async () => {
      const controller = new AbortController();
      let disconnected = false;
      const { result, events } = await run(
        provider,
        [{ text: 'Let me think about this at considerable length first.', hold: true }],
        {
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type === 'text') controller.abort();
          },
          // The server sees the client go while its held stream has not ended.
          beforeClose: async (server) => {
            await server.waitForDisconnect();
            disconnected = true;
          },
        },
      );
      assert.equal(result.outcome.status, 'cancelled');
      assert.ok(disconnected);
      if (provider.countsInputFirst) {
        // The input was counted before the answer began: the cancelled call still costs it.
        assert.deepEqual(types(events), ['task', 'text', 'usage', 'outcome']);
        const [usage] = ofType(events, 'usage');
        assert.ok((usage?.input ?? 0) > 0 && (usage?.usd ?? 0) > 0);
        assert.equal(result.totals.input, usage?.input);
      } else {
        assert.deepEqual(types(events), ['task', 'text', 'outcome']);
      }
    });

    it('stops the tool in flight when cancelled', async () => {
      const controller = new AbortController();
      const pidFile = join(sandbox.workspace, `sleeper-${slug}.pid`);
      let pid: number | undefined;
      let stopped = false;
      const { result, events } = await run(
        provider,
        [
          {
            toolCalls: [
              { name: 'Bash', arguments: { command: `echo $$ > sleeper-${slug}.pid; sleep 600` } },
            ],
          },
        ],
        {
          signal: controller.signal,
          onEvent: (event) => {
            if (event.type !== 'tool_call') return;
            void eventually('the command to start', async () => {
              const text = await readFile(pidFile, 'utf8').catch(() => '');
              return text.trim() === '' ? undefined : Number(text);
            }).then(
              (started) => {
                pid = started;
                controller.abort();
              },
              () => controller.abort(),
            );
          },
          // Checked while the MCP session is still open: the cancellation itself stopped it.
          beforeClose: async () => {
            if (pid === undefined) return;
            await eventually('the command to be stopped', async () =>
              (await isAlive(pid!)) ? undefined : true,
            );
            stopped = true;
          },
        },
      );
      assert.equal(result.outcome.status, 'cancelled');
      assert.deepEqual(types(events), ['task', 'usage', 'tool_call', 'outcome']);
      assert.ok(pid !== undefined, 'the command started');
      assert.ok(stopped);
    });

    it('retries a 429, honouring Retry-After, then goes on', async () => {
      const startedAt = Date.now();
      const { result, server } = await run(provider, [
        { error: { status: 429, message: 'slow down', retryAfterSeconds: 1 } },
        { text: 'Done.' },
      ]);
      assert.deepEqual(result.outcome, { status: 'completed' });
      assert.equal(server.requests.length, 2);
      assert.equal(server.remaining(), 0);
      // The SDK's own backoff without Retry-After is well under a second.
      assert.ok(Date.now() - startedAt >= 1_000, 'waited as Retry-After asked');
    });

    it('ends with outcome limit when maxTurns is reached', async () => {
      const { result, events, server } = await run(
        provider,
        [
          { toolCalls: [{ name: 'Bash', arguments: { command: 'echo one' } }] },
          { text: 'never asked for' },
        ],
        { limits: { ...LIMITS, maxTurns: 1 } },
      );
      assert.equal(result.outcome.status, 'limit');
      assert.match(result.outcome.reason ?? '', /maxTurns/);
      assert.equal(result.totals.turns, 1);
      assert.equal(server.requests.length, 1);
      assert.equal(server.remaining(), 1);
      assert.deepEqual(types(events), ['task', 'usage', 'tool_call', 'tool_result', 'outcome']);
    });

    it('ends with outcome limit when maxTokens is reached', async () => {
      const { result, server } = await run(
        provider,
        [
          {
            toolCalls: [{ name: 'Bash', arguments: { command: 'echo one' } }],
            usage: { input: 600, output: 400 },
          },
          { text: 'never asked for' },
        ],
        { limits: { ...LIMITS, maxTokens: 1_000 } },
      );
      assert.deepEqual(result.outcome, {
        status: 'limit',
        reason: 'maxTokens reached (1000 of 1000)',
      });
      assert.equal(server.requests.length, 1);
    });

    it('ends with outcome limit when the wall time is spent', async () => {
      let clock = 0;
      const { result, server } = await run(
        provider,
        [
          { toolCalls: [{ name: 'Bash', arguments: { command: 'echo one' } }] },
          { text: 'never asked for' },
        ],
        {
          limits: { ...LIMITS, maxWallMs: 60_000 },
          now: () => clock,
          onEvent: (event) => {
            if (event.type === 'tool_result') clock += 60_000;
          },
        },
      );
      assert.equal(result.outcome.status, 'limit');
      assert.match(result.outcome.reason ?? '', /maxWallMs/);
      assert.equal(server.requests.length, 1);
    });

    it('ends with outcome blocked when beforeModelCall gives a reason', async () => {
      let calls = 0;
      const { result, events, server } = await run(
        provider,
        [
          { toolCalls: [{ name: 'Bash', arguments: { command: 'echo one' } }] },
          { text: 'never asked for' },
        ],
        { beforeModelCall: () => (++calls > 1 ? 'budget exceeded' : undefined) },
      );
      assert.deepEqual(result.outcome, { status: 'blocked', reason: 'budget exceeded' });
      assert.deepEqual(events.at(-1), {
        type: 'outcome',
        status: 'blocked',
        reason: 'budget exceeded',
        seq: events.length,
      });
      assert.equal(server.requests.length, 1);
    });

    it('cuts a long tool result for the model, with the marker', async () => {
      const { result, events, server } = await run(
        provider,
        [
          { toolCalls: [{ id: 'call_seq', name: 'Bash', arguments: { command: 'seq 1 3000' } }] },
          { text: 'Counted.' },
        ],
        { maxToolResultChars: 1_000 },
      );
      assert.deepEqual(result.outcome, { status: 'completed' });
      const [cut] = ofType(events, 'tool_result');
      assert.equal(cut?.truncated, true);
      assert.ok((cut?.text.length ?? Infinity) <= 1_000);
      assert.match(cut?.text ?? '', /\[\.\.\. \d+ of \d+ characters left out here \.\.\.\]/);
      assert.match(cut?.text ?? '', /^1\n2\n3\n/);
      assert.match(cut?.text ?? '', /2999\n3000/);
      const [sent] = provider.resultsOf(server.requests[1]!.body);
      assert.equal(sent?.text, cut?.text);
    });

    it('answers an unknown tool with an error result and goes on', async () => {
      const { result, events, server } = await run(provider, [
        { toolCalls: [{ id: 'call_deploy', name: 'Deploy', arguments: { target: 'prod' } }] },
        { text: 'There is no Deploy tool.' },
      ]);
      assert.deepEqual(result.outcome, { status: 'completed' });
      const [answer] = ofType(events, 'tool_result');
      assert.equal(answer?.isError, true);
      assert.match(answer?.text ?? '', /Unknown tool "Deploy"\. The tools are: .*Write.*Bash/);
      const [sent] = provider.resultsOf(server.requests[1]!.body);
      assert.deepEqual(
        { id: sent?.id, text: sent?.text },
        { id: 'call_deploy', text: answer?.text },
      );
    });

    it('answers arguments that are not an object with an error result', async () => {
      const { result, events } = await run(provider, [
        { toolCalls: [{ name: 'Bash', arguments: 'ls -la' }] },
        { text: 'I will pass an object next time.' },
      ]);
      assert.deepEqual(result.outcome, { status: 'completed' });
      const [answer] = ofType(events, 'tool_result');
      assert.equal(answer?.isError, true);
      assert.match(answer?.text ?? '', /Bash was not run: the arguments must be a JSON object/);
    });

    it('scrubs the arguments shown in the transcript, not those the tool gets', async () => {
      const file = `scrubbed-${slug}.txt`;
      const { events } = await run(
        provider,
        [
          { toolCalls: [{ name: 'Write', arguments: { file_path: file, content: 'token-123' } }] },
          { text: 'Written.' },
        ],
        {
          scrub: (value) =>
            JSON.parse(JSON.stringify(value).replaceAll('token-123', '[REDACTED]')) as unknown,
        },
      );
      const [call] = ofType(events, 'tool_call');
      assert.deepEqual(call?.arguments, { file_path: file, content: '[REDACTED]' });
      assert.equal(await readFile(join(sandbox.workspace, file), 'utf8'), 'token-123');
    });

    const failures: [status: number, code: string][] = [
      [401, 'model_unauthorized'],
      [404, 'model_not_found'],
      [400, 'model_request_invalid'],
    ];
    for (const [status, code] of failures) {
      it(`ends with outcome failed, ${code}, on a ${status}`, async () => {
        const { result, events, server } = await run(provider, [
          { error: { status, message: `scripted ${status}` } },
        ]);
        assert.equal(result.outcome.status, 'failed');
        assert.equal(result.outcome.code, code);
        assert.match(result.outcome.reason ?? '', new RegExp(`scripted ${status}`));
        assert.deepEqual(types(events), ['task', 'outcome']);
        assert.equal(server.requests.length, 1, 'not retried');
      });
    }
  });
}

describe('connectSandboxTools', () => {
  it("lists the sandbox's tools with their schemas and calls them", async () => {
    const sandboxTools = await connectSandboxTools(sandbox.mcpUrl);
    const { tools } = sandboxTools;
    try {
      assert.deepEqual(
        tools.map((t) => t.name),
        ['Read', 'Write', 'Edit', 'LS', 'Glob', 'Grep', 'Bash', 'BashOutput', 'KillShell'],
      );
      const bash = tools.find((t) => t.name === 'Bash')!;
      assert.equal(bash.inputSchema.type, 'object');
      assert.ok(Object.keys(bash.inputSchema.properties as object).includes('command'));
      await writeFile(join(sandbox.workspace, 'listed.txt'), 'listed\n');
      const signal = new AbortController().signal;
      const read = tools.find((t) => t.name === 'Read')!;
      const found = await read.call({ file_path: 'listed.txt' }, signal);
      assert.equal(found.isError, false);
      assert.match(found.text, /listed/);
      const missing = await read.call({ file_path: 'no-such-file.txt' }, signal);
      assert.equal(missing.isError, true);
      const notObject = await read.call(['listed.txt'], signal);
      assert.deepEqual(notObject, { text: 'Read takes a JSON object of arguments', isError: true });
    } finally {
      await sandboxTools.close();
    }
  });
});

describe('runAgent', () => {
  const base = (server: ScriptedModelServer): RunAgentOptions => ({
    client: openAIChatClient({ apiKey: 'test-key', baseURL: server.baseURL }),
    model: 'gpt-4o',
    system: SYSTEM,
    task: 'Say hello.',
    tools: [],
    limits: LIMITS,
    now: () => Date.now(),
    signal: new AbortController().signal,
    onEvent: () => undefined,
    price: () => 0,
  });

  it('throws on what onEvent throws: a transcript that cannot be kept is no model failure', async () => {
    const server = await startScriptedOpenAI([{ text: 'Hello.' }]);
    try {
      const lost = new Error('the transcript store is gone');
      await assert.rejects(
        runAgent({
          ...base(server),
          onEvent: (event) => {
            if (event.type === 'text') throw lost;
          },
        }),
        (error) => error === lost,
      );
    } finally {
      await server.close();
    }
  });

  it('refuses limits that are not positive numbers', async () => {
    const server = await startScriptedOpenAI([]);
    try {
      for (const limits of [
        { ...LIMITS, maxTurns: 0 },
        { ...LIMITS, maxTokens: -1 },
        { ...LIMITS, maxWallMs: Number.NaN },
      ]) {
        await assert.rejects(runAgent({ ...base(server), limits }), RangeError);
      }
      assert.equal(server.requests.length, 0);
    } finally {
      await server.close();
    }
  });
});
