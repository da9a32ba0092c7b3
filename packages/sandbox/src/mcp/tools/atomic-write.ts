import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname } from 'node:path';
import {
  ChangedMeanwhile,
  descriptorPath,
  viaDescriptor,
  type Workspace,
} from '../../workspace/containment.js';

/** Characters of the target's name kept in the temporary file's name, to stay under NAME_MAX. */
const TEMP_NAME_PREFIX_CHARS = 100;

/** The temporary file: created new, never through anything already at its name. */
const CREATE_TEMP =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

/**
 * Replaces `target` (a real path inside the workspace, as resolve returned it) with `data` so that
 * readers see either the old file or the new one, never half of it: the data goes to a fresh
 * temporary file in the same folder (rename is atomic only within a file system), is flushed to
 * disk, then renamed over the target. The folder is opened once, segment by segment from the
 * workspace root without following symlinks (missing folders created on the way when
 * `createFolders`), and the temporary file is created, renamed and removed inside that open folder:
 * a folder swapped for a symlink meanwhile cannot send any of it elsewhere. The folder's path is
 * checked again before the rename; the temporary file is removed if anything fails. `mode` is set
 * explicitly, so the umask cannot narrow an existing file's mode. Returns the new file's stats.
 * Synchronous system calls, as the containment check: a handful of fast calls on the local disk.
 */
export function atomicWrite(
  workspace: Workspace,
  target: string,
  data: string | Uint8Array,
  options: { mode?: number; createFolders?: boolean } = {},
): Stats {
  const folderPath = dirname(target);
  const name = basename(target);
  const folder = workspace.openFolder(folderPath, options.createFolders ?? false);
  try {
    checkTarget(viaDescriptor(folder, name), workspace.relative(target));
    const temp = `.${name.slice(0, TEMP_NAME_PREFIX_CHARS)}.${randomBytes(6).toString('hex')}.tmp`;
    const tempVia = viaDescriptor(folder, temp);
    const file = openSync(tempVia, CREATE_TEMP, options.mode ?? 0o666);
    let stats: Stats;
    try {
      try {
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        let written = 0;
        while (written < bytes.length) {
          written += writeSync(file, bytes, written, bytes.length - written);
        }
        if (options.mode !== undefined) fchmodSync(file, options.mode);
        fsyncSync(file);
        stats = fstatSync(file);
      } finally {
        closeSync(file);
      }
      // The folder must still be where it was checked: not moved out of the workspace meanwhile.
      if (descriptorPath(folder) !== folderPath) {
        throw new ChangedMeanwhile(workspace.relative(target));
      }
      renameSync(tempVia, viaDescriptor(folder, name));
    } catch (err) {
      rmSync(tempVia, { force: true });
      throw err;
    }
    syncFolder(folder);
    return stats;
  } finally {
    closeSync(folder);
  }
}

/**
 * What is at the target's name now must be nothing or a regular file, as resolve saw it (it
 * resolves symlinks, so the checked path holds none): a symlink or anything else there means the
 * path changed since it was checked. rename would replace a link itself, never write through it,
 * but the caller's checks (freshness, type) were about something else.
 */
function checkTarget(via: string, display: string): void {
  let stats: Stats | undefined;
  try {
    stats = lstatSync(via);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  if (stats === undefined) return;
  if (!stats.isFile()) throw new ChangedMeanwhile(display);
}

/** Flushes the folder so the rename itself survives a crash; best effort, as not every fs allows it. */
function syncFolder(folder: number): void {
  try {
    fsyncSync(folder);
  } catch {
    // The data is written either way; only durability of the rename across a crash is at stake.
  }
}
