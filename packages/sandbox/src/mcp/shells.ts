import type { GroupExit, ProcessGroup, ProcessGroups } from './process-group.js';
import { ToolFailure } from './tool-failure.js';

/** Background shells one session may have running at once. */
export const MAX_RUNNING_SHELLS = 8;
/** Shells a session remembers; beyond this the oldest finished ones are forgotten. */
export const MAX_KEPT_SHELLS = 32;
/** Characters of unread output buffered per shell; older unread output is dropped beyond it. */
export const SHELL_BUFFER_CHARS = 1024 * 1024;

/** Unread output of a background shell, keeping the newest SHELL_BUFFER_CHARS characters. */
class UnreadOutput {
  private text = '';
  private dropped = 0;

  append(text: string): void {
    this.text += text;
    // Trimmed only once it doubles, so that many small chunks do not each copy the buffer.
    if (this.text.length > 2 * SHELL_BUFFER_CHARS) this.trim();
  }

  /** Everything unread, and how many characters were dropped before it; empties the buffer. */
  take(): { text: string; dropped: number } {
    this.trim();
    const taken = { text: this.text, dropped: this.dropped };
    this.text = '';
    this.dropped = 0;
    return taken;
  }

  private trim(): void {
    if (this.text.length <= SHELL_BUFFER_CHARS) return;
    const drop = this.text.length - SHELL_BUFFER_CHARS;
    this.dropped += drop;
    this.text = this.text.slice(drop);
  }
}

export type ShellState =
  { kind: 'running' } | { kind: 'exited'; exit: GroupExit } | { kind: 'killed'; exit: GroupExit };

/** One command started with run_in_background. */
export class BackgroundShell {
  private readonly unread = new UnreadOutput();
  private readonly group: ProcessGroup;
  private killRequested = false;
  private finished: ShellState | undefined;

  constructor(
    readonly id: string,
    readonly command: string,
    readonly description: string | undefined,
    options: { cwd: string; env: NodeJS.ProcessEnv },
    groups: ProcessGroups,
  ) {
    this.group = groups.spawn(command, {
      ...options,
      onOutput: (text) => this.unread.append(text),
    });
    void this.group.done.then((exit) => this.settle(exit));
  }

  get pid(): number | undefined {
    return this.group.pid;
  }

  get started(): Promise<void> {
    return this.group.started;
  }

  /** 'running' until the shell has exited and all of its output has arrived. */
  get state(): ShellState {
    return this.finished ?? { kind: 'running' };
  }

  /** Output printed since the last call, and how much of it was dropped for lack of room. */
  takeOutput(): { text: string; dropped: number } {
    return this.unread.take();
  }

  /** Terminates the shell's process group and waits until it is gone. */
  async kill(): Promise<void> {
    if (this.finished === undefined) this.killRequested = true;
    this.settle(await this.group.terminate());
  }

  private settle(exit: GroupExit): void {
    this.finished ??= this.killRequested ? { kind: 'killed', exit } : { kind: 'exited', exit };
  }
}

/** The background shells of one MCP session. */
export class BackgroundShells {
  private readonly shells = new Map<string, BackgroundShell>();
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly groups: ProcessGroups,
    private readonly maxRunning = MAX_RUNNING_SHELLS,
  ) {}

  /**
   * Starts `command` in the background; refused with a ToolFailure when the session already has
   * its limit of running shells. Rejects with an Error when bash cannot be started.
   */
  async start(
    command: string,
    options: { cwd: string; env: NodeJS.ProcessEnv; description?: string | undefined },
  ): Promise<BackgroundShell> {
    if (this.disposed) throw new ToolFailure('This session has ended; no new shell can start.');
    const running = this.running();
    if (running.length >= this.maxRunning) {
      throw new ToolFailure(
        `Too many background shells: ${running.length} are running and the limit per session is ` +
          `${this.maxRunning}. Stop one with KillShell (running: ${running.map((s) => s.id).join(', ')}) ` +
          'or wait for one to exit.',
      );
    }
    const id = `shell_${this.nextId++}`;
    const shell = new BackgroundShell(
      id,
      command,
      options.description,
      { cwd: options.cwd, env: options.env },
      this.groups,
    );
    // Registered before awaiting, so that a killAll racing with the start still finds it.
    this.shells.set(id, shell);
    try {
      await shell.started;
    } catch (err) {
      this.shells.delete(id);
      throw err;
    }
    this.forgetOldest();
    return shell;
  }

  get(id: string): BackgroundShell | undefined {
    return this.shells.get(id);
  }

  /** The shell with this id, or a ToolFailure naming the ids that exist. */
  require(id: string): BackgroundShell {
    const shell = this.shells.get(id);
    if (shell) return shell;
    const known = [...this.shells.keys()];
    throw new ToolFailure(
      `No background shell with id "${id}". ` +
        (known.length > 0
          ? `Known shells in this session: ${known.join(', ')}.`
          : 'This session has no background shells.'),
    );
  }

  ids(): string[] {
    return [...this.shells.keys()];
  }

  running(): BackgroundShell[] {
    return [...this.shells.values()].filter((s) => s.state.kind === 'running');
  }

  /** Kills every running shell's process group and waits until they are all gone. */
  async killAll(): Promise<void> {
    await Promise.all(this.running().map((shell) => shell.kill()));
  }

  /** Kills every shell and refuses new ones: the session is over. */
  async dispose(): Promise<void> {
    this.disposed = true;
    await this.killAll();
  }

  private forgetOldest(): void {
    for (const [id, shell] of this.shells) {
      if (this.shells.size <= MAX_KEPT_SHELLS) return;
      if (shell.state.kind !== 'running') this.shells.delete(id);
    }
  }
}
