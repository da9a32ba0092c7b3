import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EMPTY_TRANSCRIPT,
  callSummary,
  fileOfCall,
  foldEvent,
  foldEvents,
  parseTranscriptEvent,
  prettyArguments,
  touchedFile,
  workspacePath,
  type TranscriptEvent,
  type TranscriptItem,
} from '../../src/pages/workspaces/run-transcript.js';

/** Events numbered from 1 in the order given. */
const numbered = (...entries: Record<string, unknown>[]): TranscriptEvent[] =>
  entries.map((e, i) => ({ ...e, seq: i + 1 }) as TranscriptEvent);

const write = { file_path: 'notes/plan.md', content: 'Write the tests.' };

describe('parseTranscriptEvent', () => {
  const good: [string, string, string, TranscriptEvent][] = [
    [
      'a task',
      '1',
      '{"seq":1,"type":"task","text":"Say hi"}',
      { seq: 1, type: 'task', text: 'Say hi' },
    ],
    ['a delta', '2', '{"seq":2,"type":"text","delta":"Hi"}', { seq: 2, type: 'text', delta: 'Hi' }],
    [
      'a tool call',
      '3',
      '{"seq":3,"type":"tool_call","id":"c1","name":"Bash","arguments":{"command":"ls"}}',
      { seq: 3, type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'ls' } },
    ],
    [
      'a tool result',
      '4',
      '{"seq":4,"type":"tool_result","id":"c1","text":"a\\nb","isError":false,"truncated":true}',
      { seq: 4, type: 'tool_result', id: 'c1', text: 'a\nb', isError: false, truncated: true },
    ],
    [
      'usage',
      '5',
      '{"seq":5,"type":"usage","input":10,"output":2,"usd":0.0001}',
      { seq: 5, type: 'usage', input: 10, output: 2, usd: 0.0001 },
    ],
    [
      'a failed outcome',
      '6',
      '{"seq":6,"type":"outcome","status":"failed","reason":"bad key","code":"model_unauthorized"}',
      { seq: 6, type: 'outcome', status: 'failed', reason: 'bad key', code: 'model_unauthorized' },
    ],
    [
      'an event numbered by its id only',
      '7',
      '{"type":"outcome","status":"completed"}',
      { seq: 7, type: 'outcome', status: 'completed' },
    ],
  ];
  for (const [name, id, data, want] of good) {
    it(`reads ${name}`, () => assert.deepEqual(parseTranscriptEvent(id, data), want));
  }
  const bad: [string, string, string][] = [
    ['not JSON', '1', 'hello'],
    ['an array', '1', '[1]'],
    ['no number at all', '', '{"type":"task","text":"x"}'],
    ['number 0', '0', '{"seq":0,"type":"task","text":"x"}'],
    ['an unknown type', '1', '{"seq":1,"type":"thinking","text":"x"}'],
    ['a task without text', '1', '{"seq":1,"type":"task"}'],
    ['a call without a name', '1', '{"seq":1,"type":"tool_call","id":"c"}'],
    ['negative usage', '1', '{"seq":1,"type":"usage","input":-1,"output":0,"usd":0}'],
    ['an unknown outcome', '1', '{"seq":1,"type":"outcome","status":"exploded"}'],
  ];
  for (const [name, id, data] of bad) {
    it(`refuses ${name}`, () => assert.equal(parseTranscriptEvent(id, data), undefined));
  }
});

