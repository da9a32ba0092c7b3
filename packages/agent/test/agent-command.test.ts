import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { parseFlags } from '../src/config.js';
import { blockedReason } from '../src/runs/budget-block.js';
import { scrubStrings } from '../src/transcript-scrub.js';

describe('the command line', () => {
  const cases: [string, string[], unknown][] = [
    [
      'defaults',
      [],
      { flags: { listen: { host: '127.0.0.1', port: 7072 }, kubeconfig: undefined, dev: false } },
    ],
    [
      'all of them',
      ['--listen', '0.0.0.0:9000', '--kubeconfig', 'kc.yaml', '--dev'],
      { flags: { listen: { host: '0.0.0.0', port: 9000 }, kubeconfig: 'kc.yaml', dev: true } },
    ],
    ['help', ['-h'], { help: true }],
    ['version', ['--version'], { version: true }],
  ];
  for (const [name, argv, expected] of cases) {
    it(name, () => assert.deepEqual(parseFlags(argv), expected));
  }
  for (const [name, argv, message] of [
    ['an unknown flag', ['--nope'], /nope/],
    ['a positional', ['run'], /run/],
    ['a bad address', ['--listen', 'here'], /--listen: "here" is not an address/],
  ] as const) {
    it(`refuses ${name}`, () =>
      assert.throws(
        () => parseFlags(argv),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
      ));
  }
});

describe("the budget's verdict", () => {
  const withCondition = (status: 'True' | 'False', message?: string) => ({
    status: {
      conditions: [
        { type: 'Paused', status: 'True' as const, message: 'not this one' },
        { type: 'RunsBlocked', status, ...(message === undefined ? {} : { message }) },
      ],
    },
  });
  const cases: [string, Parameters<typeof blockedReason>[0], string | undefined][] = [
    ['no agent read yet', undefined, undefined],
    ['no status', { status: undefined }, undefined],
    ['not blocked', withCondition('False', 'Workspace a does not block runs.'), undefined],
    [
      'blocked, with why',
      withCondition('True', 'Budget exceeded: over.'),
      'Budget exceeded: over.',
    ],
    ['blocked, without why', withCondition('True'), 'Budget exceeded.'],
  ];
  for (const [name, agent, expected] of cases) {
    it(name, () => assert.equal(blockedReason(agent), expected));
  }
});

describe('tool arguments in the transcript', () => {
  const scrub = (text: string) => text.replaceAll('s3cret', '[REDACTED]');
  it('have every string scrubbed, keys included, and keep their shape', () => {
    assert.deepEqual(
      scrubStrings(
        { command: 'echo s3cret', n: 3, ok: true, none: null, list: ['a', 's3cret'], s3cret: 1 },
        scrub,
      ),
      {
        command: 'echo [REDACTED]',
        n: 3,
        ok: true,
        none: null,
        list: ['a', '[REDACTED]'],
        '[REDACTED]': 1,
      },
    );
  });
  it('are cut below a depth', () => {
    assert.deepEqual(scrubStrings({ a: { b: { c: 's3cret' } } }, scrub, 2), {
      a: { b: '[too deep]' },
    });
  });
});
