import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { GROUP_POLL_MS, KILL_GRACE_MS } from '../process/group-signals.js';
import { sessionMembers, signalSession, SIGKILL_WAIT_MS } from '../process/session-signals.js';
import { escalationTime, stopDeadline } from '../process/stop-deadline.js';
/** How long after the shell exits its output pipes may take to close before they are cut. */
const OUTPUT_DRAIN_MS = 500;

/** Characters of a command's output kept from its beginning. */
export const OUTPUT_HEAD_CHARS = 15_000;
/** Characters of a command's output kept from its end (build errors live there). */
export const OUTPUT_TAIL_CHARS = 15_000;

/** How the shell (the group's leader) ended. */
export interface GroupExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Receives stdout and stderr as text, interleaved in arrival order. */
  onOutput: (text: string) => void;
}

/**
 * `bash -c <command>` as the leader of its own session (setsid), so that it and everything it
 * starts can be signalled together: every process group of the session, so that a job that
 * `set -m` moved to a group of its own is reached too (see process/session-signals.ts). A
 * command's processes end with it: when the shell exits, whatever it left running in its session
 * is terminated too.
 */
export class ProcessGroup {
  readonly pid: number | undefined;
  /** Resolves once bash is running; rejects with a clear Error when it cannot be started. */
  readonly started: Promise<void>;
  /** Resolves once the shell has exited, its group is gone and its output is fully delivered. */
  readonly done: Promise<GroupExit>;

  private readonly child: ChildProcess;
  private readonly leaderExit: Promise<GroupExit>;
  private leaderExited = false;
  /** Set once `done` resolves: the pid may then be reused, so the group is never signalled again. */
  private finished = false;
  private killing: Promise<void> | undefined;

  /** Use ProcessGroups.spawn, which registers the group with its owner. */
  constructor(command: string, options: SpawnOptions, live: Set<ProcessGroup>) {
    this.child = spawn('bash', ['-c', command], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // setsid(): its own process group, no controlling terminal
    });
    this.pid = this.child.pid;
    const child = this.child;
    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8'); // decodes multi-byte characters split across chunks
      stream?.on('data', (text: string) => options.onOutput(text));
    }

    this.started = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(
          err.code === 'ENOENT'
            ? new Error(`cannot run commands: bash was not found on the PATH (${err.message})`)
            : new Error(`cannot run bash: ${err.message}`),
        );
      });
    });
    this.started.catch(() => {}); // the caller sees the rejection; it must not go unhandled here

    const leaderExit = new Promise<GroupExit>((resolve) => {
      child.once('exit', (code, signal) => {
        this.leaderExited = true;
        resolve({ code, signal });
      });
    });
    this.leaderExit = leaderExit;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));

    if (this.pid === undefined) {
      this.done = this.started.then(
        () => ({ code: null, signal: null }),
        () => ({ code: null, signal: null }),
      );
      return;
    }
    live.add(this);
    this.done = (async () => {
      const exit = await leaderExit;
      if (await this.hasLiveMembers()) await this.killGroup();
      // A process outside the group (setsid) may still hold the pipes: stop reading after a while.
      if (!(await settlesWithin(closed, OUTPUT_DRAIN_MS))) {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }
      this.finished = true;
      live.delete(this);
      return exit;
    })();
  }

  /**
   * SIGTERM to the whole group, SIGKILL to whatever is left after the grace period; resolves
   * with `done`. Safe to call more than once and after the shell has exited.
   */
  async terminate(): Promise<GroupExit> {
    if (this.pid !== undefined) await this.killGroup();
    return this.done;
  }

  /** Sends a signal to every process of the command's session, now. */
  signalGroup(signal: NodeJS.Signals): void {
    if (this.pid === undefined || this.finished) return;
    signalSession(this.pid, signal);
  }

  private killGroup(): Promise<void> {
    this.killing ??= (async () => {
      this.signalGroup('SIGTERM');
      this.signalGroup('SIGCONT'); // a stopped job acts on SIGTERM only once continued
      const startedAt = Date.now();
      // The grace ends early when the sandbox's shutdown must force everything sooner.
      if (await this.untilGone(() => escalationTime(startedAt, KILL_GRACE_MS, stopDeadline()))) {
        return;
      }
      this.signalGroup('SIGKILL');
      const killedAt = Date.now();
      await this.untilGone(() => killedAt + SIGKILL_WAIT_MS);
    })();
    return this.killing;
  }

  /**
   * True once the shell has exited and no live process remains in its session, false at
   * `until()` (read again at each poll, so that a shutdown starting meanwhile shortens it).
   */
  private async untilGone(until: () => number): Promise<boolean> {
    for (;;) {
      if (this.leaderExited && !(await this.hasLiveMembers())) return true;
      if (Date.now() >= until()) return false;
      // Wake at once when the shell exits; after that, poll the rest of the group.
      await (this.leaderExited
        ? delay(GROUP_POLL_MS)
        : Promise.race([this.leaderExit, delay(GROUP_POLL_MS)]));
    }
  }

  private hasLiveMembers(): Promise<boolean> {
    if (this.pid === undefined) return Promise.resolve(false);
    return Promise.resolve(sessionMembers(this.pid).length > 0);
  }
}

