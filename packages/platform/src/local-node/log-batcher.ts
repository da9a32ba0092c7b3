export interface LogBatcherOptions {
  /** How long a line may wait for others to join it. */
  delayMs?: number;
  /** A batch this big goes at once instead of waiting. */
  maxBatchBytes?: number;
  /** Beyond this much waiting (the cluster is slow or away), the oldest lines are dropped. */
  maxPendingBytes?: number;
  /** A write that failed: its lines are dropped, never retried (the log must not stall). */
  onError?: (err: unknown) => void;
}

/** Longer lines are cut, as a kubelet splits them: one line must fit a request. */
const MAX_LINE_CHARS = 16 * 1024;

/**
 * Gathers a process's output lines into few writes: a line waits up to delayMs for others, and
 * while one batch is being written the next gathers, so a chatty process costs one request per
 * batch, not per line. Lines keep their order.
 */
export class LogBatcher {
  private readonly delayMs: number;
  private readonly maxBatchBytes: number;
  private readonly maxPendingBytes: number;
  private readonly onError: (err: unknown) => void;
  private lines: string[] = [];
  private bytes = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;

  constructor(
    private readonly write: (text: string) => Promise<void>,
    options: LogBatcherOptions = {},
  ) {
    this.delayMs = options.delayMs ?? 100;
    this.maxBatchBytes = options.maxBatchBytes ?? 256 * 1024;
    this.maxPendingBytes = options.maxPendingBytes ?? 4 * 1024 * 1024;
    this.onError = options.onError ?? (() => {});
  }

  add(line: string): void {
    const text = `${line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) : line}\n`;
    this.lines.push(text);
    this.bytes += Buffer.byteLength(text);
    while (this.bytes > this.maxPendingBytes && this.lines.length > 1) {
      this.bytes -= Buffer.byteLength(this.lines.shift()!);
      this.dropped++;
    }
    if (this.bytes >= this.maxBatchBytes) this.send();
    else if (!this.writing) this.timer ??= setTimeout(() => this.send(), this.delayMs);
  }

  /** Resolves once every line added so far is written (or given up on). */
  async flush(): Promise<void> {
    this.send();
    while (this.writing) await this.writing;
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.writing || this.lines.length === 0) return;
    let size = 0;
    let count = 0;
    while (count < this.lines.length && (count === 0 || size < this.maxBatchBytes)) {
      size += Buffer.byteLength(this.lines[count]!);
      count++;
    }
    const batch = this.lines.splice(0, count);
    this.bytes -= size;
    if (this.dropped > 0) {
      batch.unshift(`[${this.dropped} lines dropped: the cluster did not take them in time]\n`);
      this.dropped = 0;
    }
    this.writing = this.write(batch.join(''))
      .catch(this.onError)
      .finally(() => {
        this.writing = undefined;
        // What gathered meanwhile goes at once: it has waited long enough.
        this.send();
      });
  }
}
