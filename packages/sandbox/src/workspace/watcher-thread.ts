import { parentPort, workerData } from 'node:worker_threads';
import { WorkspaceWatcher, type Change } from './watcher.js';

/**
 * The watcher thread: chokidar and the change classifier run here, so that a storm of file-system
 * events (a folder renamed in a loop) costs this thread's time, never the time of the thread that
 * answers /healthz, tool calls and the human API. Changes cross to the main thread in batches.
 */

/** Changes cross to the main thread at most this often (each batch is one message). */
export const FLUSH_INTERVAL_MS = 50;
/**
 * Changes one batch may hold. A burst beyond it is dropped whole and reported as an overflow: the
 * clients get a reset and refetch the tree, which costs less than thousands of events each.
 */
export const MAX_BATCH_CHANGES = 2_000;

/** What the watcher thread tells the main thread. */
export type WatcherMessage =
  | { type: 'ready' }
  | { type: 'changes'; changes: Change[] }
  | { type: 'overflow' }
  | { type: 'warn'; message: string };

/**
 * Collects changes and hands them on in batches of at most `max`, at most every `intervalMs`; a
 * burst beyond `max` in one interval becomes one overflow. Memory is bounded by `max`.
 */
export class ChangeBatcher {
  private pending: Change[] = [];
  private overflowed = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly send: (message: WatcherMessage) => void,
    private readonly max = MAX_BATCH_CHANGES,
    private readonly intervalMs = FLUSH_INTERVAL_MS,
  ) {}

  add(change: Change): void {
    if (this.overflowed) return;
    if (this.pending.length >= this.max) {
      this.overflowed = true;
      this.pending = [];
    } else {
      this.pending.push(change);
    }
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.overflowed) this.send({ type: 'overflow' });
    else if (this.pending.length > 0) this.send({ type: 'changes', changes: this.pending });
    this.pending = [];
    this.overflowed = false;
  }
}

/** Runs the thread when this module is a worker's entry (workerData names the workspace root). */
function runThread(): void {
  const port = parentPort;
  const root = (workerData as { root?: unknown } | null)?.root;
  if (!port || typeof root !== 'string') return;
  const send = (message: WatcherMessage) => port.postMessage(message);
  const batcher = new ChangeBatcher(send);
  const watcher = new WorkspaceWatcher(
    root,
    (change) => batcher.add(change),
    (err) => send({ type: 'warn', message: err instanceof Error ? err.message : String(err) }),
  );
  void watcher.ready.then(() => send({ type: 'ready' }));
  port.on('message', (message: { type?: string }) => {
    if (message.type === 'close') void watcher.close().then(() => port.close());
  });
}

runThread();
