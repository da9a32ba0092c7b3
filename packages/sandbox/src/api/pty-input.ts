import { writeSync } from 'node:fs';
import type { IPty } from '@lydell/node-pty';

/** Input queued for a terminal beyond which the client's frames are no longer read (a huge paste). */
export const INPUT_HIGH_WATER_BYTES = 256 * 1024;
/** How soon a full terminal is offered its input again: its program has not read what it has. */
const INPUT_RETRY_MS = 5;

/** What this module needs of node-pty's UnixTerminal beyond its typed surface. */
interface PtyInternals {
  /** The pty master, opened non-blocking by node-pty. */
  fd?: unknown;
  /** node-pty's stream over `fd`; destroyed means `fd` is closed and its number may be reused. */
  _socket?: { destroyed?: unknown };
}

/**
 * Keystrokes for a terminal, written without ever blocking the event loop.
 *
 * node-pty's own write goes through a libuv TTY stream, which uses blocking writes on a pty master:
 * when the program does not read its input (a raw-mode program busy elsewhere) and the kernel's
 * queue is full, libuv retries EAGAIN in a loop and the whole sandbox freezes. Writing to the
 * non-blocking master ourselves turns "full" into EAGAIN, retried on a timer, and gives the caller
 * backpressure. The writes are synchronous on the event loop, like node-pty's close of the fd, so a
 * write can never reach a reused descriptor.
 */
export class PtyInput {
  private readonly queue: Buffer[] = [];
  private queuedBytes = 0;
  private retry: NodeJS.Timeout | undefined;
  private closed = false;
  private readonly internals: { fd: number; socket: { destroyed?: unknown } };

  constructor(
    pty: IPty,
    /** Called when everything queued has been written. */
    private readonly onDrain: () => void,
  ) {
    const internals = pty as unknown as PtyInternals;
    if (typeof internals.fd !== 'number' || typeof internals._socket !== 'object') {
      throw new Error(
        'this node-pty version does not expose the pty master; input cannot be written safely',
      );
    }
    this.internals = { fd: internals.fd, socket: internals._socket };
  }

  /** Bytes accepted but not yet written to the terminal. */
  get queued(): number {
    return this.queuedBytes;
  }

  /** Queues bytes; false once more than INPUT_HIGH_WATER_BYTES wait (stop reading the client). */
  write(bytes: Buffer): boolean {
    if (this.closed) return true;
    this.queue.push(bytes);
    this.queuedBytes += bytes.length;
    if (this.retry === undefined) this.flush();
    return this.queuedBytes <= INPUT_HIGH_WATER_BYTES;
  }

  /** Drops whatever is queued: the terminal is gone. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    this.queue.length = 0;
    this.queuedBytes = 0;
  }

  private flush(): void {
    this.retry = undefined;
    if (this.closed) return;
    if (this.internals.socket.destroyed !== false) return this.close();
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      let written: number;
      try {
        written = writeSync(this.internals.fd, head);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') return this.close(); // EIO: hung up
        this.retry = setTimeout(() => this.flush(), INPUT_RETRY_MS);
        return;
      }
      this.queuedBytes -= written;
      if (written === head.length) this.queue.shift();
      else this.queue[0] = head.subarray(written);
    }
    this.onDrain();
  }
}