describe('foldEvent', () => {
  it('concatenates deltas into one block until a tool call, then starts another', () => {
    const view = foldEvents(
      numbered(
        { type: 'task', text: 'Plan' },
        { type: 'text', delta: 'I will ' },
        { type: 'text', delta: 'write\nit.' },
        { type: 'tool_call', id: 'c1', name: 'Write', arguments: write },
        {
          type: 'tool_result',
          id: 'c1',
          text: 'Wrote notes/plan.md',
          isError: false,
          truncated: false,
        },
        { type: 'text', delta: 'Done.' },
      ),
    );
    assert.equal(view.task, 'Plan');
    assert.equal(view.lastSeq, 6);
    assert.deepEqual(view.items, [
      { kind: 'text', seq: 2, text: 'I will write\nit.', cut: false },
      {
        kind: 'tool',
        seq: 4,
        id: 'c1',
        name: 'Write',
        arguments: write,
        result: { text: 'Wrote notes/plan.md', isError: false, truncated: false },
      },
      { kind: 'text', seq: 6, text: 'Done.', cut: false },
    ]);
  });

  it('leaves the view as it is for an event it has (a replay after reconnecting)', () => {
    const view = foldEvents(numbered({ type: 'task', text: 'T' }, { type: 'text', delta: 'a' }));
    assert.equal(foldEvent(view, { seq: 2, type: 'text', delta: 'a' }), view);
    assert.equal(foldEvent(view, { seq: 1, type: 'task', text: 'T' }), view);
    assert.equal(foldEvent(view, { seq: 3, type: 'text', delta: 'b' }).items.length, 1);
  });

  it('sums usage over model calls', () => {
    const view = foldEvents(
      numbered(
        { type: 'usage', input: 100, output: 20, usd: 0.001 },
        { type: 'usage', input: 150, output: 30, usd: 0.002 },
      ),
    );
    assert.equal(view.usage.input, 250);
    assert.equal(view.usage.output, 50);
    assert.equal(view.usage.calls, 2);
    assert.ok(Math.abs(view.usage.usd - 0.003) < 1e-12);
  });

  it('gives each result to the latest call of its id still waiting', () => {
    const view = foldEvents(
      numbered(
        { type: 'tool_call', id: 'x', name: 'Bash', arguments: { command: 'one' } },
        { type: 'tool_result', id: 'x', text: '1', isError: false, truncated: false },
        { type: 'tool_call', id: 'x', name: 'Bash', arguments: { command: 'two' } },
        { type: 'tool_call', id: 'y', name: 'LS', arguments: {} },
        { type: 'tool_result', id: 'x', text: '2', isError: true, truncated: false },
      ),
    );
    const results = view.items.map((i) => (i.kind === 'tool' ? (i.result?.text ?? null) : 'text'));
    assert.deepEqual(results, ['1', '2', null]);
  });

  it('shows a result whose call it never saw', () => {
    const view = foldEvents(
      numbered({ type: 'tool_result', id: 'z', text: 'late', isError: false, truncated: false }),
    );
    assert.equal(view.items.length, 1);
    assert.deepEqual(view.items[0], {
      kind: 'tool',
      seq: 1,
      id: 'z',
      name: '',
      arguments: undefined,
      result: { text: 'late', isError: false, truncated: false },
    });
  });

  it('keeps the outcome with its reason and code', () => {
    const view = foldEvents(
      numbered({ type: 'outcome', status: 'blocked', reason: 'budget exceeded' }),
    );
    assert.deepEqual(view.outcome, { status: 'blocked', reason: 'budget exceeded' });
  });

  it('keeps the latest items past the bound, counting those dropped', () => {
    const limits = { maxItems: 2, maxTextChars: 100 };
    let view = EMPTY_TRANSCRIPT;
    for (const [i, name] of ['A', 'B', 'C'].entries()) {
      view = foldEvent(
        view,
        { seq: i + 1, type: 'tool_call', id: name, name, arguments: {} },
        limits,
      );
    }
    assert.deepEqual(
      view.items.map((i) => (i.kind === 'tool' ? i.name : '')),
      ['B', 'C'],
    );
    assert.equal(view.omitted, 1);
  });

  it('cuts a text block past its bound and says so', () => {
    const limits = { maxItems: 10, maxTextChars: 5 };
    let view = foldEvent(EMPTY_TRANSCRIPT, { seq: 1, type: 'text', delta: 'abc' }, limits);
    assert.deepEqual(view.items[0], { kind: 'text', seq: 1, text: 'abc', cut: false });
    view = foldEvent(view, { seq: 2, type: 'text', delta: 'defg' }, limits);
    assert.deepEqual(view.items[0], { kind: 'text', seq: 1, text: 'abcde', cut: true });
    view = foldEvent(view, { seq: 3, type: 'text', delta: 'h' }, limits);
    assert.deepEqual(view.items[0], { kind: 'text', seq: 1, text: 'abcde', cut: true });
    const long = foldEvent(EMPTY_TRANSCRIPT, { seq: 1, type: 'text', delta: 'abcdefgh' }, limits);
    assert.deepEqual(long.items[0], { kind: 'text', seq: 1, text: 'abcde', cut: true });
  });
});

