import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  as,
  freePort,
  start,
  startApiSandbox,
  tempDir,
  TEST_PROXY_SECRET,
  type RunningApiSandbox,
} from '@paddock/testing';
import { FORWARD_BIN, run, runForward, type RunResult } from './support/run.js';

/** The identity and proof the proxy would set, given as the developer's --header. */
const IDENTITY = [
  '--header',
  'X-Forwarded-Sub: alice',
  '--header',
  `X-Paddock-Proof: ${TEST_PROXY_SECRET}`,
];
/** A credential for the routing service (the sandbox ignores it): it must never reach the ssh config. */
const TOKEN = 'secret-token-123';
/** Size of the files copied back and forth: several frames and socket buffers, to exercise backpressure. */
const PAYLOAD_BYTES = 3 * 1024 * 1024;
/** A host key no sandbox has. */
const OTHER_HOST_KEY =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHYaifk12+lg8L6zev0ygSa+ZK2pVE5Fcx4gkFkHg+nI';
/** How long to wait for a listener that a child process opens. */
const LISTEN_WAIT_MS = 30_000;

let workspace: Awaited<ReturnType<typeof tempDir>>;
let home: Awaited<ReturnType<typeof tempDir>>;
let sandbox: RunningApiSandbox;
let env: NodeJS.ProcessEnv;
let sshConfig: string;

/** ssh, scp or sftp with the config ssh-setup wrote, never asking anything. */
function openssh(program: 'ssh' | 'scp' | 'sftp', args: string[], config = sshConfig) {
  return run(program, ['-F', config, '-o', 'BatchMode=yes', ...args], { env, cwd: home.path });
}

function assertOk(result: RunResult, what: string): void {
  assert.equal(result.code, 0, `${what} failed (${result.code}):\n${result.stderr}`);
}

/** Sends bytes through a TCP connection to an echo service and resolves with what came back. */
async function echoThrough(port: number, payload: Buffer): Promise<Buffer> {
  const socket = connect(port, '127.0.0.1');
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  let received = 0;
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= payload.length) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  socket.write(payload);
  await done;
  socket.destroy();
  return Buffer.concat(chunks);
}

/** Sends the payload, ends the sending side at once, and reads the answer to its end. */
async function halfCloseThrough(port: number, payload: Buffer): Promise<Buffer> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.end(payload);
  await once(socket, 'end');
  socket.destroy();
  return Buffer.concat(chunks);
}

before(async () => {
  workspace = await tempDir('paddock-forward-ws-');
  home = await tempDir('paddock-forward-home-');
  sandbox = await startApiSandbox(
    workspace.path,
    ['-enable-ssh', '-enable-port-forward', '-enable-exec'],
    {},
  );
  env = { ...process.env, HOME: home.path };
  // Nothing from the person running the tests may leak in.
  for (const name of [
    'XDG_CONFIG_HOME',
    'PADDOCK_FORWARD_URL',
    'PADDOCK_FORWARD_TOKEN',
    'PADDOCK_FORWARD_COOKIE',
    'PADDOCK_FORWARD_HEADERS',
    'SSH_AUTH_SOCK',
  ])
    delete env[name];
  sshConfig = join(home.path, '.ssh', 'config');
});
after(async () => {
  await sandbox.stop();
  await workspace.remove();
  await home.remove();
});

