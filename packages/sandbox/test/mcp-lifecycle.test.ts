import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { assertDies, eventually, INSPECTOR_CLI, isAlive, start, tempDir } from '@paddock/testing';
import {
  connect,
  openEventStream,
  SANDBOX_BIN,
  startSandbox,
  textOf,
  type RunningSandbox,
} from './support/sandbox.js';

const run = promisify(execFile);
let dir: Awaited<ReturnType<typeof tempDir>>;

before(async () => {
  dir = await tempDir();
  await writeFile(join(dir.path, 'hello.txt'), 'hello from the workspace\n');
});
after(() => dir.remove());

describe('paddock-sandbox as a command', () => {
  it('exits 2 with one clear line and the usage on bad flags or a bad workspace', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['-addr', '127.0.0.1:0'], /^error: -workspace is required\n/],
      [
        ['-addr', '127.0.0.1:0', '-workspace', join(dir.path, 'missing')],
        /^error: -workspace .* does not exist\n/,
      ],
      [
        ['-addr', '127.0.0.1:0', '-workspace', join(dir.path, 'hello.txt')],
        /^error: -workspace .* is not a directory\n/,
      ],
      [['-addr', 'somewhere', '-workspace', dir.path], /^error: invalid value for flag -addr/],
      [['-frobnicate'], /^error: flag provided but not defined: -frobnicate\n/],
    ];
    for (const [args, message] of cases) {
      const proc = start(process.execPath, [SANDBOX_BIN, ...args]);
      const { code } = await proc.exited;
      assert.equal(code, 2, args.join(' '));
      assert.match(proc.output(), message);
      assert.match(proc.output(), /Usage: paddock-sandbox -addr HOST:PORT -workspace DIR/);
    }
  });

  it('exits 2 naming the variable when the scrub patterns file has a bad pattern', async () => {
    const patterns = join(dir.path, 'bad-patterns.txt');
    await writeFile(patterns, 'ticket=TICKET-[0-9]+\nbroken=([a-z\n');
    const proc = start(
      process.execPath,
      [SANDBOX_BIN, '-addr', '127.0.0.1:0', '-workspace', dir.path],
      {
        env: { ...process.env, SVC_SCRUB_PATTERNS_FILE: patterns },
      },
    );
    assert.equal((await proc.exited).code, 2);
    assert.match(proc.output(), /SVC_SCRUB_PATTERNS_FILE: .*line 2/);
  });

  it('prints its usage with --help and its version with --version', async () => {
    const help = await run(process.execPath, [SANDBOX_BIN, '--help']);
    assert.match(help.stdout, /-enable-port-forward/);
    const version = await run(process.execPath, [SANDBOX_BIN, '--version']);
    assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  });
});

