import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
// The sandbox's process and the test proxy's proof live in @paddock/testing, shared with the other
// packages whose tests run a sandbox.
export {
  as,
  PROOF,
  SANDBOX_BIN,
  startApiSandbox,
  startSandbox,
  TEST_PROXY_SECRET,
  TEST_PROXY_SECRET_SHA256,
  type RunningApiSandbox,
  type RunningSandbox,
} from '@paddock/testing';

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
