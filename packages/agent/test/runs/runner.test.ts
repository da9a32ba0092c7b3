import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startScriptedOpenAI, tempDir, type ScriptedTurn } from '@paddock/testing';
import { openAIChatClient } from '../../src/providers/openai-chat.js';
import { connectSandboxTools } from '../../src/sandbox-tools.js';
import { RunStore, type RunSummary } from '../../src/runs/run-store.js';
import { AgentError, Runner, type RunSettings } from '../../src/runs/runner.js';
import type { TranscriptEvent } from '../../src/transcript.js';
import { startSandbox, type RunningSandbox } from '../support/sandbox.js';

const LIMITS = { maxTurns: 10, maxTokens: 100_000, maxWallMs: 600_000 };

/** A runner over a scripted model and the real sandbox, its store in a fresh folder. */
async function runnerFor(
  sandbox: RunningSandbox,
  turns: ScriptedTurn[],
  overrides: { settings?: () => RunSettings; blocked?: () => string | undefined } = {},
) {
  const model = await startScriptedOpenAI(turns);
  const dir = await tempDir('paddock-runner-');
  const store = await RunStore.open(dir.path);
  const spent: number[] = [];
  const errors: unknown[] = [];
  const runner = new Runner({
    store,
    client: openAIChatClient({ apiKey: 'test-key', baseURL: model.baseURL, maxRetries: 0 }),
    settings:
      overrides.settings ??
      (() => ({
        model: 'gpt-4o-mini',
        system: 'You are the sample agent.',
        prompts: [{ name: 'greet', content: 'Write a greeting to {{name}} in {{file}}.' }],
        limits: LIMITS,
        price: (usage) => usage.input * 1e-6 + usage.output * 2e-6,
      })),
    tools: () => connectSandboxTools(sandbox.mcpUrl),
    blocked: overrides.blocked ?? (() => undefined),
    now: () => Date.now(),
    onSpend: (usd) => spent.push(usd),
    onError: (_id, error) => errors.push(error),
  });
  return {
    model,
    store,
    runner,
    spent,
    errors,
    /** The run's events up to its outcome. */
    async transcript(run: RunSummary): Promise<TranscriptEvent[]> {
      const events: TranscriptEvent[] = [];
      await new Promise<void>((resolve) => {
        void store.follow(run.id, 0, (event) => {
          events.push(event);
          if (event.type === 'outcome') resolve();
        });
      });
      return events;
    },
    async close() {
      await runner.stop();
      await store.close();
      await model.close();
      await dir.remove();
    },
  };
}

