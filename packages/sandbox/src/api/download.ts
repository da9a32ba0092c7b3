import type { Stats } from 'node:fs';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { lstat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import type { Logger } from '@paddock/common';
import { ZipFile } from 'yazl';
import { walk } from '../workspace/walk.js';
import { contentDisposition, fileStream, OPEN_FOR_READING } from './file.js';

/** Downloads running at once: each one deflates on this process's CPU; the next one gets 503. */
export const MAX_CONCURRENT_DOWNLOADS = 8;

/** Formats whose data is already compressed: stored as is, as deflating them again costs CPU for nothing. */
export const STORED_EXTENSIONS: ReadonlySet<string> = new Set(
  '.zip .gz .tgz .png .jpg .jpeg .gif .webp .mp4 .mp3 .woff2 .xz .zst .bz2 .7z .jar .pdf'.split(
    ' ',
  ),
);

export function shouldCompress(name: string): boolean {
  return !STORED_EXTENSIONS.has(extname(name).toLowerCase());
}

/** `workspace-20261122T045501Z.zip`: the UTC time of the request, sortable and safe in any file system. */
export function downloadFileName(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `workspace-${stamp}.zip`;
}

/**
 * Bytes gathered into one write to the socket. yazl writes every header, data chunk and descriptor
 * separately, which for small files means several system calls per file.
 */
const COALESCE_BYTES = 64 * 1024;
/** Longest a gathered chunk waits for more (many small files produce a few hundred bytes each). */
const COALESCE_MS = 10;

/**
 * Joins small chunks into writes of about COALESCE_BYTES; whatever is gathered is sent within
 * COALESCE_MS at the latest, so a slow trickle is not held back.
 */
export function coalesce(): Transform {
  let pending: Buffer[] = [];
  let size = 0;
  let timer: NodeJS.Timeout | undefined;
  const release = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (size === 0) return;
    joiner.push(pending.length === 1 ? pending[0] : Buffer.concat(pending, size));
    pending = [];
    size = 0;
  };
  const joiner = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      pending.push(chunk);
      size += chunk.length;
      if (size >= COALESCE_BYTES) release();
      else timer ??= setTimeout(release, COALESCE_MS);
      callback();
    },
    flush(callback: TransformCallback) {
      release();
      callback();
    },
    destroy(err, callback) {
      if (timer) clearTimeout(timer);
      callback(err);
    },
  });
  return joiner;
}

/** Why a download ended early, for the log. */
export class ClientGone extends Error {
  constructor() {
    super('the client closed the connection');
  }
}

/**
 * Files up to this size are read whole before their entry is queued, so that reading them overlaps
 * with yazl compressing the ones before; larger files are streamed from disk at the client's pace.
 */
const SMALL_FILE_BYTES = 64 * 1024;
/** Small files read and queued ahead of what yazl is writing: at most this many times 64 KiB held. */
export const MAX_ENTRIES_AHEAD = 32;
/**
 * Folder entries queued in a row behind an unfinished entry. yazl writes a run of folders by
 * recursion when the entry before them finishes, and a few thousand overflow the stack (4,000 did
 * on Node 20); past this many the walk waits until yazl has caught up.
 */
export const MAX_FOLDER_RUN = 256;

/**
 * yazl's queue of entries, observed so the walk can stay a bounded distance ahead of it. yazl writes
 * entries strictly in order; it calls a lazy entry's stream function when it reaches that entry (so
 * every entry before it is written), and pipes the entry's data into its output with `end: false`,
 * so each `unpipe` of the output marks the end of one entry's data (the entry's last bytes are
 * written in the same tick).
 */
export class ZipQueue {
  private added = 0;
  private started = 0;
  private finished = 0;
  private folderRun = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly zip: ZipFile,
    private readonly signal: AbortSignal,
  ) {
    (zip.outputStream as Readable).on('unpipe', () => {
      this.finished++;
      this.wake();
    });
    signal.addEventListener('abort', () => this.wake(), { once: true });
  }

  /** Adds a folder entry; throws (nothing added) when yazl refuses the name. */
  async addFolder(path: string, stats: Stats): Promise<void> {
    if (this.folderRun >= MAX_FOLDER_RUN) {
      await this.until(() => this.finished === this.added);
      this.folderRun = 0;
    }
    if (this.signal.aborted) return;
    this.zip.addEmptyDirectory(path, { mtime: stats.mtime, mode: stats.mode });
    this.folderRun++;
  }

  /** Queues a small file's bytes, waiting while MAX_ENTRIES_AHEAD are queued already. */
  async addBytes(path: string, data: Buffer, stats: Stats): Promise<void> {
    await this.until(() => this.added - this.started < MAX_ENTRIES_AHEAD);
    if (this.signal.aborted) return;
    this.addLazy(path, data.length, stats, () =>
      Readable.from(data.length > 0 ? [data] : [], { objectMode: false }),
    );
  }

  /**
   * Adds a large open file and waits until yazl has written all of it, so one large file is open
   * at a time and nothing piles up behind it. The file is closed by its stream, or here when the
   * download stops before yazl reached it.
   */
  async addOpenFile(
    path: string,
    fd: number,
    stats: Stats,
    onStream: (stream: Readable) => void,
  ): Promise<void> {
    let opened = false;
    try {
      this.addLazy(path, stats.size, stats, () => {
        opened = true;
        const stream = fileStream(fd, 0, stats.size - 1);
        onStream(stream);
        return stream;
      });
      await this.until(() => this.finished === this.added);
    } finally {
      if (!opened) closeSync(fd);
    }
  }

  private addLazy(path: string, size: number, stats: Stats, open: () => Readable): void {
    const options = { size, mtime: stats.mtime, mode: stats.mode, compress: shouldCompress(path) };
    this.zip.addReadStreamLazy(path, options, (callback) => {
      this.started++;
      this.wake();
      callback(null, open());
    });
    this.added++;
    this.folderRun = 0; // a file entry ends a run: yazl's recursion stops at it
  }

  private async until(condition: () => boolean): Promise<void> {
    while (!condition() && !this.signal.aborted) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private wake(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }
}

