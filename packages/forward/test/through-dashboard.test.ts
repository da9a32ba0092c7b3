import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORE_KINDS } from '@paddock/kube';
import {
  Client,
  eventually,
  eventuallyOk,
  freePort,
  start,
  startAgentPlatform,
  tempDir,
  type AgentPlatform,
  type PlatformPod,
} from '@paddock/testing';
import { FORWARD_BIN, run, runForward, type RunResult } from './support/run.js';

/**
 * paddock-forward through the dashboard's door with an API key, against a real agent pod run by
 * the local node, driven by OpenSSH: ssh, scp, sftp, ssh -L, rsync, --port, and `ssh NAME` again
 * after the pod was deleted and its StatefulSet made a new one (new sandbox, new host key, no keys).
 */

const WS = 'forwarding';
const AGENT = 'coder';
const POD = `${AGENT}-0`;
const NAMESPACE = `ns-${WS}`;
/** Several frames and socket buffers, to exercise backpressure through both proxies. */
const PAYLOAD_BYTES = 2 * 1024 * 1024;
/** How long a listener a child process opens may take. */
const LISTEN_WAIT_MS = 30_000;

let platform: AgentPlatform;
let home: Awaited<ReturnType<typeof tempDir>>;
let env: NodeJS.ProcessEnv;
let sshConfig: string;
let apiKey: string;
let workspaceFolder: string;

/** The editor the API key belongs to, as the dashboard's trusted proxy names her. */
const editor = () =>
  new Client(platform.dashboard.base, {
    'x-forwarded-user': 'eddie',
    'x-forwarded-groups': 'devs',
  });

const target = () => [
  '--dashboard',
  platform.dashboard.base,
  '--workspace',
  WS,
  '--agent',
  AGENT,
  '--api-key',
  apiKey,
];

/** ssh, scp or sftp with the config ssh-setup wrote, never asking anything. */
function openssh(program: 'ssh' | 'scp' | 'sftp', args: string[]) {
  return run(program, ['-F', sshConfig, '-o', 'BatchMode=yes', ...args], {
    env,
    cwd: home.path,
  });
}

function assertOk(result: RunResult, what: string): void {
  assert.equal(result.code, 0, `${what} failed (${result.code}):\n${result.stderr}`);
}

/** The door to the pod's sandbox, ending in `/`. */
const door = () =>
  `${platform.dashboard.base}/api/workspaces/${WS}/agents/${AGENT}/pods/${POD}/sandbox/`;

/** The keys the sandbox holds for the API key's user, asked through the door. */
async function registeredKeys(): Promise<string[]> {
  const res = await fetch(`${door()}api/ssh-authorized-keys`, {
    headers: { 'X-API-Key': apiKey },
  });
  assert.equal(res.status, 200);
  return ((await res.json()) as { keys: Array<{ fingerprint: string }> }).keys.map(
    (k) => k.fingerprint,
  );
}

/** Resolves once something accepts connections on 127.0.0.1:port. */
function untilListening(port: number): Promise<true> {
  return eventually(
    `a listener on ${port}`,
    () =>
      new Promise<true | undefined>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(undefined));
      }),
    LISTEN_WAIT_MS,
  );
}

