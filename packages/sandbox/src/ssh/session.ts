import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { constants } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import type { IPty } from '@lydell/node-pty';
import { spawnPty } from '../api/pty-on-demand.js';
import type { Logger } from '@paddock/common';
import type { PseudoTtyInfo, ServerChannel, Session } from 'ssh2';
import type { Workspace } from '../workspace/containment.js';
import { serveSftp } from './sftp.js';
import { killGroup, signalGroup } from '../process/group-signals.js';

/** Variables one session may set with `env` requests. */
export const MAX_ENV_VARS = 64;
/** Longest variable name and value a client may set (a locale is short; a GIT_PROTOCOL too). */
export const MAX_ENV_NAME_CHARS = 128;
export const MAX_ENV_VALUE_CHARS = 4096;
/** Terminal size when the client asks for 0 columns or rows (a pty-req without a size). */
const DEFAULT_COLS = 80;
const DEFAULT_ROWS = 24;
/** Largest terminal side accepted; bigger requests are clamped (the kernel takes 16 bits). */
const MAX_TERMINAL_SIDE = 10_000;
/**
 * How long what a command left running in its group may go on after the command exited: time for
 * a daemon started with `setsid -f` or `nohup setsid` to leave the group between its fork and its
 * setsid(), which a kill at once would race.
 */
export const LEFTOVER_GRACE_MS = 1_000;
/**
 * After the command exits, how long its output pipes may stay silent (and not blocked by a slow
 * client) before they are cut: a process that escaped the group (setsid) may hold them forever.
 */
const OUTPUT_IDLE_MS = 500;
/** How often the pipes are checked while waiting for them to drain after the command exited. */
const DRAIN_POLL_MS = 50;
/** Exit code reported when bash itself cannot be started (as a shell reports "command not found"). */
const SPAWN_FAILED_EXIT = 127;

/**
 * Variables a client may never set. Dynamic-loader variables and bash's startup hooks act before
 * the requested command is even parsed, in every program the server starts for the session; the
 * identity variables and the SSH_/PADDOCK_/SVC_ namespaces are the server's to set.
 */
const REFUSED_ENV_PREFIXES = ['LD_', 'DYLD_', 'BASH_FUNC_', 'SSH_', 'PADDOCK_', 'SVC_'];
const REFUSED_ENV_NAMES = new Set([
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'IFS',
  'HOME',
  'USER',
  'LOGNAME',
  'SHELL',
  'PATH',
  'MAIL',
]);

/** Whether an `env` request is accepted: the reason when it is not. */
export function refuseEnv(name: string, value: string, alreadySet: number): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || name.length > MAX_ENV_NAME_CHARS) {
    return 'not a valid variable name';
  }
  if (value.length > MAX_ENV_VALUE_CHARS || value.includes('\0'))
    return 'value too long or holds NUL';
  if (alreadySet >= MAX_ENV_VARS) return `at most ${MAX_ENV_VARS} variables per session`;
  const upper = name.toUpperCase();
  if (REFUSED_ENV_NAMES.has(upper) || REFUSED_ENV_PREFIXES.some((p) => upper.startsWith(p))) {
    return 'reserved or dangerous variable';
  }
  return undefined;
}

/** A terminal side as the client asked, within what a pty takes. */
export function terminalSide(requested: number, fallback: number): number {
  if (!Number.isInteger(requested) || requested <= 0) return fallback;
  return Math.min(requested, MAX_TERMINAL_SIDE);
}

/** `TERM` for a pty: the client's, when it is a plausible terminal name. */
export function terminalName(requested: string): string {
  return /^[A-Za-z0-9._+-]{1,64}$/.test(requested) ? requested : 'xterm';
}

/** The signal name a channel reports (`TERM`), from a number or a Node name. */
function signalName(signal: number | NodeJS.Signals): string {
  if (typeof signal === 'string') return signal.replace(/^SIG/, '');
  const entry = Object.entries(constants.signals).find(([, n]) => n === signal);
  return entry ? entry[0].replace(/^SIG/, '') : 'KILL';
}

/** The exit code the audit line shows for a signal: 128 + its number, as shells report it. */
function signalExitCode(signal: number | NodeJS.Signals): number {
  const n = typeof signal === 'number' ? signal : constants.signals[signal];
  return 128 + (n ?? 9);
}

/** Signals a client may send with a `signal` request (RFC 4254's list, minus the exotic ones). */
const FORWARDED_SIGNALS = new Set(['HUP', 'INT', 'KILL', 'QUIT', 'TERM', 'USR1', 'USR2']);

/**
 * Ends a session's process group once. When the channel or connection closes while the command
 * runs, the group is killed (SIGTERM, then SIGKILL). When the command exited by itself, what it
 * left in its group gets SIGHUP LEFTOVER_GRACE_MS later, the hangup of a closed terminal, as
 * OpenSSH's sshd leaves it: `sleep 300 &` dies of it, while a process started with `nohup` (as
 * VS Code Remote-SSH starts its server) or `setsid` lives on.
 */
