import { fstat } from 'node:fs';
import { readFile, statfs } from 'node:fs/promises';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import { viaDescriptor } from '../workspace/containment.js';
import {
  STATVFS_NO_SUID,
  STATVFS_READ_ONLY,
  type ExtensionAnnouncement,
  type FileSystemFigures,
} from './sftp-wire.js';

/**
 * The OpenSSH extensions served, with the versions OpenSSH's sftp-server announces (PROTOCOL,
 * section 4): its `sftp` then renames with replace (`rename`), prints `df`, and syncs `put -f`.
 */
export const SFTP_EXTENSIONS: readonly ExtensionAnnouncement[] = [
  ['posix-rename@openssh.com', '1'],
  ['statvfs@openssh.com', '2'],
  ['fstatvfs@openssh.com', '2'],
  ['fsync@openssh.com', '1'],
];

/** Mode of a folder made without one, before the umask (as mkdir(1) and sftp-server). */
const DEFAULT_FOLDER_MODE = 0o777;

/**
 * The mode a MKDIR creates a folder with, before the process's umask narrows it (the kernel does,
 * as for sftp-server): the requested permission bits, and search wherever read is granted. A
 * folder one may read but not search is of no use, and OpenSSH's scp asks for exactly that when it
 * makes the target folder of several files: a file's mode plus the owner's bits (0644 | 0700 =
 * 0744), which would leave group and others unable to reach the files inside.
 */
export function folderMode(requested: number | undefined): number {
  if (requested === undefined) return DEFAULT_FOLDER_MODE;
  const mode = requested & 0o7777;
  return mode | ((mode & 0o444) >> 2);
}

/** Where the kernel lists this process's mounts, with their options. */
const MOUNT_TABLE = '/proc/self/mountinfo';
/** Longest file name on the file systems Linux uses (NAME_MAX); statfs(2) is not asked for it. */
const NAME_MAX = 255n;

/** A mount point's path as mountinfo writes it: space, tab, newline and backslash in octal. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) =>
    String.fromCharCode(parseInt(octal, 8)),
  );
}

/**
 * The statvfs f_flag bits (read-only, nosuid) of the mount holding `path` (a real, absolute
 * path), from the text of /proc/self/mountinfo: the deepest mount point containing the path,
 * the last one listed when mounts are stacked. A mount is read-only when it or its file system
 * is mounted so.
 */
export function mountFlags(path: string, mountinfo: string): bigint {
  let best: { point: string; flags: bigint } | undefined;
  for (const line of mountinfo.split('\n')) {
    const [head, tail] = line.split(' - ');
    const fields = head?.split(' ') ?? [];
    if (fields.length < 6 || tail === undefined) continue;
    const point = unescapeMountPath(fields[4]!);
    const inside = point === '/' || path === point || path.startsWith(`${point}/`);
    if (!inside || (best && point.length < best.point.length)) continue;
    const options = new Set(fields[5]!.split(','));
    const superOptions = new Set((tail.split(' ')[2] ?? '').split(','));
    let flags = 0n;
    if (options.has('ro') || superOptions.has('ro')) flags |= STATVFS_READ_ONLY;
    if (options.has('nosuid')) flags |= STATVFS_NO_SUID;
    best = { point, flags };
  }
  return best?.flags ?? 0n;
}

const fstatOf = promisify(fstat);

/**
 * The file system figures of what `fd` holds open (`real` is its real path), as statvfs(3) gives
 * them: sizes and counts from statfs(2) through the descriptor, the device number as the file
 * system's id, the mount's flags, and NAME_MAX.
 */
export async function fileSystemFigures(fd: number, real: string): Promise<FileSystemFigures> {
  const [figures, stats, mounts] = await Promise.all([
    statfs(viaDescriptor(fd), { bigint: true }),
    fstatOf(fd),
    readFile(MOUNT_TABLE, 'utf8').catch(() => ''),
  ]);
  return {
    blockSize: figures.bsize,
    blocks: figures.blocks,
    freeBlocks: figures.bfree,
    availableBlocks: figures.bavail,
    files: figures.files,
    freeFiles: figures.ffree,
    id: BigInt(stats.dev),
    flags: mountFlags(posix.normalize(real), mounts),
    nameMax: NAME_MAX,
  };
}
