import { performance } from 'node:perf_hooks';
import type { IPty } from '@lydell/node-pty';
import { spawnPty } from './pty-on-demand.js';
import type { WebSocket } from 'ws';
import { auditLine } from './audit.js';
import type { ApiContext } from './context.js';
import {
  encodeExitMessage,
  exitMessage,
  parseControlMessage,
  parseExecQuery,
  type ControlMessage,
  type ExecRequest,
} from './exec-protocol.js';
import type { FeatureModule } from './listener.js';
import { ROUTES } from './routes.js';
import { PtyInput } from './pty-input.js';
import { hangUpSession, hasExited, signalForeground } from './terminal-session.js';
import {
  asBuffer,
  CLOSE,
  closeForShutdown,
  closeWith,
  type RouteSession,
  mountWebSocketRoute,
} from './websocket-upgrade.js';

/** Terminal output queued for the client beyond which the pty is no longer read (a `yes` flood). */
export const OUTPUT_HIGH_WATER_BYTES = 256 * 1024;
/** Queued output below which reading the pty resumes. */
export const OUTPUT_LOW_WATER_BYTES = 64 * 1024;
/** How often a paused terminal checks whether the client caught up (ws has no drain event). */
const OUTPUT_POLL_MS = 10;
/** What programs in the terminal are told they talk to: what browser terminals emulate. */
const TERM = 'xterm-256color';
/** The exit code reported when the shell could not be started at all (as a shell says 127). */
const SPAWN_FAILED_EXIT = 127;

/** WebSocket GET /api/exec: an interactive shell (or one command) under a pseudo-terminal. */
export const execFeature: FeatureModule = (app, ctx) => {
  const terminals = mountWebSocketRoute(
    app,
    ROUTES.exec,
    parseExecQuery,
    (socket, query, sub) => new Terminal(socket, query, sub, ctx),
  );
  ctx.metrics?.trackTerminals(terminals);
  return Promise.resolve(terminals);
};

/** One terminal: a shell under a pty, wired to one WebSocket, audited once when the shell ends. */
class Terminal implements RouteSession {
  /** Resolves once the shell has exited, its session is gone and the audit line is written. */
  readonly done: Promise<void>;

  private readonly startedAt = performance.now();
  private readonly pty: IPty | undefined;
  private readonly ptyInput: PtyInput | undefined;
  private outputPaused = false;
  private outputPoll: NodeJS.Timeout | undefined;
  private shellExited = false;
  private hangingUp: Promise<void> | undefined;
  private shuttingDown = false;

