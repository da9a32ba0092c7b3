import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createHash, randomBytes } from 'node:crypto';
import { readFile, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { schemaCompilers } from '@paddock/common/lazy-schemas';
import { tempDir, eventually, isAlive, assertDies } from '@paddock/testing';
import {
  exitMessage,
  MAX_COMMAND_LENGTH,
  parseControlMessage,
  parseExecQuery,
} from '../src/api/exec-protocol.js';
import { closeReason, MAX_CLOSE_REASON_BYTES } from '../src/api/websocket-upgrade.js';
import { as, startApiSandbox, type RunningApiSandbox } from './support/sandbox.js';

/** Generous bound for "promptly": far above what a healthy run needs, far below a hang. */
const PROMPTLY_MS = 10_000;
/** The keepalive interval the ping tests run with, in seconds. */
const TEST_PING_SECONDS = 1;
/** Input sent to a program that does not read it: far more than every queue on the way holds. */
const INPUT_FLOOD_BYTES = 8 * 1024 * 1024;
/** Frames of that input, under the listener's 1 MiB message limit. */
const INPUT_FRAME_BYTES = 64 * 1024;
/**
 * Output a flooding command may have written that the stalled client has not received: what every
 * queue on the way holds (pty, the sandbox's bounded queue, the sockets). An unbounded queue in
 * the sandbox never stalls the command, and exceeds it.
 */
const MAX_IN_FLIGHT_BYTES = 16 * 1024 * 1024;
/** Pings a client that answers them sees while connected: more than the server would wait. */
const PINGS_SEEN = 3;

let folder: { path: string; remove: () => Promise<void> };
let root: string;
let sandbox: RunningApiSandbox;

before(async () => {
  folder = await tempDir('paddock-exec-');
  root = await realpath(folder.path);
  sandbox = await startApiSandbox(folder.path, ['-enable-exec']);
});

after(async () => {
  await sandbox.stop();
  await folder.remove();
});

interface Closed {
  code: number;
  reason: string;
}

/** A terminal client: everything the server sent, and helpers to wait for it. */
interface TerminalClient {
  ws: WebSocket;
  /** The terminal's output so far, decoded as UTF-8. */
  output: () => string;
  /** The control messages received, parsed. */
  messages: unknown[];
  closed: Promise<Closed>;
  untilOutput: (pattern: RegExp) => Promise<RegExpMatchArray>;
  type: (text: string) => void;
}

function execUrl(params: Record<string, string> = {}, base = sandbox.apiBase): string {
  const url = new URL('/api/exec', base.replace(/^http/, 'ws'));
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

async function openTerminal(
  params: Record<string, string> = {},
  options: { sub?: string; base?: string; autoPong?: boolean } = {},
): Promise<TerminalClient> {
  const ws = new WebSocket(execUrl(params, options.base), {
    headers: as(options.sub ?? 'alice'),
    autoPong: options.autoPong ?? true,
  });
  const chunks: Buffer[] = [];
  const messages: unknown[] = [];
  ws.on('message', (data: Buffer, isBinary) => {
    if (isBinary) chunks.push(data);
    else messages.push(JSON.parse(data.toString('utf8')));
  });
  const closed = once(ws, 'close').then(([code, reason]) => ({
    code: code as number,
    reason: (reason as Buffer).toString('utf8'),
  }));
  await once(ws, 'open');
  const output = () => Buffer.concat(chunks).toString('utf8');
  return {
    ws,
    output,
    messages,
    closed,
    untilOutput: (pattern) =>
      eventually(`output matching ${pattern}`, () => output().match(pattern) ?? undefined),
    type: (text) => ws.send(Buffer.from(text), { binary: true }),
  };
}

/** The HTTP answer to a WebSocket handshake the server refused. */
async function refusedUpgrade(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: unknown }> {
  const ws = new WebSocket(url, { headers });
  ws.on('error', () => {}); // the refusal is read from 'unexpected-response'
  const [, res] = (await once(ws, 'unexpected-response')) as [
    unknown,
    NodeJS.ReadableStream & { statusCode: number },
  ];
  let text = '';
  for await (const chunk of res) text += String(chunk);
  ws.terminate();
  return { status: res.statusCode, body: JSON.parse(text) };
}

/** The pid a command wrote to a file of the workspace, once it is there. */
function pidFrom(name: string): Promise<number> {
  return eventually(`${name} to hold a pid`, async () => {
    const text = await readFile(join(folder.path, name), 'utf8').catch(() => '');
    return /^\d+\n$/.test(text) ? Number(text) : undefined;
  });
}

/**
 * The audit lines of one subject, once `count` of them are there and a later session's line has
 * followed them: a duplicate, written as its session ends, would come before that one.
 */
async function auditLinesOf(sub: string, count = 1): Promise<string[]> {
  const linesOf = (who: string) =>
    sandbox
      .output()
      .split('\n')
      .filter((l) => l.startsWith(`api exec sub=${who} `));
  await eventually(`${count} audit line(s) for ${sub}`, () =>
    linesOf(sub).length >= count ? true : undefined,
  );
  const marker = `${sub}-after`;
  const after = await openTerminal({ command: 'exit 0' }, { sub: marker });
  await after.closed;
  await eventually(`the audit line for ${marker}`, () =>
    linesOf(marker).length > 0 ? true : undefined,
  );
  return linesOf(sub);
}

/** Bytes a process has written so far (/proc/<pid>/io wchar). */
async function bytesWrittenBy(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, 'utf8');
  const written = /^wchar: (\d+)$/m.exec(io)?.[1];
  assert.ok(written, 'wchar in /proc/<pid>/io');
  return Number(written);
}

/** The state letter of a process (/proc/<pid>/stat): S while it waits in a system call. */
async function stateOf(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
}

const DURATION = String.raw`(\d+(\.\d+)?(µs|ms|s)|\d+m\d+(\.\d+)?s|\d+h\d+m\d+(\.\d+)?s)`;

describe('exec framing', () => {
  // The listener's first hook loads the schema compilers; outside a request, the test does.
  before(() => schemaCompilers.load());

  it('defaults the terminal to 80x24 and takes cols, rows and command from the query', () => {
    assert.deepEqual(parseExecQuery({}), {
      ok: true,
      value: { cols: 80, rows: 24, command: undefined },
    });
    assert.deepEqual(parseExecQuery({ cols: '132', rows: '1', command: 'ls' }), {
      ok: true,
      value: { cols: 132, rows: 1, command: 'ls' },
    });
    assert.deepEqual(parseExecQuery({ cols: '1000', rows: '1000' }), {
      ok: true,
      value: { cols: 1000, rows: 1000, command: undefined },
    });
  });

  it('refuses sizes outside 1..1000 or not in plain digits, repeated or unknown parameters', () => {
    for (const query of [
      { cols: '0' },
      { rows: '1001' },
      { cols: '-5' },
      { cols: '1.5' },
      { cols: '8e1' },
      { cols: ' 80' },
      { cols: '' },
      { cols: ['80', '81'] },
      { command: ['ls', 'pwd'] },
      { command: '   ' },
      { command: 'x'.repeat(MAX_COMMAND_LENGTH + 1) },
      { host: 'db' },
    ]) {
      assert.equal(parseExecQuery(query).ok, false, JSON.stringify(query).slice(0, 80));
    }
  });

  it('parses resize and signal control messages and refuses anything else', () => {
    assert.deepEqual(parseControlMessage('{"type":"resize","cols":120,"rows":40}'), {
      ok: true,
      value: { type: 'resize', cols: 120, rows: 40 },
    });
    assert.deepEqual(parseControlMessage('{"type":"signal","signal":"SIGINT"}'), {
      ok: true,
      value: { type: 'signal', signal: 'SIGINT' },
    });
    for (const text of [
      'not json',
      '[]',
      'null',
      '{"type":"resize","cols":0,"rows":10}',
      '{"type":"resize","cols":10.5,"rows":10}',
      '{"type":"resize","cols":"80","rows":24}',
      '{"type":"signal","signal":"SIGSEGV"}',
      '{"type":"signal"}',
      '{"type":"paste","data":"x"}',
      `{"type":"resize","cols":80,"rows":24,"pad":"${'x'.repeat(2000)}"}`,
    ]) {
      assert.equal(parseControlMessage(text).ok, false, text.slice(0, 80));
    }
  });

  it('always reports an exit code, 128 + N for a signal', () => {
    assert.deepEqual(exitMessage(3, 0), { type: 'exit', code: 3, signal: null });
    assert.deepEqual(exitMessage(0, undefined), { type: 'exit', code: 0, signal: null });
    assert.deepEqual(exitMessage(0, 1), { type: 'exit', code: 129, signal: 'SIGHUP' });
    assert.deepEqual(exitMessage(0, 9), { type: 'exit', code: 137, signal: 'SIGKILL' });
  });

  it('cuts close reasons to the 123 bytes the protocol allows, never inside a character', () => {
    assert.equal(closeReason('short'), 'short');
    const long = closeReason('é'.repeat(200));
    assert.ok(Buffer.byteLength(long) <= MAX_CLOSE_REASON_BYTES);
    assert.ok(long.endsWith('é...'));
    const emoji = closeReason('😀'.repeat(100));
    assert.ok(Buffer.byteLength(emoji) <= MAX_CLOSE_REASON_BYTES);
    assert.ok(!emoji.includes('\ufffd'));
  });
});

describe('GET /api/exec', () => {
  it('runs a one-shot command, then sends its exit code once and closes with 1000', async () => {
    const term = await openTerminal({ command: 'echo hello; exit 3' });
    const closed = await term.closed;
    assert.match(term.output(), /hello/);
    assert.deepEqual(term.messages, [{ type: 'exit', code: 3, signal: null }]);
    assert.equal(closed.code, 1000);
  });

  it('runs an interactive login shell in the workspace root with TERM=xterm-256color', async () => {
    const term = await openTerminal();
    term.type('echo $((6*7))\n');
    // The echo of the typed line and the prompt's escape sequences come before the answer.
    await term.untilOutput(/[\r\n]42\r\n/);
    term.type('echo "cwd=$PWD term=$TERM"\n');
    await term.untilOutput(new RegExp(`cwd=${root} term=xterm-256color`));
    term.type('exit\n');
    const closed = await term.closed;
    assert.deepEqual(term.messages, [{ type: 'exit', code: 0, signal: null }]);
    assert.equal(closed.code, 1000);
  });

  it('sizes the terminal from the query and from resize messages', async () => {
    const oneShot = await openTerminal({ command: 'stty size', cols: '100', rows: '30' });
    await oneShot.closed;
    assert.match(oneShot.output(), /^30 100\r?\n/);

    const term = await openTerminal();
    term.type('stty size\n');
    await term.untilOutput(/[\r\n]24 80\r\n/);
    term.ws.send(JSON.stringify({ type: 'resize', cols: 120, rows: 40 }));
    term.type('stty size\n');
    await term.untilOutput(/[\r\n]40 120\r\n/);
    term.type('exit\n');
    await term.closed;
  });

  it('passes raw bytes both ways, multi-byte characters included', async () => {
    const term = await openTerminal({
      command: 'head -c 6 | od -An -tx1; printf "\\xe2\\x82\\xac\\n"',
    });
    term.type('é€\n'); // 6 bytes: c3 a9 e2 82 ac 0a; the terminal hands the line over at the newline
    await term.closed;
    assert.match(term.output(), /c3 a9 e2 82 ac 0a/);
    assert.match(term.output(), /€/);
  });

  it('reports the signal that killed the shell with code 128 + N', async () => {
    const term = await openTerminal({ command: 'kill -TERM $$' });
    await term.closed;
    assert.deepEqual(term.messages, [{ type: 'exit', code: 143, signal: 'SIGTERM' }]);
  });

  it("delivers a signal message to the terminal's foreground job", async () => {
    const term = await openTerminal({
      command: "trap 'echo got-int; exit 5' INT; echo ready; sleep 300; echo not-reached",
    });
    await term.untilOutput(/ready/);
    term.ws.send(JSON.stringify({ type: 'signal', signal: 'SIGINT' }));
    const closed = await term.closed;
    assert.match(term.output(), /got-int/);
    assert.doesNotMatch(term.output(), /not-reached/);
    assert.deepEqual(term.messages, [{ type: 'exit', code: 5, signal: null }]);
    assert.equal(closed.code, 1000);
  });

  it('kills the whole process group of a command when the client closes the socket', async () => {
    const sub = 'exec-leaver';
    const term = await openTerminal({ command: 'sleep 300 & echo $! > group.pid; wait' }, { sub });
    const pid = await pidFrom('group.pid');
    assert.ok(await isAlive(pid));
    term.ws.close();
    await term.closed;
    await assertDies(pid);
    // The shell died of the SIGHUP: its code is reported, never a placeholder.
    const lines = await auditLinesOf(sub);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /exit=129$/);
  });

  it("kills an interactive shell's background jobs, each in its own group, when the client leaves", async () => {
    const term = await openTerminal();
    term.type('sleep 300 & echo $! > job.pid\n');
    const pid = await pidFrom('job.pid');
    assert.ok(await isAlive(pid));
    term.ws.terminate(); // the connection drops without a closing handshake
    await assertDies(pid);
  });

  it('ends what a command left running in its session when the shell exits', async () => {
    const term = await openTerminal({ command: 'sleep 300 & echo $! > leftover.pid; exit 0' });
    await term.closed;
    assert.deepEqual(term.messages, [{ type: 'exit', code: 0, signal: null }]);
    await assertDies(await pidFrom('leftover.pid'));
  });

  it('writes exactly one audit line per session, with the duration and the exit code', async () => {
    const sub = 'exec-auditor';
    const term = await openTerminal({ command: 'exit 7' }, { sub });
    await term.closed;
    const lines = await auditLinesOf(sub);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, new RegExp(`^api exec sub=${sub} duration=${DURATION} exit=7$`));
  });

  it('closes with 1008 and a reason on an invalid control message, and hangs the shell up', async () => {
    const sub = 'exec-garbler';
    const term = await openTerminal({ command: 'echo $$ > garbled.pid; sleep 300' }, { sub });
    const pid = await pidFrom('garbled.pid');
    term.ws.send('this is not JSON');
    const closed = await term.closed;
    assert.equal(closed.code, 1008);
    assert.match(closed.reason, /not JSON/);
    await assertDies(pid);
    assert.equal((await auditLinesOf(sub)).length, 1);

    const other = await openTerminal({ command: 'sleep 300' });
    other.ws.send(JSON.stringify({ type: 'paste', data: 'x' }));
    assert.equal((await other.closed).code, 1008);
  });

  it('stops reading a flooding command while the client does not read, and loses nothing', async () => {
    const line = '0123456789abcdefghijklmnopqrstuvwxyz';
    const term = await openTerminal({ command: `echo $$ > flood.pid; exec yes ${line}` });
    const pid = await pidFrom('flood.pid');
    await term.untilOutput(/0123456789/);
    term.ws.pause(); // stop reading: the queues towards us fill up, then the server must stop
    // Stalled: the command waits in its write and wrote nothing since the previous look.
    let previous = -1;
    const written = await eventually('the command stalled', async () => {
      const now = await bytesWrittenBy(pid);
      const stalled = now === previous && (await stateOf(pid)) === 'S';
      previous = now;
      return stalled ? now : undefined;
    });
    // The terminal sent each line ending as \r\n; the command wrote \n.
    const inFlight = written - Buffer.byteLength(term.output().replaceAll('\r\n', '\n'));
    assert.ok(
      inFlight < MAX_IN_FLIGHT_BYTES,
      `${inFlight} bytes written and not delivered while stalled`,
    );
    term.ws.resume();
    const seen = term.output().length;
    await eventually('more output after resuming', () =>
      term.output().length > seen + 1_000_000 ? true : undefined,
    );
    // Every line arrived whole, in order: no chunk was dropped while paused.
    const lines = term.output().split('\r\n').slice(0, -1);
    assert.ok(lines.every((l) => l === line));
    term.ws.close();
    await term.closed;
  });

  it('keeps serving while a program does not read a flood of input, and delivers all of it later', async () => {
    const payload = randomBytes(INPUT_FLOOD_BYTES);
    const term = await openTerminal({
      command: `stty raw -echo; echo ready; while [ ! -e input.go ]; do sleep 0.05; done; head -c ${INPUT_FLOOD_BYTES} | sha256sum`,
    });
    await term.untilOutput(/ready/);
    for (let at = 0; at < payload.length; at += INPUT_FRAME_BYTES) {
      term.ws.send(payload.subarray(at, at + INPUT_FRAME_BYTES), { binary: true });
    }
    // Backed up: the sandbox takes no more of the input, and the client holds the rest.
    let previous = -1;
    await eventually('the input backed up', () => {
      const buffered = term.ws.bufferedAmount;
      const stuck = buffered > 0 && buffered === previous;
      previous = buffered;
      return stuck ? true : undefined;
    });
    const response = await fetch(`${sandbox.apiBase}/api/exec`, {
      headers: as('alice'),
      signal: AbortSignal.timeout(PROMPTLY_MS),
    });
    assert.equal(response.status, 426, 'the sandbox still answers');
    await writeFile(join(folder.path, 'input.go'), '');
    const digest = createHash('sha256').update(payload).digest('hex');
    await term.untilOutput(new RegExp(`${digest}  -`));
    await term.closed;
  });

  it('refuses a request without identity with 401 before the upgrade', async () => {
    const refusal = await refusedUpgrade(execUrl(), {});
    assert.equal(refusal.status, 401);
    assert.deepEqual(Object.keys(refusal.body as object), ['error', 'message']);
    assert.equal((refusal.body as { error: string }).error, 'unauthorized');
  });

  it('answers a bad size or an unknown parameter with 400 before the upgrade', async () => {
    const mistakes: Array<Record<string, string>> = [
      { cols: '0' },
      { rows: '1001' },
      { cols: 'abc' },
      { shell: 'zsh' },
    ];
    for (const params of mistakes) {
      const refusal = await refusedUpgrade(execUrl(params), as('alice'));
      assert.equal(refusal.status, 400, JSON.stringify(params));
      assert.equal((refusal.body as { error: string }).error, 'invalid_request');
    }
  });

  it('answers a plain GET without Upgrade with 426, Upgrade: websocket and the envelope', async () => {
    const response = await fetch(`${sandbox.apiBase}/api/exec`, { headers: as('alice') });
    assert.equal(response.status, 426);
    assert.equal(response.headers.get('upgrade'), 'websocket');
    const body = (await response.json()) as { error: string; message: string };
    assert.equal(body.error, 'upgrade_required');
    assert.match(body.message, /WebSocket/);
  });
});

