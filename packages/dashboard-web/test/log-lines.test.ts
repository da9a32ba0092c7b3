import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  EMPTY_BUFFER,
  LOG_LEVELS,
  appendText,
  filterLines,
  levelOf,
  linesOf,
  logFileName,
  logText,
  parseLine,
  parseLog,
  timeOf,
  type LogFilter,
  type LogLevel,
} from '../src/pages/workspaces/log-lines.js';

describe('parseLine', () => {
  const cases: {
    name: string;
    raw: string;
    want: {
      json: boolean;
      time: number | null;
      level: LogLevel | null;
      levelName: string | null;
      message: string;
      fields: [string, string][];
    };
  }[] = [
    {
      name: 'a plain line stays as it is',
      raw: 'starting the server on :7070',
      want: {
        json: false,
        time: null,
        level: null,
        levelName: null,
        message: 'starting the server on :7070',
        fields: [],
      },
    },
    {
      name: 'a pino line: numeric level, epoch milliseconds, the rest folded',
      raw: '{"level":30,"time":1764133200123,"pid":7,"hostname":"logger-0","name":"sandbox","msg":"listening","port":7070}',
      want: {
        json: true,
        time: 1764133200123,
        level: 'info',
        levelName: 'info',
        message: 'listening',
        fields: [
          ['pid', '7'],
          ['hostname', 'logger-0'],
          ['name', 'sandbox'],
          ['port', '7070'],
        ],
      },
    },
    {
      name: 'pino fatal (60) filters as error, named fatal',
      raw: '{"level":60,"time":1764133200000,"msg":"out of memory"}',
      want: {
        json: true,
        time: 1764133200000,
        level: 'error',
        levelName: 'fatal',
        message: 'out of memory',
        fields: [],
      },
    },
    {
      name: 'pino trace (10) filters as debug',
      raw: '{"level":10,"msg":"tick"}',
      want: {
        json: true,
        time: null,
        level: 'debug',
        levelName: 'trace',
        message: 'tick',
        fields: [],
      },
    },
    {
      name: 'a string level, an ISO time and `message`; nested values as JSON',
      raw: '{"timestamp":"2026-11-26T05:00:00.500Z","severity":"WARNING","message":"slow tool","tool":{"name":"search","ms":2300}}',
      want: {
        json: true,
        time: Date.UTC(2026, 10, 26, 5, 0, 0, 500),
        level: 'warn',
        levelName: 'warning',
        message: 'slow tool',
        fields: [['tool', '{"name":"search","ms":2300}']],
      },
    },
    {
      name: 'zap: epoch seconds with a fraction',
      raw: '{"level":"error","ts":1764133200.25,"msg":"failed","error":"EOF"}',
      want: {
        json: true,
        time: 1764133200250,
        level: 'error',
        levelName: 'error',
        message: 'failed',
        fields: [['error', 'EOF']],
      },
    },
    {
      name: 'an unknown level name is shown but has no filter level',
      raw: '{"level":"audit","msg":"login"}',
      want: {
        json: true,
        time: null,
        level: null,
        levelName: 'audit',
        message: 'login',
        fields: [],
      },
    },
    {
      name: 'a time that cannot be read stays among the fields',
      raw: '{"time":"yesterday","msg":"x"}',
      want: {
        json: true,
        time: null,
        level: null,
        levelName: null,
        message: 'x',
        fields: [['time', 'yesterday']],
      },
    },
    {
      name: 'JSON without a message: all else in the fields',
      raw: '{"event":"tool_call","tool":"read_file"}',
      want: {
        json: true,
        time: null,
        level: null,
        levelName: null,
        message: '',
        fields: [
          ['event', 'tool_call'],
          ['tool', 'read_file'],
        ],
      },
    },
    {
      name: 'a JSON array is a plain line',
      raw: '[1,2,3]',
      want: {
        json: false,
        time: null,
        level: null,
        levelName: null,
        message: '[1,2,3]',
        fields: [],
      },
    },
    {
      name: 'broken JSON is a plain line',
      raw: '{"level":30,"msg":"cut',
      want: {
        json: false,
        time: null,
        level: null,
        levelName: null,
        message: '{"level":30,"msg":"cut',
        fields: [],
      },
    },
    {
      name: 'braces that are not JSON are a plain line',
      raw: '{not json}',
      want: {
        json: false,
        time: null,
        level: null,
        levelName: null,
        message: '{not json}',
        fields: [],
      },
    },
  ];
  for (const { name, raw, want } of cases) {
    it(name, () => {
      const line = parseLine(raw, 4);
      assert.deepEqual(line, { id: 4, raw, ...want });
    });
  }
});

describe('levelOf', () => {
  const cases: [unknown, ReturnType<typeof levelOf>][] = [
    [10, ['debug', 'trace']],
    [20, ['debug', 'debug']],
    [30, ['info', 'info']],
    [35, ['info', '35']],
    [40, ['warn', 'warn']],
    [50, ['error', 'error']],
    [60, ['error', 'fatal']],
    ['30', ['info', 'info']],
    ['DEBUG', ['debug', 'debug']],
    ['Information', ['info', 'information']],
    ['notice', ['info', 'notice']],
    ['warn', ['warn', 'warn']],
    ['CRITICAL', ['error', 'critical']],
    ['panic', ['error', 'panic']],
    ['', [null, null]],
    [null, [null, null]],
    [true, [null, null]],
  ];
  for (const [value, want] of cases) {
    it(`${JSON.stringify(value)} → ${JSON.stringify(want)}`, () => {
      assert.deepEqual(levelOf(value), want);
    });
  }
});

