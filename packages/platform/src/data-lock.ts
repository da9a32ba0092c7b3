import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The file naming the `paddock up` that uses a data folder, as PostgreSQL's postmaster.pid does. */
export const LOCK_FILE = 'paddock.pid';

/** Whether a process of that id runs (or exists under another user). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the data folder for this process, or says which process holds it: two platforms on one
 * folder would run two nodes over the same pods and volumes. A lock left by a process that is gone
 * is taken over. Returns the release function.
 */
export async function lockDataDir(
  dataDir: string,
): Promise<{ release: () => Promise<void> } | { heldBy: number }> {
  const file = join(dataDir, LOCK_FILE);
  for (;;) {
    try {
      await writeFile(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return {
        release: async () => {
          const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
          if (holder === process.pid) await rm(file, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && running(holder)) {
      return { heldBy: holder };
    }
    // Left by a process that is gone (or unreadable): take it over.
    await rm(file, { force: true });
  }
}