describe('paddock-forward against a real sandbox and OpenSSH', () => {
  let credentialsFile: string;
  let firstKeyCopy: string;

  it('ssh-setup creates a key, registers it and writes one Host block without the credentials', async () => {
    const result = await runForward(
      ['ssh-setup', 'dev', '--url', sandbox.apiBase, ...IDENTITY, '--token', TOKEN],
      env,
    );
    assertOk(result, 'ssh-setup');
    assert.match(result.stdout, /^Registered key SHA256:\S+ as "paddock-dev" \(id [0-9a-f]+\)$/m);
    assert.match(result.stdout, /connect with: ssh dev$/m);

    const keyFile = join(home.path, '.ssh', 'paddock_dev');
    assert.equal((await stat(keyFile)).mode & 0o777, 0o600);
    assert.match(await readFile(`${keyFile}.pub`, 'utf8'), /^ssh-ed25519 \S+ paddock-dev\n$/);

    credentialsFile = join(home.path, '.config', 'paddock', 'forward-dev.json');
    assert.equal((await stat(credentialsFile)).mode & 0o777, 0o600);
    const stored = JSON.parse(await readFile(credentialsFile, 'utf8')) as {
      url: string;
      token: string;
      headers: Record<string, string>;
      sshKey: { id: string; keyFile: string };
    };
    assert.equal(stored.url, `${sandbox.apiBase}/`);
    assert.equal(stored.token, TOKEN);
    assert.deepEqual(stored.headers, {
      'X-Forwarded-Sub': 'alice',
      'X-Paddock-Proof': TEST_PROXY_SECRET,
    });
    assert.equal(stored.sshKey.keyFile, keyFile);

    const config = await readFile(sshConfig, 'utf8');
    assert.equal((await stat(sshConfig)).mode & 0o777, 0o600);
    assert.ok(!config.includes(TOKEN), 'the token is not in the ssh config');
    assert.ok(!config.includes('X-Forwarded-Sub'), 'the headers are not in the ssh config');
    assert.ok(!config.includes(TEST_PROXY_SECRET), 'the proof is not in the ssh config');
    assert.equal(config.match(/^Host dev$/gm)?.length, 1);
    assert.match(
      config,
      /^ {2}ProxyCommand \S+ \S+paddock-forward\.js --ssh --url \S+ --credentials-file \S+forward-dev\.json --register-key \S+paddock_dev\.pub --known-hosts \S+forward-dev\.known_hosts --host-key-alias paddock-dev$/m,
    );
    // Strict when the sandbox reports its host keys; otherwise ssh takes the one the tunnel shows.
    const { hostKeys } = (await (
      await fetch(`${sandbox.apiBase}/api/ssh-port`, { headers: as('alice') })
    ).json()) as { hostKeys?: string[] };
    const knownHosts = join(home.path, '.config', 'paddock', 'forward-dev.known_hosts');
    assert.equal((await stat(knownHosts)).mode & 0o777, 0o600);
    if (hostKeys === undefined) {
      assert.match(config, /^ {2}StrictHostKeyChecking accept-new$/m);
      assert.equal(await readFile(knownHosts, 'utf8'), '');
    } else {
      assert.match(config, /^ {2}StrictHostKeyChecking yes$/m);
      assert.equal(
        await readFile(knownHosts, 'utf8'),
        hostKeys.map((k) => `paddock-dev ${k}\n`).join(''),
      );
    }

    const keys = await fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, {
      headers: as('alice'),
    });
    const listed = ((await keys.json()) as { keys: Array<{ id: string; name: string }> }).keys;
    assert.deepEqual(
      listed.map((k) => [k.id, k.name]),
      [[stored.sshKey.id, 'paddock-dev']],
    );
    firstKeyCopy = join(home.path, 'first-key');
    await copyFile(keyFile, firstKeyCopy);
  });

  it('runs a command over ssh with its output and exit status', async () => {
    const result = await openssh('ssh', ['dev', 'echo hi; exit 5']);
    assert.equal(result.code, 5, result.stderr);
    assert.equal(result.stdout, 'hi\n');
  });

  it('copies a file there and back with scp', async () => {
    const payload = randomBytes(PAYLOAD_BYTES);
    await writeFile(join(home.path, 'file.bin'), payload);
    assertOk(await openssh('scp', ['file.bin', 'dev:copy.txt']), 'scp to');
    assert.deepEqual(await readFile(join(workspace.path, 'copy.txt')), payload);
    assertOk(await openssh('scp', ['dev:copy.txt', 'back.bin']), 'scp from');
    assert.deepEqual(await readFile(join(home.path, 'back.bin')), payload);
  });

  it('runs an sftp batch', async () => {
    await writeFile(join(home.path, 'sftp-up.txt'), 'through sftp\n');
    await writeFile(
      join(home.path, 'batch'),
      'mkdir sftp-dir\nput sftp-up.txt sftp-dir/up.txt\nls sftp-dir\nget sftp-dir/up.txt sftp-down.txt\n',
    );
    const result = await openssh('sftp', ['-b', 'batch', 'dev']);
    assertOk(result, 'sftp');
    assert.match(result.stdout, /sftp-dir\/up\.txt/);
    assert.equal(
      await readFile(join(workspace.path, 'sftp-dir', 'up.txt'), 'utf8'),
      'through sftp\n',
    );
    assert.equal(await readFile(join(home.path, 'sftp-down.txt'), 'utf8'), 'through sftp\n');
  });

  it('forwards a local port to a service of the workspace with ssh -L', async () => {
    const http: HttpServer = createHttpServer((_req, res) => res.end('hello from the workspace\n'));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const httpPort = (http.address() as { port: number }).port;
    const localPort = await freePort();
    const tunnel = start(
      'ssh',
      [
        '-F',
        sshConfig,
        '-o',
        'BatchMode=yes',
        '-o',
        'ExitOnForwardFailure=yes',
        // Verbose for the lines that say the local port is open: ssh names the port before it
        // binds, and reports the listener's channel once it listens.
        '-v',
        '-N',
        '-L',
        `127.0.0.1:${localPort}:127.0.0.1:${httpPort}`,
        'dev',
      ],
      { env },
    );
    try {
      await tunnel.waitForOutput(
        new RegExp(
          `Local forwarding listening on 127\\.0\\.0\\.1 port ${localPort}\\b[\\s\\S]*new port-listener`,
        ),
        LISTEN_WAIT_MS,
      );
      const res = await fetch(`http://127.0.0.1:${localPort}/`);
      assert.equal(await res.text(), 'hello from the workspace\n');
    } finally {
      await tunnel.stop();
      http.close();
    }
  });

  it('registers the key again when the sandbox has forgotten it, and refreshes the host key', async () => {
    const keyList = () =>
      fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, { headers: as('alice') })
        .then((res) => res.json() as Promise<{ keys: Array<{ id: string }> }>)
        .then((body) => body.keys.map((k) => k.id));
    const [id] = await keyList();
    const deleted = await fetch(`${sandbox.apiBase}/api/ssh-authorized-keys/${id}`, {
      method: 'DELETE',
      headers: as('alice'),
    });
    assert.equal(deleted.status, 204);
    // A host key the sandbox never had, as if it had restarted since the last connection.
    const knownHosts = join(home.path, '.config', 'paddock', 'forward-dev.known_hosts');
    await writeFile(knownHosts, `paddock-dev ${OTHER_HOST_KEY}\n`);

    const result = await openssh('ssh', ['dev', 'echo again']);
    assertOk(result, 'ssh after the key was forgotten');
    assert.equal(result.stdout, 'again\n');
    assert.deepEqual(await keyList(), [id]);
    assert.match(await readFile(knownHosts, 'utf8'), /^paddock-dev ssh-ed25519 \S+\n$/);
    assert.ok(!(await readFile(knownHosts, 'utf8')).includes('AAAAIHYaifk12'));
  });

  it('refuses an SSH server whose host key is not the one the sandbox reports', async () => {
    // The same block, with a ProxyCommand that leaves the known_hosts file as it is.
    const config = await readFile(sshConfig, 'utf8');
    const stale = join(home.path, 'stale-known-hosts');
    await writeFile(stale, `paddock-dev ${OTHER_HOST_KEY}\n`, { mode: 0o600 });
    const staleConfig = join(home.path, 'stale-config');
    await writeFile(
      staleConfig,
      config
        .replace(/ --known-hosts \S+ --host-key-alias paddock-dev$/m, '')
        .replace(/UserKnownHostsFile "[^"]+"/, `UserKnownHostsFile "${stale}"`),
      { mode: 0o600 },
    );
    const refused = await openssh('ssh', ['dev', 'true'], staleConfig);
    assert.equal(refused.code, 255);
    assert.match(refused.stderr, /Host key verification failed/);
  });

  it('replaces the key on a re-run: the old one no longer authenticates', async () => {
    const result = await runForward(['ssh-setup', 'dev'], env); // everything else from the stored file
    assertOk(result, 'second ssh-setup');
    assert.match(result.stdout, /^Removed the previous key SHA256:/m);

    const config = await readFile(sshConfig, 'utf8');
    assert.equal(config.match(/^Host dev$/gm)?.length, 1);
    assert.equal(config.match(/^# paddock-forward dev begin$/gm)?.length, 1);
    assertOk(await openssh('ssh', ['dev', 'true']), 'ssh with the new key');

    // The same block, but with the first key.
    const oldConfig = join(home.path, 'old-config');
    await writeFile(
      oldConfig,
      config.replace(/IdentityFile "[^"]+"/, `IdentityFile "${firstKeyCopy}"`),
      { mode: 0o600 },
    );
    const refused = await openssh('ssh', ['dev', 'true'], oldConfig);
    assert.equal(refused.code, 255);
    assert.match(refused.stderr, /Permission denied \(publickey\)/);

    const keys = await fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, {
      headers: as('alice'),
    });
    assert.equal(((await keys.json()) as { keys: unknown[] }).keys.length, 1);
  });
});

