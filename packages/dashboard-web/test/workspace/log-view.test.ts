import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_LINES } from '../../src/pages/workspaces/log-lines.js';
import {
  TAIL_CHOICES,
  atBottom,
  clock,
  countText,
  defaultLogPod,
  fieldsLabel,
  isUnderstood,
  logContainer,
  logLabel,
  logPod,
  logQuery,
} from '../../src/pages/workspaces/log-view.js';

// A line's clock is the reader's: a zone off UTC by minutes shows that it is converted.
process.env.TZ = 'Asia/Kathmandu';

const pod = (name: string, phase: string, startedAt: string | null, containers = ['sandbox']) => ({
  name,
  phase,
  startedAt,
  containers,
});

describe('which log', () => {
  const pods = [
    pod('w-0', 'Running', '2026-11-26T08:00:00Z'),
    pod('w-1', 'Running', '2026-11-26T09:00:00Z', ['sandbox', 'proxy']),
    pod('w-2', 'Pending', '2026-11-26T10:00:00Z'),
  ];
  it('starts with the newest running pod', () => {
    assert.equal(defaultLogPod(pods)?.name, 'w-1');
  });
  it('starts with the newest pod when none runs', () => {
    const stopped = [pod('a', 'Failed', '2026-11-26T08:00:00Z'), pod('b', 'Pending', null)];
    assert.equal(defaultLogPod(stopped)?.name, 'a');
    assert.equal(defaultLogPod([]), undefined);
  });
  it('shows the pod chosen while it exists', () => {
    assert.equal(logPod(pods, 'w-2')?.name, 'w-2');
    assert.equal(logPod(pods, 'gone')?.name, 'w-1');
    assert.equal(logPod(pods, null)?.name, 'w-1');
  });
  it('shows the container chosen while the pod has it, else its first', () => {
    assert.equal(logContainer(pods[1], 'proxy'), 'proxy');
    assert.equal(logContainer(pods[1], 'gone'), 'sandbox');
    assert.equal(logContainer(pods[1], null), 'sandbox');
    assert.equal(logContainer(pod('x', 'Running', null, []), null), undefined);
    assert.equal(logContainer(undefined, 'proxy'), undefined);
  });
  it('asks for the last lines of the pod and container', () => {
    assert.equal(logQuery(500, 'w-1', 'proxy').toString(), 'tailLines=500&pod=w-1&container=proxy');
    assert.equal(logQuery(100, undefined, undefined).toString(), 'tailLines=100');
  });
  it('offers to read up to as many lines as it keeps', () => {
    assert.equal(Math.max(...TAIL_CHOICES), MAX_LINES);
  });
});

describe('countText', () => {
  const cases: [number, number, number, string][] = [
    [1, 1, 0, '1 line. The viewer keeps the newest 5,000 lines.'],
    [0, 0, 0, '0 lines. The viewer keeps the newest 5,000 lines.'],
    [1200, 1200, 0, '1,200 lines. The viewer keeps the newest 5,000 lines.'],
    [3, 1200, 0, '3 of 1,200 lines match the filter. The viewer keeps the newest 5,000 lines.'],
    [
      5000,
      5000,
      250,
      '5,000 lines. Only the newest 5,000 lines are kept: 250 older ones gave way.',
    ],
  ];
  for (const [shown, total, dropped, want] of cases) {
    it(`says ${want}`, () => assert.equal(countText(shown, total, dropped), want));
  }
});

describe('what a line shows', () => {
  const line: Parameters<typeof isUnderstood>[0] = {
    json: true,
    message: '',
    level: null,
    time: null,
  };
  const cases: [string, typeof line, boolean][] = [
    ['plain text', { ...line, json: false, message: 'hello' }, false],
    ['JSON without time, level or message', line, false],
    ['JSON with a message', { ...line, message: 'hi' }, true],
    ['JSON with a level', { ...line, level: 'info' }, true],
    ['JSON with a time', { ...line, time: 0 }, true],
  ];
  for (const [name, value, want] of cases) {
    it(`${want ? 'understands' : 'shows as written'} ${name}`, () =>
      assert.equal(isUnderstood(value), want));
  }
  it('reads a time on the reader’s clock, to the millisecond', () => {
    assert.equal(clock(Date.parse('2026-11-26T08:03:07.250Z')), '13:48:07.250');
    assert.equal(clock(Date.parse('2026-11-26T18:15:00.005Z')), '00:00:00.005');
  });
  it('labels the fields button', () => {
    assert.equal(fieldsLabel(1, false), '+1 field');
    assert.equal(fieldsLabel(3, false), '+3 fields');
    assert.equal(fieldsLabel(3, true), 'hide fields');
  });
  it('names the log by pod and container', () => {
    assert.equal(logLabel('w-0', undefined), 'Log of pod w-0');
    assert.equal(logLabel('w-0', 'proxy'), 'Log of pod w-0, container proxy');
  });
});

describe('atBottom', () => {
  const cases: [number, boolean][] = [
    [900, true],
    [880, true],
    [876, true],
    [875, false],
    [0, false],
  ];
  for (const [scrollTop, want] of cases) {
    it(`at ${scrollTop} of 1000 with 100 shown: ${want}`, () =>
      assert.equal(atBottom({ scrollHeight: 1000, scrollTop, clientHeight: 100 }), want));
  }
});
