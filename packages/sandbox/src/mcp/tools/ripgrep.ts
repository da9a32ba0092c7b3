import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DESCRIPTOR_FOLDER, viaDescriptor } from '../../workspace/containment.js';
import { RIPGREP_MAX_STDERR_BYTES } from './limits.js';

export interface RipgrepOptions {
  /** Arguments after rg's own `--no-config` (a user's RIPGREP_CONFIG_PATH must not change results). */
  args: readonly string[];
  cwd: string;
  /**
   * Open descriptors handed to rg as its descriptors 3, 4, ... (see ripgrepFileArgs): files opened
   * and checked by the caller, which rg reads as they are instead of looking a path up again.
   */
  files?: readonly number[];
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** Records kept; once one more arrives rg is killed. */
  maxRecords: number;
  /** Bytes kept; a record that would pass this kills rg. */
  maxBytes: number;
  /** The byte ending each record: '\n' (the default) or NUL with rg's --null. */
  separator?: number;
  /** Bytes the caller will add to each record (a path prefix), counted against maxBytes. */
  recordOverhead?: number;
  /** Keeps only the records (without their separator) it accepts; the caps count those only. */
  accept?: (record: string) => boolean;
}

export interface RipgrepResult {
  /** rg's stdout, whole records only. */
  output: string;
  records: number;
  /** Why the output was cut and rg killed; false when rg finished on its own. */
  truncated: false | 'records' | 'bytes';
  /** rg's exit code (0 found, 1 nothing found, 2 error); null when it was killed. */
  exitCode: number | null;
  stderr: string;
}

/**
 * Runs the system's rg and keeps its output up to the caps, reading it as it streams and killing rg
 * as soon as a cap is passed (or the signal aborts), so a huge result costs no more than the cap.
 * A missing rg is a plain Error, not a ToolFailure: it is the sandbox's problem, not the caller's.
 */
export function runRipgrep(options: RipgrepOptions): Promise<RipgrepResult> {
  const { signal, maxRecords, maxBytes, accept } = options;
  const separator = options.separator ?? 0x0a;
  const overhead = options.recordOverhead ?? 0;
  return new Promise((resolvePromise, reject) => {
    if (signal.aborted) {
      reject(cancelled());
      return;
    }
    // stdout and stderr are pipes (the stdio below), so both streams exist.
    const child = spawn('rg', ['--no-config', ...options.args], {
      cwd: options.cwd,
      env: options.env,
      // stdin must not be a pipe: with no path argument rg would search stdin instead of the cwd.
      stdio: ['ignore', 'pipe', 'pipe', ...(options.files ?? [])],
    });

    const kept: Buffer[] = [];
    let bytes = 0;
    let records = 0;
    // The start of a record whose separator has not arrived yet.
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // maxRecords reached: any further byte means there was more.
    let full = false;
    let truncated: RipgrepResult['truncated'] = false;
    let killed = false;
    const stop = (): void => {
      if (killed) return;
      killed = true;
      child.kill('SIGKILL');
    };
    const onAbort = (): void => stop();
    signal.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      if (killed) return;
      if (full) {
        truncated = 'records';
        stop();
        return;
      }
      // Only separators are looked for; a run of kept records is kept as one slice of the chunk.
      let runStart = 0;
      let pos = 0;
      let cut: RipgrepResult['truncated'] = false;
      for (;;) {
        const end = chunk.indexOf(separator, pos);
        if (end === -1) break;
        if (accept !== undefined) {
          const body = chunk.subarray(pos, end);
          const record = pendingBytes > 0 ? Buffer.concat([...pending, body]) : body;
          if (!accept(record.toString('utf8'))) {
            if (pos > runStart) kept.push(chunk.subarray(runStart, pos));
            pending = [];
            pendingBytes = 0;
            pos = end + 1;
            runStart = pos;
            continue;
          }
        }
        const size = pendingBytes + end + 1 - pos;
        if (bytes + size + overhead > maxBytes) {
          cut = 'bytes';
          break;
        }
        // A record begun in an earlier chunk is always the first of this one: runStart is 0.
        if (pendingBytes > 0) {
          kept.push(...pending);
          pending = [];
          pendingBytes = 0;
        }
        bytes += size + overhead;
        records += 1;
        pos = end + 1;
        if (records >= maxRecords) {
          full = true;
          break;
        }
      }
      if (pos > runStart) kept.push(chunk.subarray(runStart, pos));
      if (cut === false && full && pos < chunk.length) cut = 'records';
      if (cut !== false) {
        truncated = cut;
        stop();
        return;
      }
      if (full || pos === chunk.length) return;
      pending.push(chunk.subarray(pos));
      pendingBytes += chunk.length - pos;
      if (bytes + pendingBytes > maxBytes) {
        truncated = 'bytes';
        stop();
      }
    });

    const stderr: Buffer[] = [];
    let stderrBytes = 0;
    child.stderr!.on('data', (chunk: Buffer) => {
      if (stderrBytes >= RIPGREP_MAX_STDERR_BYTES) return;
      stderr.push(chunk.subarray(0, RIPGREP_MAX_STDERR_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });

    let failed = false;
    child.on('error', (err: NodeJS.ErrnoException) => {
      failed = true;
      signal.removeEventListener('abort', onAbort);
      // spawn reports a missing cwd as ENOENT too.
      reject(
        err.code === 'ENOENT' && existsSync(options.cwd)
          ? new Error('ripgrep (rg) is not installed', { cause: err })
          : new Error(`ripgrep (rg) could not be started: ${err.message}`, { cause: err }),
      );
    });

    child.on('close', (code) => {
      signal.removeEventListener('abort', onAbort);
      if (failed) return;
      if (signal.aborted) {
        reject(cancelled());
        return;
      }
      // A last record without its separator still counts when it fits.
      if (
        !killed &&
        pendingBytes > 0 &&
        records < maxRecords &&
        bytes + pendingBytes + overhead <= maxBytes &&
        (accept === undefined || accept(Buffer.concat(pending).toString('utf8')))
      ) {
        kept.push(...pending);
        records += 1;
      }
      resolvePromise({
        output: Buffer.concat(kept).toString('utf8'),
        records,
        truncated,
        exitCode: killed ? null : code,
        stderr: Buffer.concat(stderr).toString('utf8').trim(),
      });
    });
  });
}

/** The first descriptor of `files` as rg sees it (0-2 are its stdin, stdout and stderr). */
const FIRST_HANDED_DESCRIPTOR = 3;

/**
 * The paths that name, inside rg, the descriptors handed to it with `files` (in that order): its
 * own /proc/self/fd entries, which reach the open files themselves rather than any path.
 */
export function ripgrepFileArgs(count: number): string[] {
  return Array.from({ length: count }, (_, i) => viaDescriptor(FIRST_HANDED_DESCRIPTOR + i));
}

/** Which handed file (an index into `files`) a path rg printed names, or -1. */
export function handedFileIndex(path: string): number {
  const prefix = `${DESCRIPTOR_FOLDER}/`;
  if (!path.startsWith(prefix)) return -1;
  const n = Number(path.slice(prefix.length));
  return Number.isInteger(n) && n >= FIRST_HANDED_DESCRIPTOR ? n - FIRST_HANDED_DESCRIPTOR : -1;
}

function cancelled(): Error {
  const err = new Error('rg was cancelled');
  err.name = 'AbortError';
  return err;
}
