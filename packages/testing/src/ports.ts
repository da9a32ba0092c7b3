import { createServer } from 'node:net';

/**
 * Ports are chosen below the system's ephemeral range (32768 and up on Linux), which it hands to
 * outgoing connections and to `listen(0)`: a port chosen there could be taken by any connection a
 * parallel test opens before its peer binds it. Below, only peers told their port listen.
 */
const LOWEST = 20_000;
const BELOW_EPHEMERAL = 32_768;
/** Ports this process handed out: never twice. */
const given = new Set<number>();

function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port that was free a moment ago on 127.0.0.1, for a peer that must be told its port up front;
 * with `span`, the ports after it are free too (for a peer that takes the next ones as well).
 */
export async function freePort(span = 1): Promise<number> {
  for (let attempt = 0; attempt < 1000; attempt++) {
    const first = LOWEST + Math.floor(Math.random() * (BELOW_EPHEMERAL - LOWEST - span));
    const ports = Array.from({ length: span }, (_, i) => first + i);
    if (ports.some((p) => given.has(p))) continue;
    const free = await Promise.all(ports.map(bindable));
    if (free.every(Boolean)) {
      for (const p of ports) given.add(p);
      return first;
    }
  }
  throw new Error(`no ${span} free consecutive ports below ${BELOW_EPHEMERAL}`);
}
