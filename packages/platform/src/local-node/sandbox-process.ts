import { setPriority } from 'node:os';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

/** The niceness of pod processes: below the platform's own, which stays at 0. */
export const POD_NICENESS = 10;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not start at all. */
  error?: Error;
}

export interface SandboxProcessOptions {
  /** The command file: paddock-sandbox or paddock-agent. */
  bin: string;
  /** The Node.js flags the image runs it with. */
  nodeFlags: readonly string[];
  /** The container's args, already expanded and rewritten for this machine. */
  args: readonly string[];
  /** The whole environment of the process (nothing of this process's is added). */
  env: Record<string, string>;
  cwd: string;
  /** Each line the process writes, on stdout or stderr. */
  onLine: (line: string) => void;
}

/** How long the last lines of an exited process may take to be read before its exit counts. */
const OUTPUT_DRAIN_MS = 1000;

/**
 * One paddock-sandbox process: a pod's container, run on this machine. It stays
 * in this process's group, so that whoever stops this process's group (the platform's supervisor)
 * stops the sandboxes too, even with SIGKILL.
 */
export class SandboxProcess {
  readonly child: ChildProcess;
  /** Resolves once the process exited and its output was read. */
  readonly exited: Promise<Exit>;

  constructor(options: SandboxProcessOptions) {
    this.child = spawn(process.execPath, [...options.nodeFlags, options.bin, ...options.args], {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Pods yield the CPU to the platform (cluster, operator, node), as a kubelet's reserved
    // resources keep a node's own daemons responsive: a hundred sandboxes starting at once must
    // not starve the API server into missed lease renewals.
    if (this.child.pid !== undefined) {
      try {
        setPriority(this.child.pid, POD_NICENESS);
      } catch {
        // Not permitted here: the pod runs at the node's own priority.
      }
    }
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

/**
 * Whether a process could listen on each of the ports at the address now: another program (or
 * another node agent on this machine) may hold some. Checked before an address is given to a pod.
 */
export async function portsAreFree(address: string, ports: readonly number[]): Promise<boolean> {
  for (const port of ports) {
    if (!(await canListen(address, port))) return false;
  }
  return true;
}

async function canListen(address: string, port: number): Promise<boolean> {
  const server = createServer();
  const listening = once(server, 'listening').then(
    () => true,
    () => false,
  );
  server.listen({ port, host: address, exclusive: true });
  if (!(await listening)) return false;
  server.close();
  await once(server, 'close');
  return true;
}
