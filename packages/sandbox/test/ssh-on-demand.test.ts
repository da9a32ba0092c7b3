import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { onDemand } from '../src/ssh/ssh2-on-demand.js';

const PROBE = join(import.meta.dirname, 'support', 'ssh-idle-probe.ts');

describe('a library loaded on demand', () => {
  it('loads on the first call only, and keeps what it loaded', () => {
    let loads = 0;
    const lib = onDemand('the test library', () => ({ n: ++loads }));
    assert.equal(loads, 0);
    assert.equal(lib().n, 1);
    assert.equal(lib().n, 1);
    assert.equal(loads, 1);
  });

  it('names what failed to load, and tries again on the next call', () => {
    let attempts = 0;
    const lib = onDemand('the SSH library (ssh2)', () => {
      if (++attempts === 1) throw new Error("Cannot find module 'ssh2'");
      return 'loaded';
    });
    assert.throws(lib, {
      message: "the SSH library (ssh2) could not be loaded: Cannot find module 'ssh2'",
    });
    assert.equal(lib(), 'loaded');
  });
});

describe('the SSH server at rest', () => {
  it('listens without ssh2, and loads it for the first connection, which it serves', async () => {
    // Its own process: this one's module cache may hold ssh2 already.
    const { stdout } = await promisify(execFile)(process.execPath, [
      '--conditions=paddock-source',
      '--import',
      'tsx',
      PROBE,
    ]);
    const probe = JSON.parse(stdout) as {
      atStart: boolean;
      banner: string;
      afterConnection: boolean;
      hostKeys: string[];
    };
    assert.equal(probe.atStart, false, 'ssh2 is not loaded by the start');
    assert.equal(probe.banner, 'SSH-2.0-paddock_sandbox');
    assert.equal(probe.afterConnection, true);
    assert.match(probe.hostKeys[0] ?? '', /^ssh-ed25519 [A-Za-z0-9+/=]+$/);
  });
});
