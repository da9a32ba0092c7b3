import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { prefixColor, prefixLine } from './log-prefix.js';
import { nextRestart } from './restart-policy.js';

export interface ComponentSpec {
  name: string;
  command: string;
  args: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Answers 2xx once the component can serve; the next component starts only after it does. */
  readyUrl?: string;
  /** Printed once the whole platform is ready: addresses, credentials, next steps. */
  banner?: readonly string[];
  /**
   * Runs once the component is ready, before the next one starts (e.g. installing resources);
   * the lines it returns join the banner. A failure stops the start.
   */
  afterReady?: () => Promise<string[]>;
}

export interface SupervisorOptions {
  /** Where prefixed lines go. */
  out: NodeJS.WritableStream;
  color?: boolean;
  readyTimeoutMs?: number;
  /** How long a component has between SIGTERM and SIGKILL. */
  stopTimeoutMs?: number;
}

interface Running {
  spec: ComponentSpec;
  child: ChildProcess;
  exited: Promise<number | null>;
  crashes: number[];
}

/**
 * Runs components as separate processes, each in its own process group (so a terminal's Ctrl-C
 * reaches only the supervisor, which then stops them in reverse order). Their output is prefixed
 * with their name. A component that exits on its own is restarted with back-off; one that keeps
 * crashing stops the whole platform, which `failed` then reports.
 */
export class Supervisor {
  private readonly running = new Map<string, Running>();
  /** Banner lines that afterReady steps produced, by component. */
  readonly extraBanner = new Map<string, string[]>();
  private readonly width: number;
  private stopping = false;
  private failure: ((reason: string) => void) | undefined;
  /** Resolves with a reason when a component could not be kept running. */
  readonly failed: Promise<string>;

  constructor(
    private readonly specs: readonly ComponentSpec[],
    private readonly options: SupervisorOptions,
  ) {
    this.width = Math.max(7, ...specs.map((s) => s.name.length));
    this.failed = new Promise((resolve) => (this.failure = resolve));
  }

  /** Writes a line of the supervisor's own. */
  say(line: string): void {
    this.options.out.write(
      `${prefixLine('paddock', this.width, line, this.options.color ? 1 : undefined)}\n`,
    );
  }

  /** Starts every component in order, each after the previous one is ready. */
  async start(): Promise<void> {
    for (const [index, spec] of this.specs.entries()) {
      if (this.stopping) return;
      this.launch(spec, index, []);
      if (spec.readyUrl) await this.waitReady(spec);
      if (spec.afterReady) this.extraBanner.set(spec.name, await spec.afterReady());
    }
  }

  private launch(spec: ComponentSpec, index: number, crashes: number[]): void {
    const child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: { ...process.env, ...spec.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const color = this.options.color ? prefixColor(index) : undefined;
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) =>
        this.options.out.write(`${prefixLine(spec.name, this.width, line, color)}\n`),
      );
    }
    const exited = new Promise<number | null>((resolve) => {
      child.on('error', (err) => {
        this.say(`${spec.name} could not start: ${err.message}`);
        resolve(null);
      });
      child.on('exit', (code, signal) => resolve(signal ? null : code));
    });
    const entry: Running = { spec, child, exited, crashes };
    this.running.set(spec.name, entry);
    void exited.then((code) => this.onExit(entry, index, code));
  }

  private async onExit(entry: Running, index: number, code: number | null): Promise<void> {
    if (this.stopping) return;
    const now = Date.now();
    entry.crashes.push(now);
    const delay = nextRestart(entry.crashes, now);
    if (delay === 'give-up') {
      this.failure?.(`${entry.spec.name} keeps exiting (last exit code ${code ?? 'signal'})`);
      return;
    }
    this.say(`${entry.spec.name} exited with ${code ?? 'a signal'}; restarting in ${delay} ms`);
    await sleep(delay);
    if (!this.stopping) this.launch(entry.spec, index, entry.crashes);
  }

  private async waitReady(spec: ComponentSpec): Promise<void> {
    const deadline = Date.now() + (this.options.readyTimeoutMs ?? 60_000);
    while (!this.stopping) {
      try {
        const res = await fetch(spec.readyUrl!, { signal: AbortSignal.timeout(2000) });
        await res.body?.cancel();
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        throw new Error(`${spec.name} was not ready at ${spec.readyUrl} in time`);
      }
      await sleep(100);
    }
  }

  /** Stops the components in reverse order: SIGTERM to each process group, SIGKILL after the timeout. */
  async stop(): Promise<void> {
    this.stopping = true;
    const timeout = this.options.stopTimeoutMs ?? 15_000;
    for (const spec of [...this.specs].reverse()) {
      const entry = this.running.get(spec.name);
      if (!entry || entry.child.exitCode !== null || entry.child.signalCode !== null) continue;
      signalGroup(entry.child, 'SIGTERM');
      const result = await Promise.race([
        entry.exited,
        sleep(timeout, 'timeout' as const, { ref: false }),
      ]);
      if (result === 'timeout') {
        this.say(`${spec.name} did not stop in ${timeout} ms; killing it`);
        signalGroup(entry.child, 'SIGKILL');
        await entry.exited;
      }
    }
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}