describe('workspacePath', () => {
  const cases: [string, string | null][] = [
    ['src/a.ts', 'src/a.ts'],
    ['./src/a.ts', 'src/a.ts'],
    ['/workspace/src/a.ts', 'src/a.ts'],
    ['src//a.ts', 'src/a.ts'],
    ['/workspace', null],
    ['/etc/passwd', null],
    ['/workspaces/a', null],
    ['../a', null],
    ['src/../../a', null],
    ['', null],
    ['.', null],
  ];
  for (const [path, want] of cases) {
    it(`${JSON.stringify(path)} → ${String(want)}`, () => assert.equal(workspacePath(path), want));
  }
});

describe('fileOfCall and touchedFile', () => {
  it('names the file of Read, Write and Edit', () => {
    assert.equal(fileOfCall('Read', { file_path: 'a.md' }), 'a.md');
    assert.equal(fileOfCall('Write', write), 'notes/plan.md');
    assert.equal(fileOfCall('Edit', { file_path: '/workspace/b.ts', old_string: 'x' }), 'b.ts');
  });
  it('names none for other tools or unusable arguments', () => {
    assert.equal(fileOfCall('Bash', { command: 'cat a.md' }), null);
    assert.equal(fileOfCall('LS', { path: 'src' }), null);
    assert.equal(fileOfCall('Write', { path: 'a.md' }), null);
    assert.equal(fileOfCall('Write', 'a.md'), null);
    assert.equal(fileOfCall('Read', { file_path: 42 }), null);
  });
  const call = (result: { isError: boolean } | null): TranscriptItem => ({
    kind: 'tool',
    seq: 1,
    id: 'c',
    name: 'Write',
    arguments: write,
    result: result === null ? null : { text: '', truncated: false, ...result },
  });
  it('links a file once the call succeeded, not before, not after a failure', () => {
    assert.equal(touchedFile(call({ isError: false })), 'notes/plan.md');
    assert.equal(touchedFile(call(null)), null);
    assert.equal(touchedFile(call({ isError: true })), null);
    assert.equal(touchedFile({ kind: 'text', seq: 1, text: 'notes/plan.md', cut: false }), null);
  });
});

describe('callSummary', () => {
  const cases: [string, string, unknown, string][] = [
    ['the path of a file tool', 'Write', write, 'notes/plan.md'],
    [
      'the command of Bash, on one line',
      'Bash',
      { command: 'cd src &&\n  npm test' },
      'cd src && npm test',
    ],
    ['the pattern of Grep', 'Grep', { pattern: 'TODO', path: 'src' }, 'TODO'],
    ['compact JSON for another tool', 'search', { q: 'cats', n: 3 }, '{"q":"cats","n":3}'],
    ['nothing for no arguments', 'BashOutput', {}, ''],
    ['nothing for absent arguments', 'X', undefined, ''],
  ];
  for (const [name, tool, args, want] of cases) {
    it(name, () => assert.equal(callSummary(tool, args), want));
  }
  it('cuts a long summary with an ellipsis', () => {
    const summary = callSummary('Bash', { command: 'x'.repeat(200) }, 10);
    assert.equal(summary, `${'x'.repeat(9)}…`);
  });
});

describe('prettyArguments', () => {
  it('indents JSON and says when there are none', () => {
    assert.equal(prettyArguments({ a: 1 }), '{\n  "a": 1\n}');
    assert.equal(prettyArguments(undefined), '(no arguments)');
  });
});
