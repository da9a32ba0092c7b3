import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_TASK_CHARS,
  isCancellable,
  newestFirst,
  outcomeSentence,
  providerText,
  runCost,
  runErrorSentence,
  runLimitsText,
  runStatus,
  runsPath,
  startRunOf,
  statusTone,
  taskExcerpt,
  usageText,
  variablesOf,
  type RunStatus,
} from '../../src/pages/workspaces/run-rules.js';
import type { Run, RunOutcome } from '../../src/pages/workspaces/types.js';

const pod = { workspace: 'team a', agent: 'writer', pod: 'writer-0' };
const ID = '0b6f1c2e-8a1d-4a5e-9b7c-1d2e3f4a5b6c';

const run = (id: string, createdAt: string, outcome?: RunOutcome): Run => ({
  id,
  task: 't',
  createdAt,
  lastSeq: 0,
  usage: { input: 0, output: 0, usd: 0 },
  ...(outcome === undefined ? {} : { outcome }),
});

describe('runsPath', () => {
  it('addresses the runs of a pod, one run, its events and its cancellation', () => {
    const base = '/api/workspaces/team%20a/agents/writer/pods/writer-0/runs';
    assert.equal(runsPath(pod), base);
    assert.equal(runsPath(pod, { id: ID }), `${base}/${ID}`);
    assert.equal(runsPath(pod, { id: ID, route: 'events' }), `${base}/${ID}/events`);
    assert.equal(runsPath(pod, { id: ID, route: 'cancel' }), `${base}/${ID}/cancel`);
  });
});

describe('runStatus', () => {
  const list = { running: 'b', queued: ['c'] };
  const cases: [string, Run, RunStatus][] = [
    ['an ended run by its outcome', run('a', '', { status: 'cancelled' }), 'cancelled'],
    ['the one running', run('b', ''), 'running'],
    ['one waiting', run('c', ''), 'queued'],
    // Started a moment ago, the list not read since.
    ['one the list does not know yet as waiting', run('d', ''), 'queued'],
  ];
  for (const [name, r, want] of cases) it(name, () => assert.equal(runStatus(r, list), want));

  it('lets only unfinished runs be cancelled', () => {
    const all: RunStatus[] = ['queued', 'running', 'completed', 'failed', 'cancelled', 'limit'];
    assert.deepEqual(all.filter(isCancellable), ['queued', 'running']);
  });
  it('gives failures and blocks the alert tone', () => {
    assert.equal(statusTone('failed'), 'bad');
    assert.equal(statusTone('blocked'), 'bad');
    assert.equal(statusTone('completed'), 'ok');
    assert.equal(statusTone('interrupted'), 'warn');
  });
});

describe('newestFirst', () => {
  it('orders by time asked, newest first, ties by id', () => {
    const runs = [
      run('a', '2026-11-26T10:00:00Z'),
      run('c', '2026-11-26T12:00:00Z'),
      run('b', '2026-11-26T12:00:00Z'),
      run('d', '2026-11-26T11:00:00.500Z'),
    ];
    assert.deepEqual(
      newestFirst(runs).map((r) => r.id),
      ['c', 'b', 'd', 'a'],
    );
  });
});

describe('runCost', () => {
  const cases: [number, string][] = [
    [0, '$0.00'],
    [0.00012, '$0.0001'],
    [0.0042, '$0.0042'],
    [0.00999, '$0.0100'],
    [0.01, '$0.01'],
    [1.234, '$1.23'],
    [12, '$12.00'],
  ];
  for (const [usd, want] of cases) it(`${usd} → ${want}`, () => assert.equal(runCost(usd), want));

  it('says usage in words', () => {
    assert.equal(
      usageText({ input: 12_345, output: 678, usd: 0.0042 }),
      '12,345 tokens in, 678 out · $0.0042',
    );
  });
});

describe('taskExcerpt', () => {
  it('keeps a short task, marks a longer one', () => {
    assert.equal(taskExcerpt('Write a haiku'), 'Write a haiku');
    assert.equal(taskExcerpt('  First line\nsecond line'), 'First line …');
    assert.equal(taskExcerpt('abcdefghij', 5), 'abcd…');
  });
});

describe('variablesOf', () => {
  // The same rule as packages/agent/src/runs/task.ts: the agent fills in exactly these.
  const cases: [string, string[]][] = [
    ['Fix {{issue}} in {{ file }}', ['issue', 'file']],
    ['{{a}} and {{a}} again', ['a']],
    ['{{_x-1}} {{ y_2 }}', ['_x-1', 'y_2']],
    ['{{1a}} {{a b}} {a} {{}}', []],
    ['No variables', []],
  ];
  for (const [content, want] of cases) {
    it(JSON.stringify(content), () => assert.deepEqual(variablesOf(content), want));
  }
});

