import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '@paddock/common';
import { parseCommandLine } from '../src/command-line.js';

describe('the command line', () => {
  it('takes --listen, --data and --kubeconfig, with defaults', () => {
    assert.deepEqual(parseCommandLine([]), {
      flags: { listen: { host: '127.0.0.1', port: 6443 } },
    });
    assert.deepEqual(parseCommandLine(['--listen=:0', '--data', 'd', '--kubeconfig', 'k']), {
      flags: { listen: { host: '0.0.0.0', port: 0 }, dataDir: 'd', kubeconfigPath: 'k' },
    });
    assert.deepEqual(parseCommandLine(['--help']), { help: true });
    assert.deepEqual(parseCommandLine(['--version']), { version: true });
  });

  it('refuses mistakes as usage errors', () => {
    for (const argv of [
      ['--data'],
      ['--listen', 'nowhere'],
      ['extra'],
      ['--port', '1'],
      ['--data='],
    ]) {
      assert.throws(() => parseCommandLine(argv), UsageError, argv.join(' '));
    }
  });
});