describe('a running sandbox', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox(dir.path, {
      env: {
        SVC_SESSION_SECRET: 'dashboard-session-secret-value-123',
        GITHUB_TOKEN: 'ghp_0123456789abcdefghijABCDEFGHIJ012345',
      },
    });
  });
  after(() => sandbox.stop());

  it('keeps its own secrets out of commands and redacts secrets in results', async () => {
    const client = await connect(sandbox.base, 'sse');
    const env = textOf(await client.callTool({ name: 'Bash', arguments: { command: 'env' } }));
    assert.doesNotMatch(env, /SVC_SESSION_SECRET|GITHUB_TOKEN|dashboard-session-secret-value-123/);
    assert.match(env, /^PATH=/m);
    await writeFile(
      join(dir.path, 'config.env'),
      'GITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\nNAME=ok\n',
    );
    const read = textOf(
      await client.callTool({ name: 'Read', arguments: { file_path: 'config.env' } }),
    );
    assert.doesNotMatch(read, /ghp_0123456789/);
    assert.match(read, /REDACTED/);
    assert.match(read, /NAME=ok/);
    const echoed = textOf(
      await client.callTool({
        name: 'Bash',
        arguments: { command: 'echo dashboard-session-secret-value-123' },
      }),
    );
    assert.doesNotMatch(echoed, /dashboard-session-secret-value-123/);
    // Error results are scrubbed too: a failing command's output and a tool's own message.
    const failed = await client.callTool({
      name: 'Bash',
      arguments: { command: 'echo DB_PASSWORD=correcthorse >&2; exit 1' },
    });
    assert.equal(failed.isError, true);
    assert.match(textOf(failed), /DB_PASSWORD=\[REDACTED:secret-assignment\]/);
    const missing = await client.callTool({
      name: 'Read',
      arguments: { file_path: 'dashboard-session-secret-value-123.txt' },
    });
    assert.equal(missing.isError, true);
    assert.doesNotMatch(textOf(missing), /dashboard-session-secret-value-123/);
    assert.match(textOf(missing), /REDACTED:configured-secret/);
    await client.close();
  });

  it('redacts what extra patterns from SVC_SCRUB_PATTERNS_FILE describe', async () => {
    const patterns = join(dir.path, 'patterns.txt');
    await writeFile(patterns, '# internal ticket ids\nticket=TICKET-[0-9]{4,}\n');
    const custom = await startSandbox(dir.path, { env: { SVC_SCRUB_PATTERNS_FILE: patterns } });
    try {
      const client = await connect(custom.base, 'sse');
      const out = textOf(
        await client.callTool({
          name: 'Bash',
          arguments: { command: 'echo see TICKET-12345 now' },
        }),
      );
      assert.match(out, /see \[REDACTED:ticket\] now/);
      await client.close();
    } finally {
      await custom.stop();
    }
  });

  it('logs one line per tool call without the arguments', async () => {
    const client = await connect(sandbox.base, 'streamable');
    await client.callTool({ name: 'Read', arguments: { file_path: 'hello.txt' } });
    await client.close();
    const line = await sandbox.waitForOutput(
      /\{[^\n]*"tool":"Read"[^\n]*"msg":"tool call"[^\n]*\}/,
    );
    const entry = JSON.parse(line[0]) as Record<string, unknown>;
    assert.equal(entry.tool, 'Read');
    assert.equal(entry.isError, false);
    assert.equal(typeof entry.ms, 'number');
    assert.equal(typeof entry.bytes, 'number');
    assert.doesNotMatch(sandbox.output(), /hello\.txt/);
  });

  it('kills a session’s background shells when the session ends', async () => {
    const client = await connect(sandbox.base, 'sse');
    const started = await client.callTool({
      name: 'Bash',
      arguments: { command: 'sleep 300 & echo $! > bg.pid; wait', run_in_background: true },
    });
    assert.notEqual(started.isError, true, textOf(started));
    const pidFile = join(dir.path, 'bg.pid');
    await eventually('the pid file', async () =>
      (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== '' ? true : undefined,
    );
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    assert.ok(await isAlive(pid));
    await client.close();
    await assertDies(pid);
  });

  it('serves 50 concurrent sessions each writing, reading and editing its own files with nothing lost', async () => {
    const sessions = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        connect(sandbox.base, i % 2 === 0 ? 'sse' : 'streamable'),
      ),
    );
    await Promise.all(
      sessions.map(async (client, i) => {
        for (let round = 0; round < 3; round++) {
          const file = `concurrent/s${i}-r${round}.txt`;
          const content = `session ${i} round ${round}\n`.repeat(20);
          const wrote = await client.callTool({
            name: 'Write',
            arguments: { file_path: file, content },
          });
          assert.notEqual(wrote.isError, true, textOf(wrote));
          const read = textOf(
            await client.callTool({ name: 'Read', arguments: { file_path: file } }),
          );
          assert.match(read, new RegExp(`^20\\tsession ${i} round ${round}$`, 'm'));
          const edited = await client.callTool({
            name: 'Edit',
            arguments: {
              file_path: file,
              old_string: `session ${i} round ${round}`,
              new_string: `done ${i}.${round}`,
              replace_all: true,
            },
          });
          assert.notEqual(edited.isError, true, textOf(edited));
        }
      }),
    );
    await Promise.all(sessions.map((c) => c.close()));
    for (let i = 0; i < 50; i++) {
      for (let round = 0; round < 3; round++) {
        const text = await readFile(join(dir.path, `concurrent/s${i}-r${round}.txt`), 'utf8');
        assert.equal(text, `done ${i}.${round}\n`.repeat(20));
      }
    }
  });
});