describe('exec keepalive', () => {
  let pinging: RunningApiSandbox;
  before(async () => {
    pinging = await startApiSandbox(folder.path, ['-enable-exec'], {
      SVC_API_PING_SECONDS: String(TEST_PING_SECONDS),
    });
  });
  after(async () => {
    await pinging.stop();
  });

  it('keeps a client that answers pings connected', async () => {
    const term = await openTerminal({ command: 'sleep 300' }, { base: pinging.apiBase });
    let pings = 0;
    term.ws.on('ping', () => (pings += 1));
    await eventually(`${PINGS_SEEN} pings`, () => (pings >= PINGS_SEEN ? true : undefined));
    assert.equal(term.ws.readyState, WebSocket.OPEN);
    term.ws.close();
    await term.closed;
  });

  it('drops a client that stops answering pings, and hangs its shell up', async () => {
    const term = await openTerminal(
      { command: 'echo $$ > silent.pid; sleep 300' },
      { base: pinging.apiBase, autoPong: false },
    );
    const pid = await pidFrom('silent.pid');
    const closed = await term.closed;
    assert.equal(closed.code, 1006); // terminated: no closing handshake
    await assertDies(pid);
  });
});

describe('exec at shutdown', () => {
  it('hangs every terminal up, tells its client 1001 and audits it when the sandbox stops', async () => {
    const stopping = await startApiSandbox(folder.path, ['-enable-exec']);
    try {
      const term = await openTerminal(
        { command: 'echo $$ > shutdown.pid; sleep 300' },
        { base: stopping.apiBase, sub: 'exec-at-shutdown' },
      );
      const pid = await pidFrom('shutdown.pid');
      const exited = await stopping.stop('SIGTERM');
      assert.equal(exited.code, 0);
      const closed = await term.closed;
      assert.equal(closed.code, 1001);
      assert.equal(await isAlive(pid), false);
      const lines = stopping
        .output()
        .split('\n')
        .filter((l) => l.startsWith('api exec sub=exec-at-shutdown '));
      assert.equal(lines.length, 1);
      assert.match(lines[0]!, /exit=129$/);
    } finally {
      await stopping.stop();
    }
  });
});

describe('GET /api/exec with -enable-exec off', () => {
  let other: RunningApiSandbox;
  before(async () => {
    other = await startApiSandbox(folder.path, ['-enable-port-forward']);
  });
  after(async () => {
    await other.stop();
  });

  it('answers 404 to plain requests and to upgrades alike', async () => {
    const response = await fetch(`${other.apiBase}/api/exec`, { headers: as('alice') });
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { error: string }).error, 'not_found');
    const refusal = await refusedUpgrade(execUrl({}, other.apiBase), as('alice'));
    assert.equal(refusal.status, 404);
  });
});
