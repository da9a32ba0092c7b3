import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { z } from 'zod';
import { tempDir, eventually, isAlive, assertDies } from '@paddock/testing';
import {
  HeadTailText,
  OUTPUT_HEAD_CHARS,
  OUTPUT_TAIL_CHARS,
  ProcessGroups,
} from '../src/mcp/process-group.js';
import { SessionState } from '../src/mcp/session.js';
import { MAX_RUNNING_SHELLS, SHELL_BUFFER_CHARS } from '../src/mcp/shells.js';
import { ToolFailure, type Tool, type ToolContext } from '../src/mcp/tool.js';
import {
  bashOutputTool,
  bashTool,
  DEFAULT_TIMEOUT_MS,
  killShellTool,
  MAX_TIMEOUT_MS,
} from '../src/mcp/tools/bash.js';
import { Workspace } from '../src/workspace/containment.js';

/** Generous bound for "promptly": far above what a healthy run needs, far below a hang. */
const PROMPTLY_MS = 5_000;

let folder: { path: string; remove: () => Promise<void> };
let workspace: Workspace;
let controller: AbortController;
let ctx: ToolContext;
let groups: ProcessGroups;

function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.SVC_SESSION_SECRET;
  return env;
}

function call<S extends z.ZodObject>(tool: Tool<S>, args: unknown, context = ctx): Promise<string> {
  return tool.run(tool.input.parse(args), context);
}

/** The pid a command wrote to a file of the workspace, once it is there. */
function pidFrom(name: string): Promise<number> {
  return eventually(`${name} to hold a pid`, async () => {
    const text = await readFile(join(workspace.root, name), 'utf8').catch(() => '');
    return /^\d+\n$/.test(text) ? Number(text) : undefined;
  });
}

/** BashOutput's answer split into the new output and the state line. */
async function readShell(id: string): Promise<{ output: string; state: string }> {
  const text = await call(bashOutputTool, { shell_id: id });
  const at = text.lastIndexOf('\nstate: ');
  const body = text.slice(0, at + 1);
  return {
    output: body === '(no new output)\n' ? '' : body,
    state: text.slice(at + '\nstate: '.length),
  };
}

/** Reads a background shell with BashOutput until it has finished: all of its output, and its end. */
async function readUntilFinished(id: string): Promise<{ output: string; state: string }> {
  let output = '';
  return eventually(`${id} to finish`, async () => {
    const read = await readShell(id);
    output += read.output;
    return read.state === 'running' ? undefined : { output, state: read.state };
  });
}

/** Waits until a background shell has finished, without reading its output. */
async function untilFinished(id: string): Promise<void> {
  const shell = ctx.session.shells.require(id);
  await eventually(`${id} to finish`, () =>
    Promise.resolve(shell.state.kind === 'running' ? undefined : true),
  );
}

async function startShell(command: string): Promise<string> {
  const text = await call(bashTool, { command, run_in_background: true });
  const id = /shell_\d+/.exec(text)?.[0];
  assert.ok(id, text);
  return id;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof Error);
    return err;
  }
  assert.fail('expected a rejection');
}

before(async () => {
  folder = await tempDir('paddock-bash-');
  workspace = await Workspace.open(folder.path);
});

beforeEach(() => {
  controller = new AbortController();
  groups = new ProcessGroups();
  ctx = {
    workspace,
    session: new SessionState(groups),
    signal: controller.signal,
    childEnv: childEnv(),
  };
});

afterEach(async () => {
  await ctx.session.dispose();
  await groups.terminateAll();
});

after(async () => {
  await folder.remove();
});

