import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventuallyOk, freePort, start, tempDir } from '@paddock/testing';
import ssh2, { type ClientChannel } from 'ssh2';
import {
  as,
  SANDBOX_BIN,
  startApiSandbox,
  TEST_PROXY_SECRET_SHA256,
  type RunningApiSandbox,
} from './support/sandbox.js';
import { CLIENT_TIMEOUT_MS, clientOptions, keygen, run } from './support/openssh.js';

/** Polls until `check` passes or time runs out (its last failure is then named). */
async function eventually(check: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> {
  await eventuallyOk(
    'the check to pass',
    async () => {
      await check();
      return true;
    },
    timeoutMs,
    50,
  );
}

/**
 * Alive and not dying: a process a fatal signal was sent to may run on for a moment, with
 * SIGKILL (or the signal) pending; one that ignores SIGHUP is never sent it.
 */
async function aliveAndSpared(pid: number): Promise<boolean> {
  if (!processAlive(pid)) return false;
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const pending = ['SigPnd', 'ShdPnd'].map((field) =>
    BigInt(`0x${new RegExp(`^${field}:\\s+([0-9a-f]+)$`, 'm').exec(status)?.[1] ?? '0'}`),
  );
  const fatal = (1n << 0n) | (1n << 8n); // SIGHUP (1) and SIGKILL (9), bit n-1
  return pending.every((mask) => (mask & fatal) === 0n);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The lines of the sandbox's output matching the pattern. */
function linesMatching(output: string, pattern: RegExp): string[] {
  return output.split('\n').filter((line) => pattern.test(line));
}

describe('the embedded SSH server (-enable-ssh)', () => {
  let workspace: Awaited<ReturnType<typeof tempDir>>;
  let keysDir: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: RunningApiSandbox;
  let alice: { file: string; publicLine: string };
  let bob: { file: string; publicLine: string };
  let carol: { file: string; publicLine: string };
  let sshPort: number;

  const api = (path: string, sub: string, init: RequestInit = {}) =>
    fetch(`${sandbox.apiBase}${path}`, {
      ...init,
      headers: {
        ...as(sub),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...init.headers,
      },
    });
  const register = (sub: string, publicKey: string, name?: string) =>
    api('/api/ssh-authorized-keys', sub, {
      method: 'POST',
      body: JSON.stringify({ publicKey, name }),
    });
  const ssh = (key: string, args: string[], input?: Buffer | string) =>
    run('ssh', [...clientOptions(key), '-p', String(sshPort), ...args], { input });

  before(async () => {
    workspace = await tempDir('paddock-ssh-ws-');
    keysDir = await tempDir('paddock-ssh-keys-');
    [alice, bob, carol] = await Promise.all([
      keygen(keysDir.path, 'alice'),
      keygen(keysDir.path, 'bob'),
      keygen(keysDir.path, 'carol'),
    ]);
    sandbox = await startApiSandbox(workspace.path, ['-enable-ssh']);
    const port = await api('/api/ssh-port', 'alice');
    assert.equal(port.status, 200);
    const body = (await port.json()) as { port: number; host: string };
    assert.equal(body.host, '127.0.0.1');
    sshPort = body.port;
    assert.equal((await register('bob', bob.publicLine)).status, 201);
  });
  after(async () => {
    await sandbox.stop();
    await workspace.remove();
    await keysDir.remove();
  });

  describe('key routes', () => {
    it('registers a key: 201 with its record, 200 with the same record when sent again', async () => {
      const created = await register('alice', alice.publicLine, 'laptop');
      assert.equal(created.status, 201);
      const record = (await created.json()) as Record<string, string>;
      const printed = await run('ssh-keygen', ['-l', '-E', 'sha256', '-f', `${alice.file}.pub`]);
      assert.deepEqual(Object.keys(record).sort(), [
        'comment',
        'createdAt',
        'fingerprint',
        'id',
        'name',
        'type',
      ]);
      assert.equal(record.type, 'ssh-ed25519');
      assert.equal(record.fingerprint, printed.stdout.toString().split(' ')[1]);
      assert.equal(record.comment, 'alice@test');
      assert.equal(record.name, 'laptop');
      assert.match(record.id!, /^[0-9a-f]{16}$/);
      const again = await register('alice', alice.publicLine);
      assert.equal(again.status, 200);
      assert.deepEqual(await again.json(), record);
    });

    it('answers 400 for an unknown type, a private key, malformed or oversized bodies', async () => {
      const unknown = await register('alice', 'ssh-foo AAAA');
      assert.equal(unknown.status, 400);
      assert.match(
        ((await unknown.json()) as { message: string }).message,
        /unsupported key type "ssh-foo"/,
      );
      const secret = await register('alice', await readFile(alice.file, 'utf8'));
      assert.equal(secret.status, 400);
      assert.deepEqual(Object.keys((await secret.json()) as object), ['error', 'message']);
      for (const body of ['{"publicKey": ', '[]', '{"name": "x"}', '{"publicKey": 7}']) {
        const res = await api('/api/ssh-authorized-keys', 'alice', { method: 'POST', body });
        assert.equal(res.status, 400, body);
        assert.equal(((await res.json()) as { error: string }).error, 'invalid_request');
      }
      const long = await register('alice', `${alice.publicLine} ${'x'.repeat(10_000)}`);
      assert.equal(long.status, 400);
      const huge = await register('alice', 'x'.repeat(100_000));
      assert.equal(huge.status, 413);
    });

    it('answers 409 for a key another subject registered, and lists only the caller’s keys', async () => {
      const taken = await register('alice', bob.publicLine);
      assert.equal(taken.status, 409);
      assert.equal(((await taken.json()) as { error: string }).error, 'conflict');
      const mine = (await (await api('/api/ssh-authorized-keys', 'alice')).json()) as {
        keys: Array<{ comment: string }>;
      };
      assert.deepEqual(
        mine.keys.map((k) => k.comment),
        ['alice@test'],
      );
      const bobs = (await (await api('/api/ssh-authorized-keys', 'bob')).json()) as {
        keys: Array<{ id: string }>;
      };
      assert.equal(bobs.keys.length, 1);
      const stranger = (await (await api('/api/ssh-authorized-keys', 'mallory')).json()) as {
        keys: unknown[];
      };
      assert.deepEqual(stranger.keys, []);
      // Deleting another subject's key is a 404, as an unknown id is; the key stays.
      const other = await api(`/api/ssh-authorized-keys/${bobs.keys[0]!.id}`, 'alice', {
        method: 'DELETE',
      });
      assert.equal(other.status, 404);
      assert.equal(
        (await api('/api/ssh-authorized-keys/0000000000000000', 'bob', { method: 'DELETE' }))
          .status,
        404,
      );
      const still = (await (await api('/api/ssh-authorized-keys', 'bob')).json()) as {
        keys: unknown[];
      };
      assert.equal(still.keys.length, 1);
    });
  });

  describe('sessions', () => {
    it('runs an exec as bash -c in the workspace root, as the key’s owner, with its exit status', async () => {
      const ran = await ssh(alice.file, [
        'anyname@127.0.0.1',
        'echo hi; pwd; echo "$PADDOCK_SUB"; exit 7',
      ]);
      assert.equal(ran.code, 7, ran.stderr);
      const root = (await run('realpath', [workspace.path])).stdout.toString().trim();
      assert.equal(ran.stdout.toString(), `hi\n${root}\nalice\n`);
      await eventually(() =>
        assert.equal(
          linesMatching(sandbox.output(), /^api ssh sub=alice duration=\S+ exit=7$/).length,
          1,
        ),
      );
    });

    it('authenticates by key, whatever the user name: bob’s key runs as bob', async () => {
      const ran = await ssh(bob.file, ['alice@127.0.0.1', 'echo "$PADDOCK_SUB"']);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout.toString(), 'bob\n');
    });

    it('carries stdin, stdout and stderr byte for byte on pipes without a pty', async () => {
      const data = randomBytes(1024 * 1024);
      const echoed = await ssh(alice.file, ['a@127.0.0.1', 'cat; echo err >&2'], data);
      assert.equal(echoed.code, 0, echoed.stderr);
      assert.ok(echoed.stdout.equals(data));
      assert.equal(echoed.stderr, 'err\n');
      const noTty = await ssh(alice.file, ['a@127.0.0.1', 'test -t 0']);
      assert.equal(noTty.code, 1);
    });

    it('gives a pty with -tt, of the default size when the client has no terminal', async () => {
      const ran = await ssh(alice.file, [
        '-tt',
        'a@127.0.0.1',
        'tty; stty size; test -t 0 && echo "term=$TERM"',
      ]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.match(ran.stdout.toString(), /^\/dev\/pts\/\d+\r\n24 80\r\nterm=\S+\r\n$/);
    });

    it('sizes the pty as asked and follows window changes', async () => {
      const client = new ssh2.Client();
      await new Promise<void>((resolve, reject) => {
        client.once('ready', resolve).once('error', reject);
        client.connect({
          host: '127.0.0.1',
          port: sshPort,
          username: 'whoever',
          privateKey: readFileSync(alice.file),
          hostVerifier: () => true,
        });
      });
      try {
        const shell = await new Promise<ClientChannel>((resolve, reject) =>
          client.shell({ term: 'xterm-256color', cols: 100, rows: 30 }, (err, stream) =>
            err ? reject(err) : resolve(stream),
          ),
        );
        let seen = '';
        shell.on('data', (chunk: Buffer) => (seen += chunk.toString()));
        const exited = new Promise<number>((resolve) => shell.once('exit', resolve));
        shell.write('stty size; echo "T=$TERM"\n');
        await eventually(() => assert.match(seen, /[\r\n]30 100\r\nT=xterm-256color\r\n/));
        shell.setWindow(40, 120, 0, 0);
        shell.write('stty size; exit 4\n');
        await eventually(() => assert.match(seen, /[\r\n]40 120\r\n/));
        assert.equal(await exited, 4);
      } finally {
        client.end();
      }
    });

    it('accepts sent environment variables but not dynamic-loader ones', async () => {
      const ran = await ssh(alice.file, [
        '-o',
        'SetEnv=LC_PADDOCK_TEST=yes LD_PRELOAD=/nonexistent.so BASH_ENV=/nonexistent',
        'a@127.0.0.1',
        'echo "$LC_PADDOCK_TEST|${LD_PRELOAD-unset}|${BASH_ENV-unset}"',
      ]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout.toString(), 'yes|unset|unset\n');
    });

    it('runs a shell from stdin without a pty', async () => {
      const ran = await ssh(alice.file, ['-T', 'a@127.0.0.1'], 'echo from-shell\nexit 3\n');
      assert.equal(ran.code, 3, ran.stderr);
      assert.match(ran.stdout.toString(), /from-shell\n$/);
    });

    it('hangs up what a command leaves running in its group, but not what nohup or setsid keep', async () => {
      const ran = await ssh(alice.file, [
        'a@127.0.0.1',
        "sleep 300 >/dev/null 2>&1 & echo \"$!\"; setsid -f bash -c 'echo $$ > kept.pid; exec sleep 300' >/dev/null 2>&1; nohup bash -c 'echo $$ > nohup.pid; exec sleep 300' >/dev/null 2>&1 &",
      ]);
      assert.equal(ran.code, 0, ran.stderr);
      const pid = Number(ran.stdout.toString());
      await eventually(() =>
        assert.ok(!processAlive(pid), 'the background job survived its command'),
      );
      let kept = 0;
      await eventually(async () => {
        kept = Number(await readFile(join(workspace.path, 'kept.pid'), 'utf8'));
        assert.ok(kept > 0);
      });
      let nohupped = 0;
      await eventually(async () => {
        nohupped = Number(await readFile(join(workspace.path, 'nohup.pid'), 'utf8'));
        assert.ok(nohupped > 0);
      });
      try {
        // The background job died of the hangup sent to its group: the kept ones outlive it.
        assert.ok(await aliveAndSpared(kept), 'the setsid process was killed');
        assert.ok(await aliveAndSpared(nohupped), 'the nohup process was killed');
      } finally {
        process.kill(kept, 'SIGKILL');
        process.kill(nohupped, 'SIGKILL');
      }
    });

    it('kills the session’s process group when the client goes away', async () => {
      const client = start('ssh', [
        ...clientOptions(alice.file),
        '-p',
        String(sshPort),
        'a@127.0.0.1',
        'sleep 300 & echo "$!"; wait',
      ]);
      const [, pid] = await client.waitForOutput(/^(\d+)$/m, CLIENT_TIMEOUT_MS);
      assert.ok(processAlive(Number(pid)));
      await client.stop('SIGKILL');
      await eventually(() =>
        assert.ok(!processAlive(Number(pid)), 'the sleep survived its session'),
      );
    });
  });

  describe('file transfer', () => {
    const remote = (path: string) => `x@127.0.0.1:${path}`;
    const scp = (args: string[]) =>
      run('scp', [...clientOptions(alice.file), '-P', String(sshPort), ...args]);

    it('copies files both ways with scp over SFTP and with legacy scp -O', async () => {
      const data = randomBytes(2 * 1024 * 1024 + 17);
      const local = join(keysDir.path, 'payload.bin');
      await writeFile(local, data);
      for (const [label, flags] of [
        ['sftp', []],
        ['legacy', ['-O']],
      ] as const) {
        const up = await scp([...flags, local, remote(`up-${label}.bin`)]);
        assert.equal(up.code, 0, up.stderr);
        assert.ok((await readFile(join(workspace.path, `up-${label}.bin`))).equals(data), label);
        const back = join(keysDir.path, `down-${label}.bin`);
        const down = await scp([...flags, remote(`up-${label}.bin`), back]);
        assert.equal(down.code, 0, down.stderr);
        assert.ok((await readFile(back)).equals(data), label);
      }
    });

    it('runs an sftp batch: put, get, ls, mkdir, rename, rm inside the workspace', async () => {
      await writeFile(join(keysDir.path, 'note.txt'), 'hello sftp\n');
      const batch = join(keysDir.path, 'batch');
      await writeFile(
        batch,
        [
          'mkdir docs',
          `put ${join(keysDir.path, 'note.txt')} docs/note.txt`,
          'rename docs/note.txt docs/renamed.txt',
          'ls docs',
          `get docs/renamed.txt ${join(keysDir.path, 'fetched.txt')}`,
          'put /etc/hostname docs/gone.txt',
          'rm docs/gone.txt',
          'pwd',
        ].join('\n'),
      );
      const ran = await run('sftp', [
        ...clientOptions(alice.file),
        '-P',
        String(sshPort),
        '-b',
        batch,
        'x@127.0.0.1',
      ]);
      assert.equal(ran.code, 0, ran.stderr);
      const root = (await run('realpath', [workspace.path])).stdout.toString().trim();
      assert.match(ran.stdout.toString(), /docs\/renamed\.txt/);
      assert.match(ran.stdout.toString(), new RegExp(`Remote working directory: ${root}\\n`));
      assert.equal(await readFile(join(keysDir.path, 'fetched.txt'), 'utf8'), 'hello sftp\n');
      assert.deepEqual(await readdir(join(workspace.path, 'docs')), ['renamed.txt']);
    });

    it('refuses every path outside the workspace', async () => {
      const outside = join(keysDir.path, 'outside');
      await mkdir(outside);
      const attempts = [
        'get /etc/passwd',
        'cd /',
        'get ../../etc/passwd',
        `put /etc/hostname ${join(outside, 'planted')}`,
        `mkdir ${join(outside, 'dir')}`,
        'ln -s /etc/passwd escape',
        'ls /',
      ];
      for (const command of attempts) {
        const batch = join(keysDir.path, 'escape');
        await writeFile(batch, `${command}\n`);
        const ran = await run(
          'sftp',
          [...clientOptions(alice.file), '-P', String(sshPort), '-b', batch, 'x@127.0.0.1'],
          {
            cwd: keysDir.path,
          },
        );
        assert.notEqual(ran.code, 0, command);
      }
      assert.deepEqual(await readdir(outside), []);
      assert.ok(!(await readdir(keysDir.path)).includes('passwd'));
      const scpOut = await scp([remote('/etc/passwd'), join(outside, 'passwd')]);
      assert.notEqual(scpOut.code, 0);
      assert.deepEqual(await readdir(outside), []);
    });
  });

  describe('tunnels', () => {
    let target: Server;
    let targetPort: number;
    before(async () => {
      target = createServer((_req, res) => res.end('through the tunnel'));
      await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
      targetPort = (target.address() as { port: number }).port;
    });
    after(() => new Promise<void>((resolve) => target.close(() => resolve())));

    /** Starts `ssh -N -L local:host:port` and waits until the local port takes connections. */
    async function tunnel(host: string, port: number) {
      const local = await freePort();
      const client = start('ssh', [
        ...clientOptions(alice.file, 'INFO'),
        '-p',
        String(sshPort),
        '-N',
        '-L',
        `${local}:${host}:${port}`,
        'a@127.0.0.1',
      ]);
      await eventually(
        () =>
          new Promise<void>((resolve, reject) => {
            const socket = connect(local, '127.0.0.1', () => {
              socket.destroy();
              resolve();
            }).once('error', reject);
          }),
      );
      return { local, client };
    }

    it('forwards ssh -L to a port on the sandbox’s loopback', async () => {
      const { local, client } = await tunnel('127.0.0.1', targetPort);
      try {
        const res = await fetch(`http://127.0.0.1:${local}/`);
        assert.equal(await res.text(), 'through the tunnel');
      } finally {
        await client.stop();
      }
    });

    it('refuses ssh -L to any other host', async () => {
      const { local, client } = await tunnel('192.0.2.1', 80);
      try {
        await assert.rejects(fetch(`http://127.0.0.1:${local}/`));
        // ssh2 answers every refused channel "connect failed"; the target was never contacted.
        await client.waitForOutput(/open failed: connect failed/);
      } finally {
        await client.stop();
      }
    });
  });

  describe('authentication', () => {
    it('refuses a key nobody registered, and offers publickey only', async () => {
      const ran = await ssh(carol.file, ['-v', 'a@127.0.0.1', 'true']);
      assert.equal(ran.code, 255);
      assert.match(ran.stderr, /Authentications that can continue: publickey\r?\n/);
      assert.match(ran.stderr, /Permission denied \(publickey\)/);
    });

    it('takes ECDSA and RSA keys too', async () => {
      const made = await Promise.all([
        run('ssh-keygen', [
          '-q',
          '-t',
          'ecdsa',
          '-b',
          '384',
          '-N',
          '',
          '-f',
          join(keysDir.path, 'erin'),
        ]),
        run('ssh-keygen', [
          '-q',
          '-t',
          'rsa',
          '-b',
          '2048',
          '-N',
          '',
          '-f',
          join(keysDir.path, 'frank'),
        ]),
      ]);
      for (const m of made) assert.equal(m.code, 0, m.stderr);
      for (const [sub, type] of [
        ['erin', 'ecdsa-sha2-nistp384'],
        ['frank', 'ssh-rsa'],
      ] as const) {
        const file = join(keysDir.path, sub);
        const res = await register(sub, await readFile(`${file}.pub`, 'utf8'));
        assert.equal(res.status, 201);
        assert.equal(((await res.json()) as { type: string }).type, type);
        const ran = await ssh(file, ['x@127.0.0.1', 'echo "$PADDOCK_SUB"']);
        assert.equal(ran.code, 0, ran.stderr);
        assert.equal(ran.stdout.toString(), `${sub}\n`);
      }
    });

    it('offers no password or keyboard-interactive login', async () => {
      const ran = await ssh(alice.file, [
        '-o',
        'PreferredAuthentications=password,keyboard-interactive',
        'a@127.0.0.1',
        'true',
      ]);
      assert.equal(ran.code, 255);
      assert.match(ran.stderr, /Permission denied \(publickey\)/);
    });

    it('stops taking a key once its owner deletes it', async () => {
      const list = (await (await api('/api/ssh-authorized-keys', 'alice')).json()) as {
        keys: Array<{ id: string }>;
      };
      const deleted = await api(`/api/ssh-authorized-keys/${list.keys[0]!.id}`, 'alice', {
        method: 'DELETE',
      });
      assert.equal(deleted.status, 204);
      assert.deepEqual(
        ((await (await api('/api/ssh-authorized-keys', 'alice')).json()) as { keys: unknown[] })
          .keys,
        [],
      );
      const ran = await ssh(alice.file, ['a@127.0.0.1', 'true']);
      assert.equal(ran.code, 255);
    });

    it('wrote one audit line per registration', () => {
      assert.equal(
        linesMatching(sandbox.output(), /^api ssh-authorized-keys sub=alice type=ssh-ed25519$/)
          .length,
        1,
      );
      assert.equal(
        linesMatching(sandbox.output(), /^api ssh-authorized-keys sub=bob type=ssh-ed25519$/)
          .length,
        1,
      );
    });
  });
});

describe('the SSH server across starts', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir('paddock-ssh-starts-');
  });
  after(() => dir.remove());

  /** A sandbox started in an empty folder on an empty workspace, so that any file it wrote shows. */
  async function startInEmptyFolder(name: string) {
    const cwd = join(dir.path, `${name}-cwd`);
    const workspace = join(dir.path, `${name}-ws`);
    await mkdir(cwd);
    await mkdir(workspace);
    const sandbox = start(
      process.execPath,
      [
        SANDBOX_BIN,
        '-addr',
        '127.0.0.1:0',
        '-workspace',
        workspace,
        '-api-addr',
        '127.0.0.1:0',
        '-enable-ssh',
      ],
      {
        cwd,
        env: {
          ...process.env,
          SVC_LOG_FORMAT: 'json',
          SVC_API_PROXY_SECRET_SHA256: TEST_PROXY_SECRET_SHA256,
        },
      },
    );
    const [, apiPort] = await sandbox.waitForOutput(/"apiAddr":"127\.0\.0\.1:(\d+)"/, 30_000);
    const res = await fetch(`http://127.0.0.1:${apiPort}/api/ssh-port`, { headers: as('alice') });
    const { port } = (await res.json()) as { port: number };
    return { sandbox, apiPort: Number(apiPort), port, cwd, workspace };
  }

  it('has a new host key at every start and writes no key file', async () => {
    const [first, second] = await Promise.all([
      startInEmptyFolder('first'),
      startInEmptyFolder('second'),
    ]);
    try {
      const scan = async (port: number) => {
        const ran = await run('ssh-keyscan', ['-t', 'ed25519', '-p', String(port), '127.0.0.1']);
        const line = ran.stdout
          .toString()
          .split('\n')
          .find((l) => l.includes('ssh-ed25519'));
        assert.ok(line, ran.stderr);
        return line.split(' ').slice(1).join(' ');
      };
      const [a, b] = await Promise.all([scan(first.port), scan(second.port)]);
      assert.match(a, /^ssh-ed25519 AAAA/);
      assert.notEqual(a, b);
      for (const folder of [first.cwd, first.workspace, second.cwd, second.workspace]) {
        assert.deepEqual(await readdir(folder), [], folder);
      }
    } finally {
      await Promise.all([first.sandbox.stop(), second.sandbox.stop()]);
    }
  });

  it('ends running sessions and their processes when the sandbox stops', async () => {
    const keys = join(dir.path, 'keys');
    await mkdir(keys);
    const key = await keygen(keys, 'dora');
    const { sandbox, apiPort, port } = await startInEmptyFolder('stopping');
    let client: ReturnType<typeof start> | undefined;
    try {
      const res = await fetch(`http://127.0.0.1:${apiPort}/api/ssh-authorized-keys`, {
        method: 'POST',
        headers: { ...as('dora'), 'content-type': 'application/json' },
        body: JSON.stringify({ publicKey: key.publicLine }),
      });
      assert.equal(res.status, 201);
      client = start('ssh', [
        ...clientOptions(key.file),
        '-p',
        String(port),
        'd@127.0.0.1',
        'echo "$$"; exec sleep 300',
      ]);
      const [, pid] = await client.waitForOutput(/^(\d+)$/m, CLIENT_TIMEOUT_MS);
      assert.ok(processAlive(Number(pid)));
      await sandbox.stop();
      await eventually(() =>
        assert.ok(!processAlive(Number(pid)), 'the session outlived the sandbox'),
      );
      const { code } = await client.exited;
      assert.notEqual(code, 0);
    } finally {
      await client?.stop();
      await sandbox.stop();
    }
  });
});

describe('with -enable-ssh off', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let sandbox: RunningApiSandbox;
  before(async () => {
    dir = await tempDir();
    sandbox = await startApiSandbox(dir.path, []);
  });
  after(async () => {
    await sandbox.stop();
    await dir.remove();
  });

  it('answers 404 on all four SSH routes', async () => {
    const requests: Array<[string, string]> = [
      ['POST', '/api/ssh-authorized-keys'],
      ['GET', '/api/ssh-authorized-keys'],
      ['DELETE', '/api/ssh-authorized-keys/0123456789abcdef'],
      ['GET', '/api/ssh-port'],
    ];
    for (const [method, path] of requests) {
      const res = await fetch(`${sandbox.apiBase}${path}`, {
        method,
        headers: {
          ...as('alice'),
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        body: method === 'POST' ? '{"publicKey":"ssh-ed25519 AAAA"}' : undefined,
      });
      assert.equal(res.status, 404, `${method} ${path}`);
    }
  });
});