describe('startRunOf', () => {
  const prompts = [
    { name: 'review', content: 'Review {{file}} for {{concern}}.' },
    { name: 'tidy', content: 'Tidy the workspace.' },
  ];
  it('sends a free task as written', () => {
    assert.deepEqual(startRunOf({ mode: 'task', task: '  Say hi\n' }, prompts), {
      ok: true,
      value: { task: '  Say hi\n' },
    });
  });
  it('refuses an empty or over-long task', () => {
    assert.deepEqual(startRunOf({ mode: 'task', task: ' \n ' }, prompts), {
      ok: false,
      problem: 'Write the task for the agent.',
    });
    const long = startRunOf({ mode: 'task', task: 'x'.repeat(MAX_TASK_CHARS + 1) }, prompts);
    assert.equal(long.ok, false);
  });
  it('sends exactly the variables of the prompt, empty ones included', () => {
    assert.deepEqual(
      startRunOf({ mode: 'prompt', name: 'review', values: { file: 'a.ts', other: 'x' } }, prompts),
      { ok: true, value: { prompt: { name: 'review', variables: { file: 'a.ts', concern: '' } } } },
    );
  });
  it('sends no variables for a prompt without any', () => {
    assert.deepEqual(startRunOf({ mode: 'prompt', name: 'tidy', values: {} }, prompts), {
      ok: true,
      value: { prompt: { name: 'tidy' } },
    });
  });
  it('refuses a prompt the pack does not have', () => {
    assert.deepEqual(startRunOf({ mode: 'prompt', name: 'gone', values: {} }, prompts), {
      ok: false,
      problem: 'Choose a prompt of the pack.',
    });
  });
});

describe('runErrorSentence', () => {
  const cases: [string, string, string][] = [
    [
      'budget_exceeded',
      'budget exceeded: today $1.02 of a $1.00 daily budget',
      'Budget exceeded: today $1.02 of a $1.00 daily budget.',
    ],
    [
      'invalid_request',
      'missing variables of review: file',
      'The agent refused this run: missing variables of review: file.',
    ],
    [
      'queue_full',
      'at most 32 runs wait',
      'Too many runs are waiting for this pod: at most 32 runs wait. Try again once some have finished.',
    ],
    ['budget_exceeded', 'the daily budget is spent', 'Budget exceeded: the daily budget is spent.'],
    ['teapot', 'short and stout', 'Short and stout.'],
  ];
  for (const [code, message, want] of cases) {
    it(`${code}: ${message}`, () => assert.equal(runErrorSentence({ code, message }), want));
  }
});

describe('outcomeSentence', () => {
  const cases: [RunOutcome, string][] = [
    [{ status: 'completed' }, 'Completed.'],
    [
      { status: 'failed', code: 'model_unauthorized', reason: 'the key was refused' },
      'Failed (model_unauthorized): the key was refused.',
    ],
    [{ status: 'failed' }, 'Failed: the run ended with an error.'],
    [{ status: 'cancelled' }, 'Cancelled.'],
    [
      { status: 'limit', reason: 'maxTurns 50 reached' },
      'Stopped at a limit: maxTurns 50 reached.',
    ],
    [{ status: 'blocked', reason: 'budget exceeded' }, 'Blocked: budget exceeded.'],
    [
      { status: 'interrupted' },
      'Interrupted: the agent restarted during the run; nothing resumes it.',
    ],
  ];
  for (const [outcome, want] of cases) {
    it(outcome.status, () => assert.equal(outcomeSentence(outcome), want));
  }
});

describe('runLimitsText and providerText', () => {
  it('fills in the defaults of the limits left out', () => {
    assert.equal(runLimitsText(null), '50 model calls, 2,000,000 tokens and 30m per run');
    assert.equal(
      runLimitsText({ maxTurns: 1, maxWallTime: '2h' }),
      '1 model call, 2,000,000 tokens and 2h per run',
    );
  });
  it('names the provider and its model, or none', () => {
    assert.equal(
      providerText({ type: 'openai', model: 'qwen2.5-coder' }),
      'openai (qwen2.5-coder)',
    );
    assert.equal(providerText({ type: 'anthropic' }), 'anthropic');
    assert.equal(providerText(null), 'None: runs are off');
    assert.equal(providerText(undefined), 'None: runs are off');
  });
});
