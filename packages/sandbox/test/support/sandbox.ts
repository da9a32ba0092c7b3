import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { start, type Started } from '@paddock/testing';

export const SANDBOX_BIN = join(import.meta.dirname, '..', '..', 'bin', 'paddock-sandbox.js');

export interface RunningSandbox extends Started {
  port: number;
  base: string;
}

/** Starts the compiled paddock-sandbox on a free port and waits until it listens. */
export async function startSandbox(
  workspace: string,
  options: { env?: Record<string, string | undefined>; args?: string[] } = {},
): Promise<RunningSandbox> {
  const sandbox = start(
    process.execPath,
    [SANDBOX_BIN, '-addr', '127.0.0.1:0', '-workspace', workspace, ...(options.args ?? [])],
    { env: { ...process.env, SVC_LOG_FORMAT: 'json', ...options.env } },
  );
  const [, port] = await sandbox.waitForOutput(/"addr":"127\.0\.0\.1:(\d+)"/, 30_000);
  return Object.assign(sandbox, { port: Number(port), base: `http://127.0.0.1:${port}` });
}

export type TransportKind = 'sse' | 'streamable';

/** An MCP SDK client connected over one of the two transports. */
export async function connect(
  base: string,
  kind: TransportKind,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: 'paddock-test', version: '1.0.0' });
  const transport =
    kind === 'sse'
      ? new SSEClientTransport(new URL(`${base}/sse`), {
          requestInit: { headers },
          eventSourceInit: {
            fetch: (url, init) =>
              fetch(url, { ...init, headers: { ...init?.headers, ...headers } }),
          },
        })
      : new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** The text of a tool result (tools return exactly one text item). */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  const first = content[0];
  if (content.length !== 1 || first?.type !== 'text')
    throw new Error(`unexpected content ${JSON.stringify(content)}`);
  return first.text;
}

/** Reads server-sent events from a raw fetch, comments included, for protocol-level tests. */
export async function openEventStream(url: string, headers: Record<string, string> = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  const frames: string[] = [];
  const waiters: Array<() => void> = [];
  /** How the stream ended: the server finished it, or the connection was cut under it. */
  const ended = (async (): Promise<'finished' | 'dropped'> => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          frames.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 2);
          for (const wake of waiters.splice(0)) wake();
        }
      }
      return 'finished';
    } catch {
      return 'dropped';
    } finally {
      for (const wake of waiters.splice(0)) wake();
    }
  })();
  let read = 0;
  /** The next frame matching the predicate (raw text: `event: x\ndata: y` or `: comment`). */
  async function next(
    match: (frame: string) => boolean = () => true,
    timeoutMs = 10_000,
  ): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      while (read < frames.length) {
        const frame = frames[read++]!;
        if (match(frame)) return frame;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no matching event; frames so far: ${JSON.stringify(frames)}`);
      // Woken by the next frame or the stream's end; the timer only bounds a failure.
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        timer = setTimeout(resolve, left);
      });
      clearTimeout(timer);
    }
  }
  return { response, next, ended, close: () => controller.abort() };
}

export function dataOf(frame: string): string {
  return frame
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6))
    .join('\n');
}

export interface RunningApiSandbox extends RunningSandbox {
  apiPort: number;
  apiBase: string;
}

/**
 * The static secret the test proxy sends in X-Paddock-Proof (the sandboxes of the tests hold its
 * SHA-256, as a deployment behind a generic reverse proxy does).
 */
export const TEST_PROXY_SECRET = 'test-proxy-secret-0123456789abcdef0123456789abcdef';
export const TEST_PROXY_SECRET_SHA256 = createHash('sha256')
  .update(TEST_PROXY_SECRET)
  .digest('hex');
/** The proof header of the test proxy, for requests and for paddock-forward's --header. */
export const PROOF = { 'x-paddock-proof': TEST_PROXY_SECRET };

/**
 * Starts the compiled paddock-sandbox with the human-facing listener on a free port and the given
 * flags (e.g. ['-enable-api', '-enable-exec']), and waits until both listeners are up. Outside
 * -dev-mode it requires the test proxy's proof (see `as`) unless `env` configures another.
 */
export async function startApiSandbox(
  workspace: string,
  flags: string[],
  env: Record<string, string | undefined> = {},
): Promise<RunningApiSandbox> {
  const proofConfigured =
    flags.includes('-dev-mode') ||
    'SVC_API_PROOF_PUBLIC_KEY' in env ||
    'SVC_API_PROXY_SECRET_SHA256' in env;
  const sandbox = await startSandbox(workspace, {
    env: proofConfigured ? env : { SVC_API_PROXY_SECRET_SHA256: TEST_PROXY_SECRET_SHA256, ...env },
    args: ['-api-addr', '127.0.0.1:0', ...flags],
  });
  const [, port] = await sandbox.waitForOutput(/"apiAddr":"127\.0\.0\.1:(\d+)"/, 30_000);
  return Object.assign(sandbox, { apiPort: Number(port), apiBase: `http://127.0.0.1:${port}` });
}

/**
 * Identity headers as the auth-terminating proxy in front of the sandbox sets them, with its proof
 * (the test proxy's static secret).
 */
export function as(sub: string, user = sub, groups: string[] = []): Record<string, string> {
  return {
    ...PROOF,
    'x-forwarded-sub': sub,
    'x-forwarded-user': user,
    'x-forwarded-groups': groups.join(','),
  };
}