describe('paddock-forward --port', () => {
  let echo: Server;
  let echoPort: number;
  before(async () => {
    echo = createServer((socket) => socket.pipe(socket));
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');
    echoPort = (echo.address() as { port: number }).port;
  });
  after(() => echo.close());

  it('tunnels every local connection to the workspace port until Ctrl-C', async () => {
    const localPort = await freePort();
    const forward = start(
      process.execPath,
      [
        FORWARD_BIN,
        '--port',
        String(echoPort),
        '--local-port',
        String(localPort),
        '--url',
        sandbox.apiBase,
        ...IDENTITY,
      ],
      { env },
    );
    try {
      await forward.waitForOutput(
        new RegExp(
          `^Forwarding 127\\.0\\.0\\.1:${localPort} -> workspace 127\\.0\\.0\\.1:${echoPort}$`,
          'm',
        ),
        LISTEN_WAIT_MS,
      );
      const payloads = [randomBytes(PAYLOAD_BYTES), Buffer.from('small')];
      const echoed = await Promise.all(payloads.map((p) => echoThrough(localPort, p)));
      assert.deepEqual(echoed, payloads);
      // The local client's FIN reaches the service, whose answer still comes back.
      const answered = await halfCloseThrough(localPort, payloads[0]!);
      assert.equal(answered.length, PAYLOAD_BYTES);
      assert.ok(answered.equals(payloads[0]!), 'the whole echo after a half-close');
    } finally {
      const exit = await forward.stop('SIGINT');
      assert.deepEqual(exit, { code: 0, signal: null });
    }
  });
});