describe('Bash', () => {
  it('returns stdout and stderr interleaved in arrival order, then the exit code', async () => {
    const text = await call(bashTool, {
      command: 'echo out; sleep 0.1; echo err >&2; sleep 0.1; echo again',
    });
    assert.equal(text, 'out\nerr\nagain\nexit code: 0');
  });

  it('runs in the workspace root with stdin closed', async () => {
    // `cat` would wait for input forever on an open stdin; the timeout turns that into a failure.
    const text = await call(bashTool, { command: 'pwd; cat; echo done', timeout: PROMPTLY_MS });
    assert.equal(text, `${workspace.root}\ndone\nexit code: 0`);
  });

  it('says there was no output when there was none', async () => {
    assert.equal(await call(bashTool, { command: 'true' }), '(no output)\nexit code: 0');
  });

  it('reports a non-zero exit as a failure carrying the output and the exit code', async () => {
    const err = await rejection(call(bashTool, { command: 'echo failing; echo why >&2; exit 3' }));
    assert.ok(err instanceof ToolFailure);
    assert.equal(err.message, 'failing\nwhy\nexit code: 3');
  });

  it('accepts timeouts up to the maximum only, defaulting to two minutes', () => {
    assert.equal(bashTool.input.parse({ command: 'true' }).timeout, DEFAULT_TIMEOUT_MS);
    assert.equal(
      bashTool.input.safeParse({ command: 'true', timeout: MAX_TIMEOUT_MS }).success,
      true,
    );
    assert.equal(
      bashTool.input.safeParse({ command: 'true', timeout: MAX_TIMEOUT_MS + 1 }).success,
      false,
    );
  });

  it('kills the whole process group at the timeout and reports exit code 124', async () => {
    const err = await rejection(
      call(bashTool, {
        command: 'echo begun; sleep 300 & echo $! > child.pid; wait',
        timeout: 500,
      }),
    );
    assert.ok(err instanceof ToolFailure);
    assert.equal(err.message, 'begun\nexit code: 124 (timed out after 500 ms)');
    await assertDies(await pidFrom('child.pid'));
  });

  it('kills a command that ignores SIGTERM with SIGKILL after the grace period', async () => {
    const err = await rejection(
      call(bashTool, {
        command: "trap '' TERM; sleep 300 & echo $! > stubborn.pid; wait",
        timeout: 300,
      }),
    );
    assert.match(err.message, /exit code: 124 \(timed out after 300 ms\)$/);
    await assertDies(await pidFrom('stubborn.pid'));
  });

  it('ends what a command left running in the background when it exits', async () => {
    // The grandchild keeps stdout open; the call still returns once bash exits.
    const text = await call(bashTool, {
      command: 'sleep 300 & echo $! > left.pid; echo started',
      timeout: PROMPTLY_MS,
    });
    assert.equal(text, 'started\nexit code: 0');
    await assertDies(await pidFrom('left.pid'));
  });

  it('keeps the head and the tail of long output with the number of characters omitted', async () => {
    const text = await call(bashTool, {
      command: "echo START; head -c 1000000 /dev/zero | tr '\\0' x; echo; echo END",
    });
    const total = 'START\n'.length + 1_000_000 + '\nEND\n'.length;
    const omitted = total - OUTPUT_HEAD_CHARS - OUTPUT_TAIL_CHARS;
    assert.ok(text.startsWith('START\nxxx'), text.slice(0, 20));
    assert.ok(text.includes(`\n… [${omitted} characters of output omitted] …\nxxx`));
    assert.ok(text.endsWith('xxx\nEND\nexit code: 0'), text.slice(-30));
    assert.ok(text.length < OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS + 100, String(text.length));
  });

  it('gives the command exactly the child environment of the context', async () => {
    process.env.SVC_SESSION_SECRET = 'must-not-leak';
    try {
      ctx.childEnv = childEnv({ PADDOCK_CHILD_ONLY: 'visible' });
      const text = await call(bashTool, {
        command: 'echo "${SVC_SESSION_SECRET:-unset} ${PADDOCK_CHILD_ONLY:-unset}"',
      });
      assert.equal(text, 'unset visible\nexit code: 0');
    } finally {
      delete process.env.SVC_SESSION_SECRET;
    }
  });

  it('fails with a clear error when bash cannot be found', async () => {
    ctx.childEnv = { PATH: join(workspace.root, 'no-such-folder') };
    const err = await rejection(call(bashTool, { command: 'true' }));
    assert.ok(!(err instanceof ToolFailure), 'a broken sandbox is not the caller’s mistake');
    assert.match(err.message, /bash was not found on the PATH/);
  });

  it('kills a running command promptly when the call is cancelled', async () => {
    const started = Date.now();
    const result = rejection(call(bashTool, { command: 'sleep 300 & echo $! > cancel.pid; wait' }));
    const pid = await pidFrom('cancel.pid');
    controller.abort();
    const err = await result;
    assert.ok(err instanceof ToolFailure);
    assert.match(err.message, /killed by signal SIGTERM \(the call was cancelled\)$/);
    assert.ok(Date.now() - started < PROMPTLY_MS);
    await assertDies(pid);
  });

  it('does not start a command for a call already cancelled', async () => {
    controller.abort();
    const err = await rejection(call(bashTool, { command: 'touch never-created' }));
    assert.ok(err instanceof ToolFailure);
    await assert.rejects(readFile(join(workspace.root, 'never-created')));
  });

  it('leaves nothing behind when shutdown kills every process group', async () => {
    const result = rejection(
      call(bashTool, { command: 'sleep 300 & echo $! > shutdown.pid; wait' }),
    );
    const pid = await pidFrom('shutdown.pid');
    await groups.terminateAll();
    assert.match((await result).message, /killed by signal SIGTERM$/);
    await assertDies(pid);
  });
});

