import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  doorPath,
  endSentence,
  parseExitMessage,
  podPath,
  socketUrl,
} from '../../src/pages/workspaces/sandbox-door.js';

const ref = { workspace: 'team a', agent: 'writer', pod: 'writer-0' };

describe('podPath', () => {
  const cases: [string, Parameters<typeof podPath>[0], string][] = [
    ['plain names', ref, '/api/workspaces/team%20a/agents/writer/pods/writer-0'],
    [
      'names that need escaping',
      { workspace: 'w', agent: 'a/b', pod: 'p?' },
      '/api/workspaces/w/agents/a%2Fb/pods/p%3F',
    ],
  ];
  for (const [name, pod, expected] of cases) {
    it(name, () => assert.equal(podPath(pod), expected));
  }
});

describe('doorPath', () => {
  const cases: [string, Parameters<typeof doorPath>, string][] = [
    [
      'a route without a query',
      [ref, 'api/download'],
      '/api/workspaces/team%20a/agents/writer/pods/writer-0/sandbox/api/download',
    ],
    [
      'a query, escaped',
      [ref, 'api/file', { path: 'src/a b&c.ts' }],
      '/api/workspaces/team%20a/agents/writer/pods/writer-0/sandbox/api/file?path=src%2Fa+b%26c.ts',
    ],
    [
      'undefined values left out',
      [ref, 'api/tree', { path: '.', depth: 1, other: undefined }],
      '/api/workspaces/team%20a/agents/writer/pods/writer-0/sandbox/api/tree?path=.&depth=1',
    ],
    [
      'names that need escaping',
      [{ workspace: 'w', agent: 'a/b', pod: 'p?' }, 'api/exec', { cols: 80, rows: 24 }],
      '/api/workspaces/w/agents/a%2Fb/pods/p%3F/sandbox/api/exec?cols=80&rows=24',
    ],
  ];
  for (const [name, args, expected] of cases) {
    it(name, () => assert.equal(doorPath(...args), expected));
  }
});

describe('socketUrl', () => {
  it('ws under http, wss under https, on the same host', () => {
    assert.equal(
      socketUrl({ protocol: 'http:', host: 'localhost:3000' }, '/x'),
      'ws://localhost:3000/x',
    );
    assert.equal(
      socketUrl({ protocol: 'https:', host: 'dash.example' }, '/x?y=1'),
      'wss://dash.example/x?y=1',
    );
  });
});

describe('parseExitMessage', () => {
  const cases: [string, string, ReturnType<typeof parseExitMessage>][] = [
    ['an exit', '{"type":"exit","code":0,"signal":null}', { code: 0, signal: null }],
    [
      'an exit by signal',
      '{"type":"exit","code":143,"signal":"SIGTERM"}',
      { code: 143, signal: 'SIGTERM' },
    ],
    ['another type', '{"type":"resize","cols":1,"rows":1}', undefined],
    ['no code', '{"type":"exit"}', undefined],
    ['not JSON', 'exit', undefined],
    ['JSON null', 'null', undefined],
  ];
  for (const [name, text, expected] of cases) {
    it(name, () => assert.deepEqual(parseExitMessage(text), expected));
  }
});

describe('endSentence', () => {
  const cases: [string, Parameters<typeof endSentence>, string][] = [
    [
      'the shell exited',
      [{ code: 3, signal: null }, { code: 1000, reason: 'shell exited with code 3' }, true],
      'The shell exited with code 3.',
    ],
    [
      'the shell was killed',
      [{ code: 143, signal: 'SIGTERM' }, { code: 1000, reason: '' }, true],
      'The shell was ended by SIGTERM (exit code 143).',
    ],
    [
      'the sandbox stops',
      [undefined, { code: 1001, reason: 'sandbox shutting down' }, true],
      'The sandbox is shutting down (sandbox shutting down): its pod is stopping or restarting.',
    ],
    [
      'the connection dropped',
      [undefined, { code: 1006, reason: '' }, true],
      'The connection to the terminal was lost (the network, the dashboard or the pod went away).',
    ],
    [
      'a server failure',
      [undefined, { code: 1011, reason: 'cannot start the shell: ENOENT' }, true],
      'The terminal closed with code 1011: cannot start the shell: ENOENT.',
    ],
    [
      'refused before opening',
      [undefined, { code: 1006, reason: '' }, false],
      'The terminal could not be opened.',
    ],
  ];
  for (const [name, args, expected] of cases) {
    it(name, () => assert.equal(endSentence(...args), expected));
  }
});