describe('the runner', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.stop());

  it('plays a prompt of the pack: the file is written, the transcript and its cost recorded', async () => {
    const file = 'greeting.txt';
    const t = await runnerFor(sandbox, [
      {
        text: 'Writing it.',
        toolCalls: [{ name: 'Write', arguments: { file_path: file, content: 'Hello, Ada!\n' } }],
        usage: { input: 1000, output: 100 },
      },
      { text: 'Done.', usage: { input: 1200, output: 10 } },
    ]);
    try {
      const { run, position } = await t.runner.start({
        prompt: { name: 'greet', variables: { name: 'Ada', file } },
        startedBy: 'ada',
      });
      assert.equal(position, 0);
      assert.equal(run.task, `Write a greeting to Ada in ${file}.`);
      assert.deepEqual(run.prompt, { name: 'greet', variables: { name: 'Ada', file } });
      const events = await t.transcript(run);
      // Text streams in several deltas: each streak of them counts once here.
      const kinds = events
        .map((e) => e.type)
        .filter((k, i, all) => k !== 'text' || all[i - 1] !== 'text');
      assert.deepEqual(kinds, [
        'task',
        'text',
        'usage',
        'tool_call',
        'tool_result',
        'text',
        'usage',
        'outcome',
      ]);
      assert.deepEqual(
        events.map((e) => e.seq),
        events.map((_e, i) => i + 1),
      );
      assert.deepEqual(events.at(-1), { type: 'outcome', status: 'completed', seq: events.length });
      const result = events.find((e) => e.type === 'tool_result');
      assert.equal(result?.type === 'tool_result' && result.isError, false);
      assert.equal(await readFile(join(sandbox.workspace, file), 'utf8'), 'Hello, Ada!\n');
      const summary = t.store.get(run.id)!;
      assert.deepEqual(summary.usage.input, 2200);
      assert.deepEqual(summary.usage.output, 110);
      assert.ok(Math.abs(summary.usage.usd - (2200e-6 + 110 * 2e-6)) < 1e-12);
      assert.equal(t.spent.length, 2);
      const sent = t.model.requests[0]!.body as {
        messages: Array<{ role: string; content: unknown }>;
      };
      assert.equal(sent.messages[0]?.content, 'You are the sample agent.');
      assert.deepEqual(t.errors, []);
    } finally {
      await t.close();
    }
  });

  it('queues a run behind the one in progress, and cancels either', async () => {
    const t = await runnerFor(sandbox, [{ text: 'Thinking', hold: true }]);
    try {
      const first = await t.runner.start({ task: 'take your time' });
      const second = await t.runner.start({ task: 'then this' });
      assert.equal(second.position, 1);
      assert.deepEqual(t.runner.line, { running: first.run.id, queued: [second.run.id] });
      const waiting = await t.runner.cancel(second.run.id, 'not needed');
      assert.deepEqual(waiting.outcome, { status: 'cancelled', reason: 'not needed' });
      await t.model.waitForRequests(1);
      await t.runner.cancel(first.run.id, 'enough');
      const events = await t.transcript(first.run);
      assert.deepEqual(events.at(-1), {
        type: 'outcome',
        status: 'cancelled',
        reason: 'enough',
        seq: events.length,
      });
      await t.model.waitForDisconnect();
      await t.runner.idle();
      assert.equal(t.model.requests.length, 1, 'the cancelled waiting run never called the model');
      await assert.rejects(t.runner.cancel('no-such-run'), { code: 'not_found' });
    } finally {
      await t.close();
    }
  });

  it('refuses what it cannot run, with the reason', async () => {
    let budget: string | undefined;
    const t = await runnerFor(sandbox, [], { blocked: () => budget });
    try {
      await assert.rejects(t.runner.start({ prompt: { name: 'deploy' } }), (error) => {
        assert.ok(error instanceof AgentError);
        assert.equal(error.code, 'invalid_request');
        assert.match(error.message, /no prompt "deploy"/);
        return true;
      });
      await assert.rejects(
        t.runner.start({ prompt: { name: 'greet', variables: { name: 'x' } } }),
        {
          code: 'invalid_request',
          message: 'missing variables of greet: file',
        },
      );
      budget = 'budget exceeded: the daily budget of $1.00 is spent';
      await assert.rejects(t.runner.start({ task: 'anything' }), {
        code: 'budget_exceeded',
        message: budget,
      });
      assert.deepEqual(t.store.list(), []);
      assert.equal(t.model.requests.length, 0);
    } finally {
      await t.close();
    }
  });

  it('applies a changed PromptPack to the next run', async () => {
    let system = 'First system prompt.';
    const t = await runnerFor(sandbox, [{ text: 'one' }, { text: 'two' }], {
      settings: () => ({
        model: 'gpt-4o-mini',
        system,
        prompts: [],
        limits: LIMITS,
        price: () => 0,
      }),
    });
    try {
      await t.transcript((await t.runner.start({ task: 'a' })).run);
      system = 'Second system prompt.';
      await t.transcript((await t.runner.start({ task: 'b' })).run);
      const systems = t.model.requests.map(
        (r) => (r.body as { messages: Array<{ content: unknown }> }).messages[0]?.content,
      );
      assert.deepEqual(systems, ['First system prompt.', 'Second system prompt.']);
    } finally {
      await t.close();
    }
  });
});
