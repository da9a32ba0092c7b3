import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { parseFlags } from '@paddock/sandbox';

const required = ['-addr', '127.0.0.1:7070', '-workspace', '/srv/ws'];

describe('sandbox command line', () => {
  it('applies the specification defaults', () => {
    assert.deepEqual(parseFlags(required), {
      flags: {
        addr: { host: '127.0.0.1', port: 7070 },
        apiAddr: undefined,
        enableApi: false,
        enableExec: false,
        enablePortForward: false,
        enableSsh: false,
        devMode: false,
        allowUnauthenticatedMcp: false,
        workspace: '/srv/ws',
      },
    });
  });

  it('takes one or two dashes, -flag=value and -flag value, and boolean values', () => {
    const outcome = parseFlags([
      '--addr=:7070',
      '-api-addr',
      '127.0.0.1:7071',
      '-enable-api',
      '--enable-exec=true',
      '-enable-port-forward=false',
      '-enable-ssh=1',
      '--dev-mode',
      '-workspace=/srv/ws',
    ]);
    assert.ok('flags' in outcome);
    assert.deepEqual(outcome.flags.addr, { host: '0.0.0.0', port: 7070 });
    assert.deepEqual(outcome.flags.apiAddr, { host: '127.0.0.1', port: 7071 });
    assert.equal(outcome.flags.enableApi, true);
    assert.equal(outcome.flags.enableExec, true);
    assert.equal(outcome.flags.enablePortForward, false);
    assert.equal(outcome.flags.enableSsh, true);
    assert.equal(outcome.flags.devMode, true);
  });

  it('treats an empty -api-addr as disabled', () => {
    const outcome = parseFlags([...required, '-api-addr', '']);
    assert.ok('flags' in outcome);
    assert.equal(outcome.flags.apiAddr, undefined);
  });

  it('answers -h, --help and --version before checking anything else', () => {
    assert.deepEqual(parseFlags(['-h']), { help: true });
    assert.deepEqual(parseFlags(['--help', '-bogus']), { help: true });
    assert.deepEqual(parseFlags(['--version']), { version: true });
  });

  const mistakes: Array<[string[], RegExp]> = [
    [['-workspace', '/srv/ws'], /^-addr is required$/],
    [['-addr', ':1'], /^-workspace is required$/],
    [[...required, '-bogus'], /^flag provided but not defined: -bogus$/],
    [[...required, 'extra'], /^unexpected argument "extra"$/],
    [
      ['-addr', 'nowhere', '-workspace', '/x'],
      /^invalid value for flag -addr: "nowhere" is not an address/,
    ],
    [['-addr', '1.2.3.4:99999', '-workspace', '/x'], /out of range/],
    [[...required, '-api-addr', 'x'], /^invalid value for flag -api-addr/],
    [[...required, '-dev-mode=maybe'], /^invalid boolean value "maybe" for flag -dev-mode$/],
    [[...required, '-api-addr', ':7071', '-dev-mode'], /^-dev-mode is refused with -api-addr/],
    [['-workspace', '/x', '-addr'], /^flag needs an argument: -addr$/],
  ];
  for (const [argv, message] of mistakes) {
    it(`refuses ${JSON.stringify(argv)}`, () => {
      assert.throws(
        () => parseFlags(argv),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
      );
    });
  }
});