function groupEnder(pgid: number | undefined) {
  let ending: Promise<void> | undefined;
  const end = (afterMs: number, finish: (pgid: number) => Promise<void> | void) =>
    (ending ??= pgid === undefined ? Promise.resolve() : delay(afterMs).then(() => finish(pgid)));
  return {
    now: () => end(0, killGroup),
    afterExit: () =>
      end(LEFTOVER_GRACE_MS, (group) => {
        signalGroup(group, 'SIGHUP');
        signalGroup(group, 'SIGCONT');
      }),
  };
}

export interface SessionOptions {
  workspace: Workspace;
  /** The environment every command of the connection starts from (sandbox env, SSH_*, PADDOCK_SUB). */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  /** Bounds the SFTP server's open handles. */
  maxSftpHandles: number;
  /** Called with the exit code of every command or shell of the session when it ends. */
  onExit: (code: number) => void;
  /** Registers a process group to kill when the connection closes; returns the unregister function. */
  track: (kill: () => Promise<void>) => () => void;
}

/** What runs in a session channel: a command or shell, in a pty or on pipes. */
interface Running {
  resize(cols: number, rows: number): void;
  signal(name: string): void;
  /** Ends the process group (channel closed, connection gone, shutdown). */
  terminate(): Promise<void>;
}

/**
 * One `session` channel: pty-req, window-change, env, signal, then one of shell, exec or the sftp
 * subsystem. The command runs as `bash -c <command>` (a shell as `bash -l`) in the workspace root, in
 * its own process group, which is killed when the channel closes.
 */
export function serveSession(session: Session, options: SessionOptions): void {
  const env = new Map<string, string>();
  let pty: PseudoTtyInfo | undefined;
  let running: Running | undefined;
  let closed = false;

  session.on('env', (accept, reject, info) => {
    const reason = refuseEnv(info.key, info.val, env.size);
    if (reason !== undefined || running) {
      options.logger.debug(
        { name: info.key.slice(0, MAX_ENV_NAME_CHARS), reason },
        'ssh env refused',
      );
      reject?.();
      return;
    }
    env.set(info.key, info.val);
    accept?.();
  });

  session.on('pty', (accept, reject, info) => {
    if (running || pty) return void reject?.();
    pty = info;
    accept?.();
  });

  session.on('window-change', (accept, _reject, info) => {
    if (pty) {
      pty.cols = info.cols;
      pty.rows = info.rows;
    }
    running?.resize(info.cols, info.rows);
    accept?.();
  });

  session.on('signal', (accept, reject, info) => {
    const name = info.name.replace(/^SIG/, '');
    if (!running || !FORWARDED_SIGNALS.has(name)) return void reject?.();
    running.signal(name);
    accept?.();
  });

  const start = (channel: ServerChannel, command: string | undefined) => {
    const args = command === undefined ? ['-l'] : ['-c', command];
    const processEnv = { ...options.env, ...Object.fromEntries(env) };
    channel.on('error', (err: Error) => options.logger.debug({ err }, 'ssh channel error'));
    running = pty
      ? runInPty(channel, args, processEnv, pty, options)
      : runOnPipes(channel, args, processEnv, options);
    const untrack = options.track(() => running?.terminate() ?? Promise.resolve());
    channel.once('close', () => {
      untrack();
      void running?.terminate();
    });
    if (closed) void running.terminate();
  };

  // accept() gives nothing when the session is already closing (its typings do not say so).
  session.on('shell', (accept) => {
    const channel = accept() as ServerChannel | undefined;
    if (channel) start(channel, undefined);
  });

  session.on('exec', (accept, _reject, info) => {
    const channel = accept() as ServerChannel | undefined;
    if (channel) start(channel, info.command);
  });

  // sftp is taken as a plain subsystem (no `sftp` listener), so that its channel is ours to write
  // what ssh2's SFTP stream cannot: the extensions (see sftp-channel.ts).
  session.on('subsystem', (accept, reject, info) => {
    if (info.name !== 'sftp') return void reject?.(); // sftp is the only subsystem
    const channel = accept() as ServerChannel | undefined;
    if (!channel) return;
    serveSftp(channel, {
      workspace: options.workspace,
      logger: options.logger,
      maxHandles: options.maxSftpHandles,
    });
  });

  session.once('close', () => {
    closed = true;
    void running?.terminate();
  });
}

/** What a session runs when its command could not start. */
const NOTHING_RUNNING: Running = {
  resize: () => {},
  signal: () => {},
  terminate: () => Promise.resolve(),
};

/** Sends the exit status (which OpenSSH needs before the close, or it reports 255), then closes. */
function finishChannel(
  channel: ServerChannel,
  code: number | null,
  signal: number | NodeJS.Signals | null,
): number {
  if (signal !== null && signal !== 0) {
    channel.exit(signalName(signal), false, '');
    channel.end();
    return signalExitCode(signal);
  }
  channel.exit(code ?? 0);
  channel.end();
  return code ?? 0;
}

