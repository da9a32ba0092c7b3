import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { LOCAL_IP } from './replicas.js';

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not start at all. */
  error?: Error;
}

export interface SandboxProcessOptions {
  /** The paddock-sandbox command file. */
  bin: string;
  port: number;
  workspace: string;
  /** Added to this process's environment. */
  env: Record<string, string>;
  /** Each line the process writes, on stdout or stderr. */
  onLine: (line: string) => void;
}

/** How long the last lines of an exited process may take to be read before its exit counts. */
const OUTPUT_DRAIN_MS = 1000;

/**
 * One paddock-sandbox process serving a replica's workspace over MCP on a loopback port. It stays
 * in this process's group, so that whoever stops this process's group (the platform's supervisor)
 * stops the sandboxes too, even with SIGKILL.
 */
export class SandboxProcess {
  readonly child: ChildProcess;
  /** Resolves once the process exited and its output was read. */
  readonly exited: Promise<Exit>;

  constructor(options: SandboxProcessOptions) {
    this.child = spawn(
      process.execPath,
      [options.bin, '-addr', `${LOCAL_IP}:${options.port}`, '-workspace', options.workspace],
      { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    for (const stream of [this.child.stdout, this.child.stderr]) {
      if (stream)
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', options.onLine);
    }
    this.exited = new Promise((resolve) => {
      this.child.once('error', (error) => {
        if (this.child.pid === undefined) resolve({ code: null, signal: null, error });
      });
      this.child.once('exit', (code, signal) => {
        // A command the sandbox started may hold its output open: wait for it only a moment.
        void Promise.race([
          once(this.child, 'close'),
          sleep(OUTPUT_DRAIN_MS, undefined, { ref: false }),
        ]).then(() => resolve({ code, signal }));
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return (
      this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null
    );
  }

  /** Resolves true once /readyz answers 200, false if the process exits first. */
  async ready(port: number, pollMs = 200): Promise<boolean> {
    let gone = false;
    void this.exited.then(() => (gone = true));
    while (!gone) {
      try {
        const res = await fetch(`http://${LOCAL_IP}:${port}/readyz`, {
          signal: AbortSignal.timeout(2000),
        });
        await res.body?.cancel();
        if (res.ok) return !gone;
      } catch {
        // not listening yet
      }
      await Promise.race([sleep(pollMs), this.exited]);
    }
    return false;
  }

  /** SIGTERM, then SIGKILL after the grace period; resolves once it exited. */
  async stop(graceMs: number): Promise<Exit> {
    if (!this.running) return this.exited;
    this.child.kill('SIGTERM');
    const first = await Promise.race([
      this.exited,
      sleep(graceMs, 'timeout' as const, { ref: false }),
    ]);
    if (first !== 'timeout') return first;
    this.child.kill('SIGKILL');
    return this.exited;
  }

  /** SIGKILL, synchronously: for an exit handler, where nothing can be awaited. */
  killNow(): void {
    if (this.running) this.child.kill('SIGKILL');
  }
}

/** A port free on the loopback address a moment ago. */
export async function freePort(): Promise<number> {
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no port to listen on');
  return port;
}

/** Whether a process could listen on the port on the loopback address now. */
export async function portIsFree(port: number): Promise<boolean> {
  return (await tryListen(port)) !== undefined;
}

async function tryListen(port: number): Promise<number | undefined> {
  const server = createServer();
  const listening = once(server, 'listening').then(
    () => true,
    () => false,
  );
  server.listen(port, LOCAL_IP);
  if (!(await listening)) return undefined;
  const address = server.address();
  server.close();
  await once(server, 'close');
  return address !== null && typeof address === 'object' ? address.port : undefined;
}
