import { spawn } from 'node:child_process';
import { join } from 'node:path';

export const FORWARD_BIN = join(import.meta.dirname, '..', '..', 'bin', 'paddock-forward.js');

/** Longest any one command of these tests may run before it is killed and reported. */
export const COMMAND_TIMEOUT_MS = 60_000;

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a program to its end with stdin closed (or fed `input`), collecting what it printed. */
export function run(
  command: string,
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, [...args], {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    if (options.input !== undefined) child.stdin?.end(options.input);
    const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** paddock-forward, the compiled command, with the environment given (HOME among it). */
export function runForward(args: readonly string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return run(process.execPath, [FORWARD_BIN, ...args], { env });
}