function runInPty(
  channel: ServerChannel,
  args: string[],
  env: NodeJS.ProcessEnv,
  info: PseudoTtyInfo,
  options: SessionOptions,
): Running {
  let term: IPty;
  try {
    term = spawnPty('bash', args, {
      name: terminalName(info.term),
      cols: terminalSide(info.cols, DEFAULT_COLS),
      rows: terminalSide(info.rows, DEFAULT_ROWS),
      cwd: options.workspace.root,
      env: { ...env, TERM: terminalName(info.term) },
      encoding: null, // raw bytes both ways: the pty may carry any binary output
    });
  } catch (err) {
    channel.stderr.write(`cannot start a terminal: ${(err as Error).message}\n`);
    options.onExit(finishChannel(channel, SPAWN_FAILED_EXIT, null));
    return NOTHING_RUNNING;
  }
  const group = groupEnder(term.pid); // forkpty makes bash a session and group leader
  let exited = false;

  term.onData((chunk) => {
    // With encoding null node-pty hands out Buffers (its typings say string): bytes pass as they are.
    if (!channel.write(chunk)) {
      term.pause();
      channel.once('drain', () => term.resume());
    }
  });
  channel.on('data', (data: Buffer) => term.write(data as unknown as string));
  // End of input from the client does not hang the terminal up, as with OpenSSH's sshd.
  term.onExit(({ exitCode, signal }) => {
    exited = true;
    options.onExit(finishChannel(channel, exitCode, signal ?? null));
    void group.afterExit();
  });

  return {
    resize: (cols, rows) => {
      if (!exited) term.resize(terminalSide(cols, DEFAULT_COLS), terminalSide(rows, DEFAULT_ROWS));
    },
    signal: (name) => void signalGroup(term.pid, `SIG${name}` as NodeJS.Signals),
    terminate: group.now,
  };
}

function runOnPipes(
  channel: ServerChannel,
  args: string[],
  env: NodeJS.ProcessEnv,
  options: SessionOptions,
): Running {
  let child: ChildProcessWithoutNullStreams;
  try {
    child = spawn('bash', args, {
      cwd: options.workspace.root,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // setsid(): its own process group, no controlling terminal
    });
  } catch (err) {
    // A command with a NUL byte cannot become an argument.
    channel.stderr.write(`cannot run the command: ${(err as Error).message}\n`);
    options.onExit(finishChannel(channel, SPAWN_FAILED_EXIT, null));
    return NOTHING_RUNNING;
  }
  const pgid = child.pid;
  const group = groupEnder(pgid);

  let lastOutputAt = Date.now();
  const touch = () => (lastOutputAt = Date.now());
  child.stdout.on('data', touch);
  child.stderr.on('data', touch);
  // pipe() carries backpressure both ways: a slow client pauses the command's output.
  child.stdout.pipe(channel, { end: false });
  child.stderr.pipe(channel.stderr, { end: false });
  channel.pipe(child.stdin);
  child.stdin.on('error', () => {}); // EPIPE: the command stopped reading; its input is moot

  const outputEnded = (
    stream: NodeJS.ReadableStream & { readableEnded: boolean; destroyed: boolean },
  ) => stream.readableEnded || stream.destroyed;

  let finished = false;
  const finish = (code: number | null, signal: NodeJS.Signals | null) => {
    if (finished) return;
    finished = true;
    options.onExit(finishChannel(channel, code, signal));
    void group.afterExit();
  };

  child.once('error', (err) => {
    channel.stderr.write(`cannot run bash: ${err.message}\n`);
    finish(SPAWN_FAILED_EXIT, null);
  });

  child.once('exit', (code, signal) => {
    // What the command left running in its group ends shortly after it (as with the MCP Bash tool).
    void group.afterExit();
    void (async () => {
      // Deliver every byte the command wrote before reporting its exit; cut pipes held open by a
      // process that left the group once they have been silent (and not blocked) for a while.
      for (;;) {
        if (outputEnded(child.stdout) && outputEnded(child.stderr)) break;
        const blocked =
          child.stdout.isPaused() || child.stderr.isPaused() || channel.writableNeedDrain;
        if (!blocked && Date.now() - lastOutputAt > OUTPUT_IDLE_MS) {
          child.stdout.unpipe(channel);
          child.stderr.unpipe(channel.stderr);
          child.stdout.destroy();
          child.stderr.destroy();
          break;
        }
        await delay(DRAIN_POLL_MS);
      }
      finish(code, signal);
    })();
  });

  return {
    resize: () => {}, // no terminal
    signal: (name) => {
      if (pgid !== undefined) signalGroup(pgid, `SIG${name}` as NodeJS.Signals);
    },
    terminate: group.now,
  };
}
