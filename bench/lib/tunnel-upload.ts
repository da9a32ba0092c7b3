import type { WebSocket } from 'ws';

const MiB = 1024 * 1024;

/**
 * Sends `total` bytes of `chunk` frames up a port-forward tunnel, keeping 4 MiB queued: woken by
 * the send callbacks rather than polling, which would take CPU from the servers on a 2-core
 * machine.
 */
export async function sendUpTunnel(ws: WebSocket, chunk: Buffer, total: number): Promise<void> {
  let wake: (() => void) | undefined;
  const sent = () => {
    if (wake && ws.bufferedAmount <= 2 * MiB) {
      wake();
      wake = undefined;
    }
  };
  for (let queued = 0; queued < total; queued += chunk.length) {
    ws.send(chunk, sent);
    if (ws.bufferedAmount > 4 * MiB) await new Promise<void>((r) => (wake = r));
  }
}