/** Whether `promise` settles within `ms`; the timer does not outlive the answer. */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The commands one MCP listener started and that are not yet gone, so that its shutdown leaves
 * nothing behind. Created by the composition root and passed down, never process-wide: closing one
 * listener must not touch the commands of another in the same process.
 */
export class ProcessGroups {
  private readonly live = new Set<ProcessGroup>();

  /** Starts `bash -c <command>` in its own session, tracked until it is gone; see ProcessGroup. */
  spawn(command: string, options: SpawnOptions): ProcessGroup {
    return new ProcessGroup(command, options, this.live);
  }

  /** Groups started and not yet gone. */
  get size(): number {
    return this.live.size;
  }

  /** Terminates the session of every command still running (SIGTERM, then SIGKILL), and waits. */
  async terminateAll(): Promise<void> {
    await Promise.all([...this.live].map((group) => group.terminate()));
  }

  /** SIGKILLs every live session at once, synchronously: for a process 'exit' handler, the last resort. */
  killAllNow(): void {
    for (const group of this.live) group.signalGroup('SIGKILL');
  }
}

/**
 * A command's output with bounded memory: the first `headChars` and a rolling window of the last
 * `tailChars` characters, with how many were dropped between them.
 */
export class HeadTailText {
  private head = '';
  /** Set once output spilled past the head: from then on everything goes to the tail, in order. */
  private headFull = false;
  private tail = '';
  private omitted = 0;

  constructor(
    private readonly headChars = OUTPUT_HEAD_CHARS,
    private readonly tailChars = OUTPUT_TAIL_CHARS,
  ) {}

  append(text: string): void {
    if (!this.headFull) {
      let cut = this.headChars - this.head.length;
      if (text.length <= cut) {
        this.head += text;
        return;
      }
      if (isHighSurrogate(text.charCodeAt(cut - 1))) cut -= 1; // never split a surrogate pair
      this.head += text.slice(0, cut);
      text = text.slice(cut);
      this.headFull = true;
    }
    this.tail += text;
    // Trimmed only once it doubles, so that many small chunks do not each copy the window.
    if (this.tail.length > 2 * this.tailChars) this.trimTail();
  }

  get isEmpty(): boolean {
    return this.head === '';
  }

  toString(): string {
    this.trimTail();
    if (this.omitted === 0) return this.head + this.tail;
    const head = this.head.endsWith('\n') ? this.head : `${this.head}\n`;
    return `${head}… [${this.omitted} characters of output omitted] …\n${this.tail}`;
  }

  private trimTail(): void {
    if (this.tail.length <= this.tailChars) return;
    let drop = this.tail.length - this.tailChars;
    if (isLowSurrogate(this.tail.charCodeAt(drop))) drop += 1;
    this.omitted += drop;
    this.tail = this.tail.slice(drop);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
