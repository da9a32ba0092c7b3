import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { parseCommandLine } from '@paddock/forward';
import { targetFlags } from './support/target-flags.js';

const none = targetFlags();
const target = targetFlags({ url: 'http://h/' });
const noPreparation = { registerKey: undefined, knownHosts: undefined };

describe('the paddock-forward command line', () => {
  it('reads the three modes with their target', () => {
    assert.deepEqual(parseCommandLine(['--ssh', '--url', 'http://h/']), {
      kind: 'ssh',
      target,
      prepare: noPreparation,
    });
    assert.deepEqual(parseCommandLine(['--port', '5432', '--url=http://h/']), {
      kind: 'port',
      target,
      remotePort: 5432,
      localPort: 5432,
      bind: '127.0.0.1',
    });
    assert.deepEqual(
      parseCommandLine([
        '--port',
        '80',
        '--local-port',
        '8080',
        '--bind',
        '0.0.0.0',
        '--url',
        'http://h/',
      ]),
      { kind: 'port', target, remotePort: 80, localPort: 8080, bind: '0.0.0.0' },
    );
    assert.deepEqual(
      parseCommandLine(['ssh-setup', 'dev', '--key-file', 'k', '--url', 'http://h/']),
      {
        kind: 'ssh-setup',
        target,
        name: 'dev',
        keyFile: 'k',
        sshConfig: undefined,
      },
    );
  });

  it('collects repeated --header flags and the credentials', () => {
    const command = parseCommandLine([
      '--ssh',
      '--header',
      'X-Forwarded-Sub: alice',
      '--header',
      'X-Forwarded-User: Alice',
      '--token',
      't',
      '--cookie',
      'c=1',
      '--credentials-file',
      'f.json',
    ]);
    assert.deepEqual(command, {
      kind: 'ssh',
      target: {
        ...none,
        token: 't',
        cookie: 'c=1',
        headers: ['X-Forwarded-Sub: alice', 'X-Forwarded-User: Alice'],
        credentialsFile: 'f.json',
      },
      prepare: noPreparation,
    });
  });

  it('reads the dashboard target and what --ssh prepares', () => {
    const command = parseCommandLine([
      '--ssh',
      '--dashboard',
      'https://paddock.example/',
      '--workspace',
      'team',
      '--agent',
      'coder',
      '--replica',
      '2',
      '--api-key',
      'pk_1',
      '--register-key',
      '/k.pub',
      '--known-hosts',
      '/kh',
      '--host-key-alias',
      'paddock-dev',
    ]);
    assert.deepEqual(command, {
      kind: 'ssh',
      target: {
        ...none,
        dashboard: 'https://paddock.example/',
        workspace: 'team',
        agent: 'coder',
        replica: '2',
        apiKey: 'pk_1',
      },
      prepare: { registerKey: '/k.pub', knownHosts: { file: '/kh', hostKeyAlias: 'paddock-dev' } },
    });
    assert.deepEqual(parseCommandLine(['ssh-setup', 'dev', '--agent', 'a']), {
      kind: 'ssh-setup',
      target: { ...none, agent: 'a' },
      name: 'dev',
      keyFile: undefined,
      sshConfig: undefined,
    });
  });

  it('answers --help and --version first', () => {
    assert.deepEqual(parseCommandLine(['--ssh', '--help']), { kind: 'help' });
    assert.deepEqual(parseCommandLine(['-h']), { kind: 'help' });
    assert.deepEqual(parseCommandLine(['--version']), { kind: 'version' });
  });

  const mistakes: Array<[string[], RegExp]> = [
    [[], /^choose one of --ssh, --port N or ssh-setup NAME$/],
    [['--ssh', '--port', '1'], /^choose one of/],
    [['connect'], /^unknown command "connect"$/],
    [['--port', '0'], /^--port must be a port number from 1 to 65535, not "0"$/],
    [['--port', '70000'], /^--port must be a port number/],
    [['--port', '22', '--local-port', 'x'], /^--local-port must be a port number/],
    [['--port'], /argument missing/],
    [['--ssh', '--bind', '0.0.0.0'], /^--bind only goes with --port$/],
    [['--port', '1', '--key-file', 'k'], /^--key-file only goes with ssh-setup$/],
    [['ssh-setup'], /^ssh-setup needs a NAME/],
    [['ssh-setup', 'a b'], /^invalid NAME "a b"/],
    [['ssh-setup', '-x'], /Unknown option '-x'/],
    [['ssh-setup', 'dev', 'extra'], /^unexpected argument "extra"$/],
    [['--ssh', 'extra'], /^unexpected argument "extra"$/],
    [['--bogus'], /Unknown option '--bogus'/],
    [['--port', '1', '--register-key', 'k'], /^--register-key only goes with --ssh$/],
    [['ssh-setup', 'dev', '--known-hosts', 'f'], /^--known-hosts only goes with --ssh$/],
    [['--ssh', '--known-hosts', 'f'], /^--known-hosts and --host-key-alias go together$/],
    [['--ssh', '--host-key-alias', 'a'], /^--known-hosts and --host-key-alias go together$/],
    [
      ['--ssh', '--known-hosts', 'f', '--host-key-alias', 'a b'],
      /^invalid --host-key-alias "a b"$/,
    ],
  ];
  for (const [argv, message] of mistakes) {
    it(`refuses ${JSON.stringify(argv)}`, () => {
      assert.throws(
        () => parseCommandLine(argv),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
      );
    });
  }
});
