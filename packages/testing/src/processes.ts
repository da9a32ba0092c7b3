import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child process whose output is collected, for tests that read what it printed. */
export interface Started {
  child: ChildProcess;
  output: () => string;
  /** Resolves when the output matches, or rejects when the process exits or time runs out first. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Signals the process and waits for it to go; SIGKILL if it does not within the timeout. */
  stop: (
    signal?: NodeJS.Signals,
    timeoutMs?: number,
  ) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export function start(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): Started {
  const child = spawn(command, [...args], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  live.add(child);
  let text = '';
  const listeners = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      text += chunk;
      for (const listener of listeners) listener();
    });
  }
  const exited = once(child, 'exit').then(([code, signal]) => {
    live.delete(child);
    for (const listener of listeners) listener();
    return { code: code as number | null, signal: signal as NodeJS.Signals | null };
  });

  const waitForOutput = (pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`timed out waiting for ${pattern} in output:\n${text}`));
      }, timeoutMs);
      const check = () => {
        const match = text.match(pattern);
        if (match) {
          clearTimeout(timer);
          listeners.delete(check);
          resolve(match);
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          listeners.delete(check);
          reject(new Error(`process exited before printing ${pattern}; output:\n${text}`));
        }
      };
      listeners.add(check);
      check();
    });

  const stop = async (signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 15_000) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const result = await Promise.race([exited, sleep(timeoutMs, undefined, { ref: false })]);
    if (result) return result;
    child.kill('SIGKILL');
    return exited;
  };

  return { child, output: () => text, waitForOutput, exited, stop };
}
