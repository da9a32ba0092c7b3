import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import ssh2 from 'ssh2';
import { tempDir } from '@paddock/testing';
import {
  fingerprintOf,
  keyIdOf,
  MAX_KEY_LINE_CHARS,
  parsePublicKeyLine,
  rsaModulusBits,
  SshKeyError,
  SshKeyRegistry,
} from '../src/ssh/keys.js';
import { hostPrivateKey } from '../src/ssh/server.js';

const run = promisify(execFile);

/** Generates a key pair with OpenSSH's ssh-keygen; returns the public line and the private text. */
async function keygen(dir: string, name: string, args: string[]) {
  const file = join(dir, name);
  await run('ssh-keygen', ['-q', '-N', '', '-C', `${name}@test`, '-f', file, ...args]);
  return {
    publicLine: (await readFile(`${file}.pub`, 'utf8')).trim(),
    privateText: await readFile(file, 'utf8'),
    file,
  };
}

function refusal(kind: SshKeyError['kind'], pattern: RegExp) {
  return (err: unknown) =>
    err instanceof SshKeyError && err.kind === kind && pattern.test(err.message);
}

describe('public key lines', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  const keys: Record<string, Awaited<ReturnType<typeof keygen>>> = {};
  before(async () => {
    dir = await tempDir();
    const specs: Array<[string, string[]]> = [
      ['ed25519', ['-t', 'ed25519']],
      ['ecdsa256', ['-t', 'ecdsa', '-b', '256']],
      ['ecdsa384', ['-t', 'ecdsa', '-b', '384']],
      ['ecdsa521', ['-t', 'ecdsa', '-b', '521']],
      ['rsa2048', ['-t', 'rsa', '-b', '2048']],
      ['rsa1024', ['-t', 'rsa', '-b', '1024']],
    ];
    await Promise.all(
      specs.map(async ([name, args]) => {
        keys[name] = await keygen(dir.path, name, args);
      }),
    );
  });
  after(() => dir.remove());

  it('accepts ed25519, ECDSA and RSA keys with the fingerprint ssh-keygen prints', async () => {
    const expected: Record<string, string> = {
      ed25519: 'ssh-ed25519',
      ecdsa256: 'ecdsa-sha2-nistp256',
      ecdsa384: 'ecdsa-sha2-nistp384',
      ecdsa521: 'ecdsa-sha2-nistp521',
      rsa2048: 'ssh-rsa',
    };
    for (const [name, type] of Object.entries(expected)) {
      const key = keys[name]!;
      const parsed = parsePublicKeyLine(key.publicLine);
      assert.equal(parsed.type, type);
      assert.equal(parsed.comment, `${name}@test`);
      const { stdout } = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${key.file}.pub`]);
      assert.equal(fingerprintOf(parsed.blob), stdout.split(' ')[1], name);
    }
    assert.equal(rsaModulusBits(parsePublicKeyLine(keys.rsa2048!.publicLine).blob), 2048);
  });

  it('accepts a line without a comment and with surrounding whitespace or a final newline', () => {
    const [type, base64] = keys.ed25519!.publicLine.split(' ');
    assert.equal(parsePublicKeyLine(`  ${type} ${base64}\n`).comment, '');
  });

  it('refuses RSA keys under 2048 bits', () => {
    assert.throws(
      () => parsePublicKeyLine(keys.rsa1024!.publicLine),
      refusal('invalid', /2048 bits.*1024/),
    );
  });

  it('refuses private keys, saying to send the .pub file', () => {
    assert.throws(
      () => parsePublicKeyLine(keys.ed25519!.privateText),
      refusal('invalid', /private key.*\.pub/),
    );
  });

  it('refuses unknown and unsupported types, naming the accepted ones', () => {
    for (const line of [
      'ssh-foo AAAA',
      'ssh-dss AAAAB3NzaC1kc3MAAACBAP',
      'sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29t',
      'ssh-ed25519-cert-v01@openssh.com AAAA',
    ]) {
      assert.throws(
        () => parsePublicKeyLine(line),
        refusal('invalid', /unsupported key type.*accepted: ssh-ed25519/),
      );
    }
    assert.throws(
      () => parsePublicKeyLine(`from="10.0.0.1" ${keys.ed25519!.publicLine}`),
      refusal('invalid', /options are not supported/),
    );
  });

  it('refuses several keys in one body, malformed base64, and a blob of another type', () => {
    const ed = keys.ed25519!.publicLine;
    const [, base64 = ''] = ed.split(' ');
    assert.throws(
      () => parsePublicKeyLine(`${ed}\n${keys.ecdsa256!.publicLine}`),
      refusal('invalid', /exactly one/),
    );
    assert.throws(
      () => parsePublicKeyLine(`ssh-ed25519 ${base64.slice(0, 20)}!!${base64.slice(22)}`),
      refusal('invalid', /base64/),
    );
    assert.throws(
      () => parsePublicKeyLine(`ssh-ed25519 ${base64.slice(0, -4)}`),
      refusal('invalid', /base64|malformed/),
    );
    assert.throws(
      () => parsePublicKeyLine(`ssh-rsa ${base64}`),
      refusal('invalid', /not a ssh-rsa key/),
    );
    assert.throws(() => parsePublicKeyLine('ssh-ed25519'), refusal('invalid', /<type> <base64>/));
    assert.throws(() => parsePublicKeyLine(''), refusal('invalid', /empty/));
    assert.throws(
      () => parsePublicKeyLine(`${ed} ${'x'.repeat(MAX_KEY_LINE_CHARS)}`),
      refusal('invalid', /longer than/),
    );
    assert.throws(
      () => parsePublicKeyLine(`${ed}\u0007bell`),
      refusal('invalid', /control characters/),
    );
  });

  describe('the registry', () => {
    it('registers once per subject: again is the same record, another subject is a conflict', () => {
      const registry = new SshKeyRegistry();
      const first = registry.register('alice', keys.ed25519!.publicLine, 'laptop');
      assert.equal(first.created, true);
      assert.match(first.record.id, /^[0-9a-f]{16}$/);
      assert.equal(first.record.name, 'laptop');
      const again = registry.register('alice', `${keys.ed25519!.publicLine}\n`);
      assert.deepEqual(again, { record: first.record, created: false });
      assert.throws(
        () => registry.register('bob', keys.ed25519!.publicLine),
        refusal('conflict', /another user/),
      );
      assert.equal(registry.size, 1);
    });

    it('finds keys by blob, lists and removes only the owner’s keys', () => {
      const registry = new SshKeyRegistry();
      const alice = registry.register('alice', keys.ed25519!.publicLine).record;
      const bob = registry.register('bob', keys.ecdsa256!.publicLine).record;
      const blob = parsePublicKeyLine(keys.ecdsa256!.publicLine).blob;
      assert.equal(registry.lookup(blob)?.sub, 'bob');
      assert.equal(keyIdOf(blob), bob.id);
      assert.deepEqual(registry.list('alice'), [alice]);
      assert.deepEqual(registry.list('carol'), []);
      assert.equal(registry.remove('alice', bob.id), false);
      assert.equal(registry.lookup(blob)?.sub, 'bob');
      assert.equal(registry.remove('bob', bob.id), true);
      assert.equal(registry.lookup(blob), undefined);
      assert.deepEqual(registry.list('bob'), []);
      // Once removed, the key is free for another subject.
      assert.equal(registry.register('alice', keys.ecdsa256!.publicLine).created, true);
    });

    it('bounds the keys per subject and in total', () => {
      const registry = new SshKeyRegistry({ perSub: 2, total: 3 });
      registry.register('alice', keys.ed25519!.publicLine);
      registry.register('alice', keys.ecdsa256!.publicLine);
      assert.throws(
        () => registry.register('alice', keys.ecdsa384!.publicLine),
        refusal('limit', /2 keys already/),
      );
      registry.register('bob', keys.ecdsa384!.publicLine);
      assert.throws(
        () => registry.register('carol', keys.ecdsa521!.publicLine),
        refusal('full', /holds 3 SSH keys, its limit/),
      );
    });

    it('refuses a name that is too long or holds control characters', () => {
      const registry = new SshKeyRegistry();
      assert.throws(
        () => registry.register('alice', keys.ed25519!.publicLine, 'x'.repeat(101)),
        refusal('invalid', /name/),
      );
      assert.throws(
        () => registry.register('alice', keys.ed25519!.publicLine, 'a\nb'),
        refusal('invalid', /name/),
      );
      assert.equal(registry.size, 0);
    });
  });
});

describe('the host key', () => {
  it('is always one ssh2 can parse, though its generator sometimes makes one it cannot', () => {
    // About 1 in 256 generated keys is unparseable: 2,000 draws meet several.
    for (let i = 0; i < 2_000; i++) {
      const key = hostPrivateKey();
      assert.ok(!(ssh2.utils.parseKey(key) instanceof Error));
    }
  });
});