describe('shutdown', () => {
  it('lets a tool call in flight finish on SIGTERM and exits 0', async () => {
    const sandbox = await startSandbox(dir.path);
    const client = await connect(sandbox.base, 'sse');
    // The command runs until the test lets it finish, once the shutdown has begun.
    const call = client.callTool({
      name: 'Bash',
      arguments: {
        command:
          'echo > in-flight.started; while [ ! -e in-flight.go ]; do sleep 0.05; done; echo finished',
      },
    });
    await eventually('the call in flight', () =>
      readFile(join(dir.path, 'in-flight.started')).then(
        () => true,
        () => undefined,
      ),
    );
    sandbox.child.kill('SIGTERM');
    await sandbox.waitForOutput(/shutting down/);
    await writeFile(join(dir.path, 'in-flight.go'), '');
    const result = await call;
    assert.match(textOf(result), /finished/);
    const { code } = await sandbox.exited;
    assert.equal(code, 0, sandbox.output());
    await client.close();
    await rm(join(dir.path, 'in-flight.started'));
    await rm(join(dir.path, 'in-flight.go'));
  });

  it('stops a runaway call that ignores SIGTERM after the grace period, kills its process group, drops the streams and still exits 0', async () => {
    const sandbox = await startSandbox(dir.path);
    const client = await connect(sandbox.base, 'sse');
    const stream = await openEventStream(`${sandbox.base}/sse`);
    void client
      .callTool({
        name: 'Bash',
        arguments: {
          // Ignored signals are inherited: neither the shell nor sleep will die of SIGTERM.
          command: "trap '' TERM; sleep 120 & echo $! > runaway.pid; wait",
          timeout: 600000,
        },
      })
      .catch(() => undefined);
    const pidFile = join(dir.path, 'runaway.pid');
    await eventually('the pid file', async () =>
      (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== '' ? true : undefined,
    );
    const pid = Number((await readFile(pidFile, 'utf8')).trim());
    sandbox.child.kill('SIGTERM');
    const { code } = await sandbox.exited;
    assert.equal(code, 0, sandbox.output());
    await assertDies(pid);
    assert.equal(await stream.ended, 'dropped', 'the event stream was cut, not finished');
    stream.close();
    await client.close().catch(() => undefined);
  });
});

describe('the MCP Inspector CLI, an independent client', () => {
  let sandbox: RunningSandbox;
  before(async () => {
    sandbox = await startSandbox(dir.path);
  });
  after(() => sandbox.stop());

  const inspector = (args: string[]) =>
    run(process.execPath, [INSPECTOR_CLI, '--cli', ...args], {
      timeout: 60_000,
    });

  it('lists the tools over SSE', async () => {
    const { stdout } = await inspector([`${sandbox.base}/sse`, '--method', 'tools/list']);
    const names = (JSON.parse(stdout) as { tools: Array<{ name: string }> }).tools.map(
      (t) => t.name,
    );
    assert.ok(names.includes('Read') && names.includes('Bash'), stdout);
  });

  it('calls Read over SSE and gets numbered lines', async () => {
    const { stdout } = await inspector([
      `${sandbox.base}/sse`,
      '--method',
      'tools/call',
      '--tool-name',
      'Read',
      '--tool-arg',
      'file_path=hello.txt',
    ]);
    const result = JSON.parse(stdout) as { content: Array<{ type: string; text: string }> };
    assert.deepEqual(result.content, [{ type: 'text', text: '1\thello from the workspace' }]);
  });
});