/**
 * Streams the workspace folder `root` as a zip into `res` (headers not sent yet), generating it as it
 * goes: nothing is written to disk and memory stays flat whatever the workspace's size. Small files
 * are read ahead (ZipQueue bounds how far); a large file is streamed from disk through yazl before
 * the walk goes on, so at most one is open and reading follows the client's pace (backpressure
 * through the pipes).
 *
 * Skipped, with a log line: .git and node_modules at any depth, symlinks (never followed out of the
 * workspace), sockets and devices, and files that vanish or cannot be read before their entry is
 * queued. Once an entry has started, any failure (a read error, a file that shrank, yazl or the
 * socket failing) destroys the connection, so the client sees a broken download and never a zip that
 * looks complete but is not. A client that goes away stops the walk and closes the open file.
 *
 * Resolves when the zip was sent whole; rejects with the reason otherwise (ClientGone when the client
 * left).
 */
export async function sendWorkspaceZip(
  root: string,
  res: ServerResponse,
  fileName: string,
  logger: Logger,
): Promise<void> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  const stop = new AbortController();
  const queue = new ZipQueue(zip, stop.signal);
  let current: Readable | undefined;
  let failure: Error | undefined;
  let finished!: () => void;
  let failed!: (err: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finished = resolve;
    failed = reject;
  });
  // Returned at the end of the walk; until then a failure must not count as unhandled.
  done.catch(() => undefined);
  const fail = (err: Error) => {
    if (failure) return;
    failure = err;
    stop.abort(err);
    current?.destroy();
    output.destroy();
    res.destroy(err instanceof ClientGone ? undefined : err);
    failed(err);
  };

  zip.on('error', fail);
  res.on('close', () => {
    if (!res.writableFinished) fail(new ClientGone());
  });
  res.writeHead(200, {
    'content-type': 'application/zip',
    'content-disposition': contentDisposition('attachment', fileName),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  pipeline(output, coalesce(), res, (err) => {
    if (!err) return finished();
    fail(err.code === 'ERR_STREAM_PREMATURE_CLOSE' ? new ClientGone() : err);
  });

  const skip = (path: string, err: unknown, what: string) =>
    logger.warn(
      { path, code: (err as NodeJS.ErrnoException | null)?.code },
      `download: skipped ${what}`,
    );
  try {
    for await (const entry of walk(root, {
      order: 'depth-first',
      signal: stop.signal,
      onUnreadable: (path, err) => skip(path, err, 'an unreadable folder'),
    })) {
      if (entry.type === 'dir') {
        const stats = await lstat(entry.via).catch((err: unknown) =>
          skip(entry.relative, err, 'a vanished folder'),
        );
        if (!stats) continue;
        await queue
          .addFolder(entry.relative, stats)
          .catch((err: unknown) =>
            skip(entry.relative, err, 'a folder whose name a zip cannot hold'),
          );
      } else if (entry.type === 'file') {
        let file: ReadFile | undefined;
        try {
          // Through the listed folder's descriptor, never following a symlink: a folder above it
          // swapped for a symlink meanwhile cannot put an outside file into the zip.
          file = readOrOpen(entry.via);
        } catch (err) {
          skip(entry.relative, err, 'an unreadable file');
        }
        if (!file) continue;
        const added =
          'data' in file
            ? queue.addBytes(entry.relative, file.data, file.stats)
            : queue.addOpenFile(entry.relative, file.fd, file.stats, (stream) => {
                current = stream;
                stream.on('error', fail);
              });
        await added.catch((err: unknown) =>
          skip(entry.relative, err, 'a file whose name a zip cannot hold'),
        );
        current = undefined;
      } else {
        logger.debug(
          { path: entry.relative, type: entry.type },
          'download: skipped a symlink or special file',
        );
      }
      if (failure) break;
    }
  } catch (err) {
    fail(err instanceof Error ? err : new Error(String(err)));
  }
  if (!failure) zip.end();
  return done;
}

type ReadFile = { data: Buffer; stats: Stats } | { fd: number; stats: Stats };

/**
 * A small file's bytes (what is there when it is read is what the zip holds), or a large file
 * opened; undefined when the path is no longer a regular file. Synchronous on purpose, as the
 * containment check is: a few fast system calls on the local disk cost far less than the thread-pool
 * round trips, and they are the bulk of the work for a workspace of many small files.
 */
function readOrOpen(path: string): ReadFile | undefined {
  const fd = openSync(path, OPEN_FOR_READING);
  let keep = false;
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return undefined;
    if (stats.size > SMALL_FILE_BYTES) {
      keep = true;
      return { fd, stats };
    }
    const data = Buffer.alloc(stats.size);
    let length = 0;
    while (length < data.length) {
      const bytesRead = readSync(fd, data, length, data.length - length, length);
      if (bytesRead === 0) break; // it shrank meanwhile: what was there
      length += bytesRead;
    }
    return { data: data.subarray(0, length), stats };
  } finally {
    if (!keep) closeSync(fd);
  }
}
