import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  ForwardError,
  knownHostsText,
  parsePublicKeyFile,
  parseSshEndpoint,
  resolveTarget,
  targetArgs,
  writeKnownHosts,
} from '@paddock/forward';
import { tempDir } from '@paddock/testing';
import { targetFlags } from './support/target-flags.js';

const KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHYaifk12+lg8L6zev0ygSa+ZK2pVE5Fcx4gkFkHg+nI';

describe('the host keys the sandbox reports', () => {
  const cases: Array<[string, unknown, { port: number; hostKeys: string[] } | RegExp]> = [
    [
      'a port only (a sandbox that does not report keys)',
      { port: 2222 },
      { port: 2222, hostKeys: [] },
    ],
    ['a port and keys', { port: 1, hostKeys: [KEY] }, { port: 1, hostKeys: [KEY] }],
    [
      'a key with spaces around',
      { port: 1, hostKeys: [` ${KEY}\n`] },
      { port: 1, hostKeys: [KEY] },
    ],
    ['no port', { hostKeys: [KEY] }, /invalid port undefined/],
    ['port 0', { port: 0 }, /invalid port 0/],
    ['not an object', 'x', /invalid port/],
    ['keys not a list', { port: 1, hostKeys: KEY }, /invalid hostKeys/],
    ['a key with a comment', { port: 1, hostKeys: [`${KEY} c`] }, /invalid hostKeys/],
    ['a key with a line break', { port: 1, hostKeys: [`${KEY}\nx y`] }, /invalid hostKeys/],
    ['a host pattern', { port: 1, hostKeys: [`* ${KEY}`] }, /invalid hostKeys/],
  ];
  for (const [what, body, expected] of cases) {
    it(`reads ${what}`, () => {
      if (expected instanceof RegExp) {
        assert.throws(
          () => parseSshEndpoint(body),
          (err: unknown) => err instanceof ForwardError && expected.test(err.message),
        );
      } else {
        assert.deepEqual(parseSshEndpoint(body), expected);
      }
    });
  }

  it('become known_hosts lines under the alias, or an empty file', () => {
    assert.equal(knownHostsText('paddock-dev', [KEY]), `paddock-dev ${KEY}\n`);
    assert.equal(
      knownHostsText('paddock-dev', [KEY, KEY]),
      `paddock-dev ${KEY}\npaddock-dev ${KEY}\n`,
    );
    assert.equal(knownHostsText('paddock-dev', []), '');
  });
});

describe('the known_hosts file', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir();
  });
  after(() => dir.remove());

  it('is replaced whole, private, with its folder made', async () => {
    const path = join(dir.path, 'new', 'forward-dev.known_hosts');
    await writeKnownHosts(path, 'one\n');
    await writeKnownHosts(path, 'two\n');
    assert.equal(await readFile(path, 'utf8'), 'two\n');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  });

  it('survives concurrent writers, each leaving a whole file', async () => {
    const path = join(dir.path, 'busy.known_hosts');
    const texts = Array.from({ length: 8 }, (_, i) => `${i}\n`.repeat(1000));
    await Promise.all(texts.map((t) => writeKnownHosts(path, t)));
    assert.ok(texts.includes(await readFile(path, 'utf8')));
  });

  it('says why it cannot be written', async () => {
    const blocker = join(dir.path, 'file');
    await writeFile(blocker, '');
    await assert.rejects(
      writeKnownHosts(join(blocker, 'kh'), ''),
      (err: unknown) => err instanceof ForwardError && /^cannot write .*kh: /.test(err.message),
    );
  });
});

describe('the public key file --register-key reads', () => {
  it('gives the key line and its comment', () => {
    assert.deepEqual(parsePublicKeyFile(`${KEY} paddock-dev\n`, 'k.pub'), {
      line: `${KEY} paddock-dev`,
      comment: 'paddock-dev',
    });
    assert.deepEqual(parsePublicKeyFile(KEY, 'k.pub'), { line: KEY, comment: '' });
    for (const bad of ['', 'one-word\n', `${KEY}\n${KEY}\n`]) {
      assert.throws(() => parsePublicKeyFile(bad, 'k.pub'), /k\.pub is not a public key file/);
    }
  });
});

describe('the target in the ProxyCommand', () => {
  it('names where it goes and never a credential', () => {
    const dashboard = resolveTarget(
      targetFlags({ dashboard: 'https://d.example', workspace: 'w', agent: 'a', apiKey: 'secret' }),
      {},
      {},
    );
    assert.deepEqual(targetArgs(dashboard), [
      '--dashboard',
      'https://d.example/',
      '--workspace',
      'w',
      '--agent',
      'a',
      '--replica',
      '0',
    ]);
    const url = resolveTarget(targetFlags({ url: 'http://u', token: 'secret' }), {}, {});
    assert.deepEqual(targetArgs(url), ['--url', 'http://u/']);
  });
});
