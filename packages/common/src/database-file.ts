import { chmodSync, closeSync, fchmodSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';

/** Permission bits of a SQLite database and of the files SQLite keeps beside it: owner only. */
export const DATABASE_FILE_MODE = 0o600;

/** Permission bits of a folder made for the database (an existing folder is left as it is). */
export const DATABASE_FOLDER_MODE = 0o700;

/** The files SQLite keeps beside a database: the WAL, its shared-memory index, a rollback journal. */
const SIDE_FILE_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

/**
 * Makes a SQLite database file (and its folder, when missing) before SQLite opens it, which would
 * create it 0644: the file is created DATABASE_FILE_MODE whatever the umask and whether or not the
 * folder existed, and an existing one (and its side files) is set to it. SQLite gives the -wal,
 * -shm and journal files it creates later the database file's mode.
 */
export function prepareDatabaseFile(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: DATABASE_FOLDER_MODE });
  const fd = openSync(path, 'a', DATABASE_FILE_MODE);
  try {
    fchmodSync(fd, DATABASE_FILE_MODE);
  } finally {
    closeSync(fd);
  }
  for (const suffix of SIDE_FILE_SUFFIXES) {
    try {
      chmodSync(`${path}${suffix}`, DATABASE_FILE_MODE);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