before(async () => {
  platform = await startAgentPlatform();
  await platform.workspace(WS, { roleBindings: [{ groups: ['devs'], role: 'editor' }] });
  await platform.agent(WS, AGENT, { sandbox: { ssh: true, exec: true, portForward: true } });
  workspaceFolder = platform.workspaceFolder(WS, POD);
  const created = await editor().post('/api/settings/api-keys', { name: 'laptop' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  apiKey = (created.body as { key: string }).key;

  home = await tempDir('paddock-forward-dash-home-');
  env = { ...process.env, HOME: home.path };
  // Nothing from the person running the tests may leak in.
  for (const name of Object.keys(env)) {
    if (/^PADDOCK_/.test(name) || name === 'XDG_CONFIG_HOME' || name === 'SSH_AUTH_SOCK') {
      delete env[name];
    }
  }
  sshConfig = join(home.path, '.ssh', 'config');
});
after(async () => {
  await platform?.stop();
  await home?.remove();
});

describe('paddock-forward through the dashboard with an API key', () => {
  it('ssh-setup registers a key through the door and writes the Host block', async () => {
    const result = await runForward(['ssh-setup', 'agent', ...target()], env);
    assertOk(result, 'ssh-setup');
    assert.match(result.stdout, /^Registered key SHA256:\S+ as "paddock-agent"/m);

    const config = await readFile(sshConfig, 'utf8');
    assert.ok(!config.includes(apiKey), 'the API key is not in the ssh config');
    assert.match(
      config,
      /^ {2}ProxyCommand \S+ \S+paddock-forward\.js --ssh --dashboard http:\/\/127\.0\.0\.1:\d+\/ --workspace forwarding --agent coder --replica 0 --credentials-file \S+ --register-key \S+paddock_agent\.pub --known-hosts \S+ --host-key-alias paddock-agent$/m,
    );
    const stored = JSON.parse(
      await readFile(join(home.path, '.config', 'paddock', 'forward-agent.json'), 'utf8'),
    ) as Record<string, unknown>;
    assert.deepEqual(
      { ...stored, sshKey: undefined },
      {
        dashboard: `${platform.dashboard.base}/`,
        workspace: WS,
        agent: AGENT,
        replica: 0,
        apiKey,
        sshKey: undefined,
      },
    );
    assert.equal((await registeredKeys()).length, 1);
    // Pinned when the sandbox reports its host keys; otherwise taken through the tunnel.
    const port = await fetch(`${door()}api/ssh-port`, { headers: { 'X-API-Key': apiKey } });
    const { hostKeys } = (await port.json()) as { hostKeys?: string[] };
    assert.match(
      config,
      new RegExp(`^ {2}StrictHostKeyChecking ${hostKeys ? 'yes' : 'accept-new'}$`, 'm'),
    );
  });

  it('runs a command with its output and exit status', async () => {
    const result = await openssh('ssh', ['agent', 'echo hi; exit 3']);
    assert.equal(result.code, 3, result.stderr);
    assert.equal(result.stdout, 'hi\n');
  });

  it('copies a file both ways with scp', async () => {
    const payload = randomBytes(PAYLOAD_BYTES);
    await writeFile(join(home.path, 'up.bin'), payload);
    assertOk(await openssh('scp', ['up.bin', 'agent:scp-up.bin']), 'scp to');
    assert.deepEqual(await readFile(join(workspaceFolder, 'scp-up.bin')), payload);
    assertOk(await openssh('scp', ['agent:scp-up.bin', 'down.bin']), 'scp from');
    assert.deepEqual(await readFile(join(home.path, 'down.bin')), payload);
  });

  it('runs an sftp batch', async () => {
    await writeFile(join(home.path, 'sftp-up.txt'), 'through sftp\n');
    await writeFile(
      join(home.path, 'batch'),
      'mkdir sftp-dir\nput sftp-up.txt sftp-dir/up.txt\nls sftp-dir\nget sftp-dir/up.txt sftp-down.txt\n',
    );
    const result = await openssh('sftp', ['-b', 'batch', 'agent']);
    assertOk(result, 'sftp');
    assert.match(result.stdout, /sftp-dir\/up\.txt/);
    assert.equal(
      await readFile(join(workspaceFolder, 'sftp-dir', 'up.txt'), 'utf8'),
      'through sftp\n',
    );
    assert.equal(await readFile(join(home.path, 'sftp-down.txt'), 'utf8'), 'through sftp\n');
  });

  it('forwards a port with ssh -L', async () => {
    const http = createHttpServer((_req, res) => res.end('hello from the workspace\n'));
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    const remote = (http.address() as { port: number }).port;
    const local = await freePort();
    const tunnel = start(
      'ssh',
      ['-F', sshConfig, '-o', 'BatchMode=yes', '-o', 'ExitOnForwardFailure=yes', '-N'].concat([
        '-L',
        `${local}:127.0.0.1:${remote}`,
        'agent',
      ]),
      { env },
    );
    try {
      await untilListening(local);
      assert.equal(
        await (await fetch(`http://127.0.0.1:${local}/`)).text(),
        'hello from the workspace\n',
      );
    } finally {
      await tunnel.stop();
      http.close();
    }
  });

  it('synchronises a folder both ways with rsync over ssh', async () => {
    const source = join(home.path, 'tree');
    await mkdir(join(source, 'sub'), { recursive: true });
    await writeFile(join(source, 'a.txt'), 'alpha\n');
    await writeFile(join(source, 'sub', 'b.bin'), randomBytes(256 * 1024));
    const rsh = `ssh -F ${sshConfig} -o BatchMode=yes`;
    assertOk(
      await run('rsync', ['-a', '-e', rsh, `${source}/`, 'agent:rsynced/'], {
        env,
        cwd: home.path,
      }),
      'rsync to',
    );
    assert.equal(await readFile(join(workspaceFolder, 'rsynced', 'a.txt'), 'utf8'), 'alpha\n');
    assert.deepEqual(
      await readFile(join(workspaceFolder, 'rsynced', 'sub', 'b.bin')),
      await readFile(join(source, 'sub', 'b.bin')),
    );
    assertOk(
      await run('rsync', ['-a', '-e', rsh, 'agent:rsynced/', 'back/'], { env, cwd: home.path }),
      'rsync from',
    );
    assert.equal(await readFile(join(home.path, 'back', 'a.txt'), 'utf8'), 'alpha\n');
  });

  it('forwards a local port with paddock-forward --port', async () => {
    const echo: Server = createServer((socket) => socket.pipe(socket));
    echo.listen(0, '127.0.0.1');
    await once(echo, 'listening');
    const remote = (echo.address() as { port: number }).port;
    const local = await freePort();
    const forward = start(
      process.execPath,
      [FORWARD_BIN, '--port', String(remote), '--local-port', String(local), ...target()],
      { env },
    );
    try {
      await forward.waitForOutput(/^Forwarding 127\.0\.0\.1:\d+ -> workspace/m, LISTEN_WAIT_MS);
      const payload = randomBytes(PAYLOAD_BYTES);
      const socket = connect(local, '127.0.0.1');
      const chunks: Buffer[] = [];
      let received = 0;
      const echoed = new Promise<void>((resolve, reject) => {
        socket.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (received >= payload.length) resolve();
        });
        socket.on('error', reject);
      });
      socket.write(payload);
      await echoed;
      socket.destroy();
      assert.ok(Buffer.concat(chunks).equals(payload), 'the echo is the payload');
    } finally {
      const exit = await forward.stop('SIGINT');
      assert.deepEqual(exit, { code: 0, signal: null });
      echo.close();
    }
  });

  it('connects again after the sandbox pod is replaced, without running ssh-setup', async () => {
    const knownHosts = join(home.path, '.config', 'paddock', 'forward-agent.known_hosts');
    const hostKeyBefore = await readFile(knownHosts, 'utf8');
    assert.match(hostKeyBefore, /^paddock-agent ssh-ed25519 \S+\n$/);
    const pods = platform.kube.resource<PlatformPod>(CORE_KINDS.pod);
    const { uid } = (await pods.get(POD, NAMESPACE)).metadata;
    await pods.delete(POD, NAMESPACE);
    await eventuallyOk(
      'a new Ready pod',
      async () => {
        const [pod] = await platform.readyPods(WS, AGENT, 1);
        return pod !== undefined && pod.metadata.uid !== uid ? pod : undefined;
      },
      120_000,
    );
    // The new sandbox knows no key: what the first connection brings is all it gets.
    assert.deepEqual(await registeredKeys(), []);

    const result = await openssh('ssh', ['agent', 'echo back; cat scp-up.bin | wc -c']);
    assertOk(result, 'ssh after the restart');
    assert.equal(result.stdout, `back\n${PAYLOAD_BYTES}\n`);
    assert.equal((await registeredKeys()).length, 1);
    const hostKeyAfter = await readFile(knownHosts, 'utf8');
    assert.match(hostKeyAfter, /^paddock-agent ssh-ed25519 \S+\n$/);
    assert.notEqual(hostKeyAfter, hostKeyBefore, 'the new sandbox has a new host key');
  });
});