  constructor(
    private readonly socket: WebSocket,
    request: ExecRequest,
    private readonly sub: string,
    private readonly ctx: ApiContext,
  ) {
    // Listen before anything asynchronous happens, so that no early frame is lost.
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.input(asBuffer(data));
      else this.control(asBuffer(data).toString('utf8'));
    });
    socket.on('close', () => this.clientGone());

    let pty: IPty | undefined;
    let ptyInput: PtyInput;
    try {
      pty = startShell(request, ctx);
      ptyInput = new PtyInput(pty, () => this.socket.resume());
    } catch (err) {
      pty?.kill('SIGKILL');
      const message = `cannot start the shell: ${(err as Error).message}`;
      ctx.logger.error({ err }, message);
      closeWith(socket, CLOSE.internalError, message);
      this.audit(SPAWN_FAILED_EXIT);
      this.done = Promise.resolve();
      return;
    }
    this.pty = pty;
    this.ptyInput = ptyInput;
    ctx.logger.debug({ sub, pid: pty.pid, oneShot: request.command !== undefined }, 'exec started');
    pty.onData((chunk) => this.output(chunk as unknown as Buffer));
    this.done = new Promise<void>((resolve) => {
      pty.onExit(({ exitCode, signal }) => {
        this.shellExited = true;
        this.ptyInput?.close();
        this.socket.resume(); // input no longer waits: read on so that the closing handshake completes
        this.stopOutputPoll();
        const exit = exitMessage(exitCode, signal);
        if (this.socket.readyState === this.socket.OPEN) {
          this.socket.send(encodeExitMessage(exit));
          closeWith(
            this.socket,
            this.shuttingDown ? CLOSE.goingAway : CLOSE.normal,
            `shell exited with code ${exit.code}`,
          );
        }
        this.audit(exit.code);
        // Whatever the shell left running in its session ends with the terminal.
        void this.hangUp().then(resolve);
      });
    });
  }

  /** Ends the terminal now (sandbox shutdown): the client is told, the shell hung up. */
  shutdown(): Promise<void> {
    this.shuttingDown = true;
    closeForShutdown(this.socket);
    if (!this.shellExited) void this.hangUp();
    return this.done;
  }

  private audit(exit: number): void {
    const ms = performance.now() - this.startedAt;
    this.ctx.audit(auditLine.exec({ sub: this.sub, ms, exit }));
  }

  private hangUp(): Promise<void> {
    if (!this.pty) return Promise.resolve();
    this.hangingUp ??= hangUpSession(this.pty.pid);
    return this.hangingUp;
  }

  private input(bytes: Buffer): void {
    if (!this.ptyInput || this.shellExited) return;
    // Past the high-water mark the client's frames wait in the network until the program reads.
    if (!this.ptyInput.write(bytes)) this.socket.pause();
  }

  private control(text: string): void {
    const parsed = parseControlMessage(text);
    if (!parsed.ok) {
      closeWith(this.socket, CLOSE.policyViolation, parsed.error);
      return;
    }
    this.apply(parsed.value);
  }

  private apply(message: ControlMessage): void {
    if (!this.pty || this.shellExited) return;
    switch (message.type) {
      case 'resize':
        try {
          this.pty.resize(message.cols, message.rows);
        } catch {
          // The pty closed under us: the shell is exiting, and its exit will be reported.
        }
        return;
      case 'signal':
        signalForeground(this.pty.pid, message.signal);
        return;
    }
  }

  private output(chunk: Buffer): void {
    if (this.socket.readyState !== this.socket.OPEN) return; // nobody left to show it to
    this.socket.send(chunk, { binary: true });
    if (!this.outputPaused && this.socket.bufferedAmount > OUTPUT_HIGH_WATER_BYTES) {
      this.outputPaused = true;
      this.pty?.pause();
      this.outputPoll = setInterval(() => this.checkOutput(), OUTPUT_POLL_MS);
    }
  }

  /**
   * Resumes reading once the client caught up, or once the shell has exited: node-pty reports the
   * exit only after the pty is read to its end, and cuts it after 200 ms; what is left is bounded by
   * the kernel's pty buffer.
   */
  private checkOutput(): void {
    const closed = this.socket.readyState !== this.socket.OPEN;
    const exited = this.pty !== undefined && hasExited(this.pty.pid);
    if (closed || exited || this.socket.bufferedAmount <= OUTPUT_LOW_WATER_BYTES) {
      this.stopOutputPoll();
    }
  }

  private stopOutputPoll(): void {
    clearInterval(this.outputPoll);
    this.outputPoll = undefined;
    if (this.outputPaused) {
      this.outputPaused = false;
      this.pty?.resume();
    }
  }

  /** The client went away (or the socket was closed for it): the terminal hangs up. */
  private clientGone(): void {
    this.stopOutputPoll(); // let node-pty read the pty to its end so that it notices the exit
    if (!this.shellExited) void this.hangUp();
  }
}

/** `bash -lc <command>`, or the user's login shell; in the workspace root, sized as asked. */
function startShell(request: ExecRequest, ctx: ApiContext): IPty {
  const shell =
    ctx.childEnv.SHELL !== undefined && ctx.childEnv.SHELL !== '' ? ctx.childEnv.SHELL : 'bash';
  const [file, args] =
    request.command === undefined ? [shell, ['-l']] : ['bash', ['-lc', request.command]];
  return spawnPty(file, args, {
    name: TERM,
    cols: request.cols,
    rows: request.rows,
    cwd: ctx.workspace.root,
    env: { ...ctx.childEnv, TERM },
    encoding: null, // raw bytes: a multi-byte character split across reads must not be mangled
  });
}