describe('timeOf', () => {
  const cases: [unknown, number | null][] = [
    [1764133200123, 1764133200123],
    [1764133200, 1764133200000],
    [1764133200.5, 1764133200500],
    ['1764133200', 1764133200000],
    ['2026-11-26T05:00:00Z', Date.UTC(2026, 10, 26, 5)],
    ['not a time', null],
    ['', null],
    [null, null],
    [Number.NaN, null],
  ];
  for (const [value, want] of cases) {
    it(`${String(value)} → ${want}`, () => assert.equal(timeOf(value), want));
  }
});

describe('appendText', () => {
  it('parses complete lines and holds back the unfinished one', () => {
    let buffer = appendText(EMPTY_BUFFER, 'one\ntw');
    assert.deepEqual(
      buffer.lines.map((l) => l.raw),
      ['one'],
    );
    assert.equal(buffer.partial, 'tw');
    assert.deepEqual(
      linesOf(buffer).map((l) => [l.id, l.raw]),
      [
        [0, 'one'],
        [1, 'tw'],
      ],
    );
    buffer = appendText(buffer, 'o\r\nthree\n');
    assert.deepEqual(
      buffer.lines.map((l) => [l.id, l.raw]),
      [
        [0, 'one'],
        [1, 'two'],
        [2, 'three'],
      ],
    );
    assert.equal(buffer.partial, '');
    assert.equal(linesOf(buffer), buffer.lines);
  });

  it('leaves the buffer as it was for no text', () => {
    const buffer = appendText(EMPTY_BUFFER, 'a\n');
    assert.equal(appendText(buffer, ''), buffer);
  });

  it('keeps the newest lines, counting those dropped, ids still increasing', () => {
    let buffer = appendText(EMPTY_BUFFER, 'a\nb\nc\n', 4);
    buffer = appendText(buffer, 'd\ne\nf\n', 4);
    assert.deepEqual(
      buffer.lines.map((l) => [l.id, l.raw]),
      [
        [2, 'c'],
        [3, 'd'],
        [4, 'e'],
        [5, 'f'],
      ],
    );
    assert.equal(buffer.dropped, 2);
    // A chunk longer than the limit on its own: only its newest lines are parsed.
    buffer = appendText(buffer, 'g\nh\ni\nj\nk\nl\n', 4);
    assert.deepEqual(
      buffer.lines.map((l) => [l.id, l.raw]),
      [
        [8, 'i'],
        [9, 'j'],
        [10, 'k'],
        [11, 'l'],
      ],
    );
    assert.equal(buffer.dropped, 8);
    assert.equal(buffer.nextId, 12);
  });

  it('reads a whole log of many thousand lines keeping the last 5000', () => {
    const text = Array.from({ length: 12_000 }, (_, i) => `{"level":30,"msg":"line ${i}"}\n`);
    const buffer = parseLog(text.join(''));
    assert.equal(buffer.lines.length, 5000);
    assert.equal(buffer.lines[0]?.message, 'line 7000');
    assert.equal(buffer.lines.at(-1)?.message, 'line 11999');
    assert.equal(buffer.dropped, 7000);
  });
});

describe('filterLines', () => {
  const lines = parseLog(
    [
      'plain start',
      '{"level":20,"msg":"detail"}',
      '{"level":30,"msg":"Ready"}',
      '{"level":40,"msg":"slow"}',
      '{"level":50,"msg":"failed to read"}',
      '{"level":"audit","msg":"who"}',
    ].join('\n') + '\n',
  ).lines;
  const every = new Set(LOG_LEVELS);
  const cases: { name: string; filter: LogFilter; want: string[] }[] = [
    {
      name: 'everything',
      filter: { levels: every, other: true, text: '' },
      want: ['plain start', 'detail', 'Ready', 'slow', 'failed to read', 'who'],
    },
    {
      name: 'warnings and errors only',
      filter: { levels: new Set(['warn', 'error']), other: false, text: '' },
      want: ['slow', 'failed to read'],
    },
    {
      name: 'lines without a level only',
      filter: { levels: new Set(), other: true, text: '' },
      want: ['plain start', 'who'],
    },
    {
      name: 'text, in any case, in the raw line (field names too)',
      filter: { levels: every, other: true, text: ' READ ' },
      want: ['Ready', 'failed to read'],
    },
    {
      name: 'text and level together',
      filter: { levels: new Set(['error']), other: true, text: 'read' },
      want: ['failed to read'],
    },
    {
      name: 'the raw line, field names included',
      filter: { levels: every, other: true, text: '"level":40' },
      want: ['slow'],
    },
  ];
  for (const { name, filter, want } of cases) {
    it(name, () => {
      assert.deepEqual(
        filterLines(lines, filter).map((l) => l.message),
        want,
      );
    });
  }
  it('answers the same array when nothing is filtered', () => {
    assert.equal(filterLines(lines, { levels: every, other: true, text: '  ' }), lines);
  });
});

describe('logText and logFileName', () => {
  it('writes the lines as they came, one per line', () => {
    const { lines } = parseLog('a\n{"level":30,"msg":"b"}\n');
    assert.equal(logText(lines), 'a\n{"level":30,"msg":"b"}\n');
    assert.equal(logText([]), '');
  });
  const names: [string, string | undefined, string][] = [
    ['logger-0', 'agent', 'logger-0-agent.log'],
    ['logger-0', undefined, 'logger-0.log'],
    ['odd/pod', 'c d', 'odd_pod-c_d.log'],
  ];
  for (const [pod, container, want] of names) {
    it(`${pod} ${container} → ${want}`, () => assert.equal(logFileName(pod, container), want));
  }
});
