import { Worker } from 'node:worker_threads';
import type { Logger } from '@paddock/common';
import type { WatcherMessage } from './watcher-thread.js';
import { EVENT_RING_CAPACITY, EventRing } from './watcher.js';

/**
 * How long the watcher keeps running after its last subscriber left, so that a client that
 * reconnects at once (a dropped connection, a page reload) resumes without a reset.
 */
export const DEFAULT_WATCH_LINGER_MS = 30_000;
/** How long a closing watcher thread gets to stop chokidar before it is terminated. */
const STOP_WAIT_MS = 2_000;

/**
 * The workspace watcher, shared by every /api/events subscriber and started only for them: nothing
 * watches the workspace while nobody listens. It runs in its own thread (watcher-thread.ts); its
 * changes land in one EventRing on this thread, whose ids go on across restarts, with a gap (a
 * reset for resuming clients) where changes went unseen.
 */
export class SharedWatcher {
  readonly ring = new EventRing(EVENT_RING_CAPACITY);
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private users = 0;
  private linger: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly root: string,
    private readonly logger: Logger,
    private readonly lingerMs = DEFAULT_WATCH_LINGER_MS,
  ) {}

  /** Whether the watcher thread runs now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Counts a subscriber in, starting the watcher for the first one, and resolves once it reports
   * changes; the returned function counts it out (once).
   */
  async acquire(): Promise<() => void> {
    if (this.closed) throw new Error('the workspace watcher is closed');
    this.users++;
    clearTimeout(this.linger);
    this.linger = undefined;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.release();
    };
    try {
      await (this.ready ?? this.start());
    } catch (err) {
      release();
      throw err;
    }
    return release;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.linger);
    await this.stop();
  }

  private release(): void {
    this.users--;
    if (this.users > 0 || this.closed) return;
    this.linger = setTimeout(() => void this.stop(), this.lingerMs);
    this.linger.unref();
  }

  private start(): Promise<void> {
    const [entry, options] = threadEntry();
    const worker = new Worker(entry, { ...options, workerData: { root: this.root } });
    worker.unref();
    this.worker = worker;
    this.ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WatcherMessage) => {
        switch (message.type) {
          case 'ready':
            return resolve();
          case 'changes':
            for (const change of message.changes) this.ring.push(change);
            return;
          case 'overflow':
            this.logger.debug('workspace watcher: a burst of changes was dropped; clients reset');
            return this.ring.gap();
          case 'warn':
            return this.logger.warn(
              { err: message.message },
              'workspace watcher: some changes may go unreported',
            );
        }
      });
      worker.once('error', (err) => {
        this.logger.warn({ err }, 'workspace watcher stopped');
        reject(err);
      });
      worker.once('exit', () => {
        reject(new Error('the workspace watcher stopped before it was ready'));
        if (this.worker !== worker) return;
        // Changes after this point go unseen: resuming clients must refetch the tree.
        this.worker = undefined;
        this.ready = undefined;
        this.ring.gap();
      });
    });
    this.logger.debug('workspace watcher started');
    return this.ready;
  }

  private async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = undefined;
    this.ready = undefined;
    this.ring.gap();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ type: 'close' });
    const cut = setTimeout(() => void worker.terminate(), STOP_WAIT_MS);
    await exited;
    clearTimeout(cut);
    this.logger.debug('workspace watcher stopped');
  }
}

/**
 * The watcher thread's entry. Compiled, it is watcher-thread.js beside this file; run from the
 * TypeScript sources (tests, through tsx), the thread registers tsx before importing it, as worker
 * threads of Node 20 do not inherit the loader hooks.
 */
function threadEntry(): [string | URL, { eval?: boolean }] {
  if (!import.meta.url.endsWith('.ts'))
    return [new URL('./watcher-thread.js', import.meta.url), {}];
  const entry = new URL('./watcher-thread.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return [
    `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); })`,
    { eval: true },
  ];
}