describe('HeadTailText', () => {
  it('keeps the same head and tail however the output arrives in chunks', () => {
    const text = '😀ab'.repeat(20_000);
    const whole = new HeadTailText(101, 99);
    whole.append(text);
    const pieces = new HeadTailText(101, 99);
    for (let i = 0; i < text.length; i += 7) pieces.append(text.slice(i, i + 7));
    assert.equal(pieces.toString(), whole.toString());
    assert.ok(whole.toString().startsWith('😀ab'.repeat(25)));
    assert.ok(whole.toString().endsWith('😀ab'.repeat(24)));
    assert.ok(!whole.toString().includes('\uFFFD'));
  });
});

describe('background shells', () => {
  it('start at once and BashOutput returns only new output, then the exit code', async () => {
    const text = await call(bashTool, {
      command: 'for i in 1 2 3; do echo $i; sleep 0.2; done',
      description: 'Count to three',
      run_in_background: true,
    });
    assert.match(text, /^Started background shell shell_1 \(Count to three\)\. Use BashOutput/);
    const first = await readShell('shell_1');
    assert.equal(first.state, 'running');
    let seen = first.output;
    const last = await eventually('the shell to exit', async () => {
      const read = await readShell('shell_1');
      seen += read.output;
      return read.state === 'running' ? undefined : read;
    });
    assert.equal(seen, '1\n2\n3\n');
    assert.equal(last.state, 'exited with code 0');
    assert.equal(
      await call(bashOutputTool, { shell_id: 'shell_1' }),
      '(no new output)\nstate: exited with code 0',
    );
  });

  it('are not bound by the timeout', async () => {
    const id = await startShell('sleep 1; echo finished');
    const read = await readUntilFinished(id);
    assert.deepEqual(read, { output: 'finished\n', state: 'exited with code 0' });
  });

  it('report a failing exit code as their state, not as an error', async () => {
    const id = await startShell('echo oops; exit 5');
    const read = await readUntilFinished(id);
    assert.deepEqual(read, { output: 'oops\n', state: 'exited with code 5' });
  });

  it('keep the newest output within their buffer and say how much was dropped', async () => {
    // Nothing reads it until it has exited, so more than the buffer arrives between reads.
    const id = await startShell("head -c 2000000 /dev/zero | tr '\\0' x");
    await untilFinished(id);
    const text = await call(bashOutputTool, { shell_id: id });
    const dropped = 2_000_000 - SHELL_BUFFER_CHARS;
    const omitted = SHELL_BUFFER_CHARS - OUTPUT_HEAD_CHARS - OUTPUT_TAIL_CHARS;
    assert.ok(
      text.startsWith(`[${dropped} characters of earlier output were dropped`),
      text.slice(0, 80),
    );
    assert.ok(text.includes(`… [${omitted} characters of output omitted] …`));
    assert.ok(text.endsWith('xxx\nstate: exited with code 0'), text.slice(-40));
    assert.ok(text.length < OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS + 300, String(text.length));
  });

  it('are killed with their whole process group by KillShell', async () => {
    const id = await startShell('sleep 300 & echo $! > killed.pid; wait');
    const pid = await pidFrom('killed.pid');
    const leader = ctx.session.shells.require(id).pid;
    assert.equal(
      await call(killShellTool, { shell_id: id }),
      `${id} killed: its process group is gone.`,
    );
    await assertDies(pid);
    assert.ok(leader !== undefined && !(await isAlive(leader)));
    assert.equal((await readShell(id)).state, 'killed');
    assert.equal(
      await call(killShellTool, { shell_id: id }),
      `${id} is not running (killed); nothing to kill.`,
    );
  });

  it('that already exited are reported as such by KillShell, not as an error', async () => {
    const id = await startShell('echo quick');
    await untilFinished(id);
    assert.equal(
      await call(killShellTool, { shell_id: id }),
      `${id} is not running (exited with code 0); nothing to kill.`,
    );
    assert.deepEqual(await readShell(id), { output: 'quick\n', state: 'exited with code 0' });
  });

  it('are limited in number per session', async () => {
    const ids: string[] = [];
    for (let i = 0; i < MAX_RUNNING_SHELLS; i++) ids.push(await startShell('sleep 300'));
    const err = await rejection(call(bashTool, { command: 'sleep 300', run_in_background: true }));
    assert.ok(err instanceof ToolFailure);
    assert.match(err.message, new RegExp(`the limit per session is ${MAX_RUNNING_SHELLS}`));
    await call(killShellTool, { shell_id: ids[0] });
    await startShell('true');
  });

  it('are named among the known ids when an unknown one is asked for', async () => {
    const none = await rejection(call(bashOutputTool, { shell_id: 'shell_9' }));
    assert.ok(none instanceof ToolFailure);
    assert.match(none.message, /No background shell with id "shell_9"\. This session has no/);
    const id = await startShell('true');
    const unknown = await rejection(call(bashOutputTool, { shell_id: 'shell_9' }));
    assert.match(unknown.message, new RegExp(`Known shells in this session: ${id}\\.`));
    const kill = await rejection(call(killShellTool, { shell_id: 'shell_9' }));
    assert.ok(kill instanceof ToolFailure);
    assert.match(kill.message, new RegExp(`Known shells in this session: ${id}\\.`));
  });

  it('die with their session', async () => {
    await startShell('sleep 300 & echo $! > one.pid; wait');
    await startShell('sleep 300 & echo $! > two.pid; wait');
    const pids = [await pidFrom('one.pid'), await pidFrom('two.pid')];
    await ctx.session.dispose();
    for (const pid of pids) assert.equal(await isAlive(pid), false, `pid ${pid} survived`);
    const err = await rejection(call(bashTool, { command: 'true', run_in_background: true }));
    assert.ok(err instanceof ToolFailure);
  });

  it('are numbered per session', async () => {
    assert.equal(await startShell('true'), 'shell_1');
    assert.equal(await startShell('true'), 'shell_2');
    const other = { ...ctx, session: new SessionState(groups) };
    try {
      const text = await call(bashTool, { command: 'true', run_in_background: true }, other);
      assert.match(text, /shell_1/);
    } finally {
      await other.session.dispose();
    }
  });
});
