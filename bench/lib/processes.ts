import { readFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { start, type Started } from '@paddock/testing';

/** Starts a server process and waits for it to print the port it listens on. */
export async function startServer(
  command: string,
  args: readonly string[],
  portPattern: RegExp,
  env: Record<string, string> = {},
): Promise<Started & { port: number }> {
  const server = start(command, args, { env: { ...process.env, ...env } });
  const [, port] = await server.waitForOutput(portPattern, 60_000);
  return Object.assign(server, { port: Number(port) });
}

/** Peak resident memory of a live process in MiB (VmHWM), read from /proc. */
export function peakRssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

/**
 * Drives HTTP load with autocannon in a separate process, so the load generator does not share an
 * event loop (or a core's worth of JavaScript) with the server being measured.
 */
export async function httpLoad(
  url: string,
  options: {
    connections: number;
    seconds: number;
    method?: string;
    body?: string;
    headers?: Record<string, string>;
  },
): Promise<LoadResult> {
  const args = [
    'node_modules/autocannon/autocannon.js',
    '--json',
    '-c',
    String(options.connections),
    '-d',
    String(options.seconds),
    '-m',
    options.method ?? 'GET',
  ];
  for (const [name, value] of Object.entries(options.headers ?? {}))
    args.push('-H', `${name}=${value}`);
  if (options.body !== undefined) args.push('-b', options.body);
  args.push(url);
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}`);
  const result = JSON.parse(out) as {
    requests: { average: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}