describe('paddock-forward failures', () => {
  it('exits 2 with one line and the usage on a bad command line', async () => {
    for (const args of [[], ['--port', '70000'], ['ssh-setup'], ['--ssh', '--bogus']]) {
      const result = await runForward(args, env);
      assert.equal(result.code, 2, JSON.stringify(args));
      const [first, blank, usage] = result.stderr.split('\n');
      assert.match(first!, /^error: \S/);
      assert.equal(blank, '');
      assert.match(usage!, /^Usage:$/);
      assert.equal(result.stdout, '');
    }
  });

  it('prints the help and the version', async () => {
    const help = await runForward(['--help'], env);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage:\n {2}paddock-forward --ssh/);
    const version = await runForward(['--version'], env);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });

  it('--ssh without identity exits 1 with the sandbox’s reason on one line', async () => {
    const result = await runForward(['--ssh', '--url', sandbox.apiBase], env);
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^paddock-forward: GET http:\/\/127\.0\.0\.1:\d+\/api\/ssh-port answered 401: a valid X-Paddock-Proof header is required: reach the sandbox through its proxy \(.*\)\n$/,
    );
  });

  it('--ssh says so when the sandbox cannot be reached', async () => {
    const port = await freePort();
    const result = await runForward(
      ['--ssh', '--url', `http://127.0.0.1:${port}`, ...IDENTITY],
      env,
    );
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /^paddock-forward: cannot reach http:\/\/127\.0\.0\.1:\d+: .*ECONNREFUSED.*\n$/,
    );
  });

  it('reports a refused tunnel per connection with the sandbox’s reason, and goes on', async () => {
    const remote = await freePort();
    const localPort = await freePort();
    const forward = start(
      process.execPath,
      [
        FORWARD_BIN,
        '--port',
        String(remote),
        '--local-port',
        String(localPort),
        '--url',
        sandbox.apiBase,
        ...IDENTITY,
      ],
      { env },
    );
    try {
      await forward.waitForOutput(/^Forwarding /m, LISTEN_WAIT_MS);
      const echoed = await echoThrough(localPort, Buffer.from('anyone?'));
      assert.equal(echoed.length, 0);
      await forward.waitForOutput(
        /connection from 127\.0\.0\.1:\d+: the tunnel closed with code 1011: connection refused: 127\.0\.0\.1:\d+/,
      );
    } finally {
      await forward.stop('SIGINT');
    }
  });

  it('refuses a credentials file that group or others may read', async () => {
    const file = join(home.path, 'open-credentials.json');
    await mkdir(home.path, { recursive: true });
    await writeFile(
      file,
      JSON.stringify({ url: sandbox.apiBase, headers: { 'X-Forwarded-Sub': 'alice' } }),
      { mode: 0o644 },
    );
    const result = await runForward(['--ssh', '--credentials-file', file], env);
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `paddock-forward: credentials file ${file} is accessible to group or others (mode 0644); run "chmod 600 ${file}"\n`,
    );
  });

  it('--ssh pipes stdin to the SSH server and its banner back', async () => {
    // Without ssh in between: the server's identification line must come back on stdout.
    const child = spawn(
      process.execPath,
      [FORWARD_BIN, '--ssh', '--url', sandbox.apiBase, ...IDENTITY],
      {
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // The first whole line, or what came before the program ended.
    const firstLine = new Promise<void>((resolve) => {
      child.stdout.setEncoding('utf8').on('data', (c: string) => {
        stdout += c;
        if (stdout.includes('\n')) resolve();
      });
      void exited.then(() => resolve());
    });
    // A safety net only: a program that says nothing is killed, and the match below fails.
    const safety = setTimeout(() => child.kill('SIGKILL'), LISTEN_WAIT_MS);
    await firstLine;
    clearTimeout(safety);
    assert.match(stdout, /^SSH-2\.0-paddock_sandbox/);
    child.stdin.end('SSH-2.0-test\r\n');
    const [code] = await exited;
    assert.equal(code, 0);
  });
});
