import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ed25519KeyPair } from '../../src/ssh/key-pair.js';
import { tempDir } from '@paddock/testing';
import {
  MAX_KEYS_PER_SUB,
  MAX_KEYS_TOTAL,
  SshKeyError,
  SshKeyRegistry,
} from '../../src/ssh/keys.js';
import { keyErrorToHttp } from '../../src/ssh/routes.js';
import { as, startApiSandbox, type RunningApiSandbox } from '../support/sandbox.js';

const line = () => ed25519KeyPair().public;

function refusal(register: () => unknown): SshKeyError {
  try {
    register();
  } catch (err) {
    if (err instanceof SshKeyError) return err;
    throw err;
  }
  throw new Error('the registration was accepted');
}

describe('the SSH key registry’s bounds', () => {
  it('are named constants: a few keys per identity, a bounded registry', () => {
    assert.equal(MAX_KEYS_PER_SUB, 20);
    assert.ok(MAX_KEYS_TOTAL >= MAX_KEYS_PER_SUB * 10);
  });

  it('answer the caller’s own bound 409 and the whole registry’s 503, each saying what to do', () => {
    const registry = new SshKeyRegistry({ perSub: 2, total: 3 });
    registry.register('alice', line());
    registry.register('alice', line());
    const own = keyErrorToHttp(refusal(() => registry.register('alice', line())));
    assert.deepEqual([own.status, own.code], [409, 'conflict']);
    assert.match(own.message, /you have 2 keys already; delete one first/);
    registry.register('bob', line());
    const full = keyErrorToHttp(refusal(() => registry.register('carol', line())));
    assert.deepEqual([full.status, full.code], [503, 'unavailable']);
    assert.match(full.message, /holds 3 SSH keys, its limit/);
    // Nothing was half-registered: the refused keys are nowhere.
    assert.equal(registry.size, 3);
    assert.deepEqual(registry.list('carol'), []);
  });
});

describe('one proven identity against the registry over HTTP', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let sandbox: RunningApiSandbox;
  before(async () => {
    folder = await tempDir('paddock-ssh-key-bounds-');
    sandbox = await startApiSandbox(folder.path, ['-enable-ssh']);
  });
  after(async () => {
    await sandbox.stop();
    await folder.remove();
  });

  const register = (sub: string) =>
    fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, {
      method: 'POST',
      headers: { ...as(sub), 'content-type': 'application/json' },
      body: JSON.stringify({ publicKey: line() }),
    });

  it(`stops at ${MAX_KEYS_PER_SUB} keys with a clear 409, and others still register`, async () => {
    for (let i = 0; i < MAX_KEYS_PER_SUB; i++)
      assert.equal((await register('mallory')).status, 201);
    const over = await register('mallory');
    assert.equal(over.status, 409);
    assert.deepEqual(await over.json(), {
      error: 'conflict',
      message: `you have ${MAX_KEYS_PER_SUB} keys already; delete one first`,
    });
    assert.equal((await register('dave')).status, 201);
  });
});
