import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Characters of the target's name kept in the temporary file's name, to stay under NAME_MAX. */
const TEMP_NAME_PREFIX_CHARS = 100;

/**
 * Replaces `target` with `data` so that readers see either the old file or the new one, never half
 * of it: the data goes to a fresh temporary file in the same folder (rename is atomic only within a
 * file system), is flushed to disk, then renamed over the target. The temporary file is removed if
 * anything fails. `mode` is set explicitly, so the umask cannot narrow an existing file's mode.
 * Returns the new file's stats.
 */
export async function atomicWrite(
  target: string,
  data: string | Uint8Array,
  mode?: number,
): Promise<Stats> {
  const folder = dirname(target);
  const name = basename(target).slice(0, TEMP_NAME_PREFIX_CHARS);
  const temp = join(folder, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx' fails rather than follow or reuse anything already at the temporary name.
  const handle = await open(temp, 'wx', mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  await syncFolder(folder);
  return stat(target);
}

/** Flushes the folder so the rename itself survives a crash; best effort, as not every fs allows it. */
async function syncFolder(folder: string): Promise<void> {
  try {
    const handle = await open(folder, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The data is written either way; only durability of the rename across a crash is at stake.
  }
}
