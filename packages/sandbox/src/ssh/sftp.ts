import {
  close,
  closeSync,
  constants,
  fchmod,
  fchown,
  fstat,
  fstatSync,
  fsync,
  ftruncate,
  futimes,
  read,
  write,
  type Dir,
  type Stats,
} from 'node:fs';
import {
  lstat,
  mkdir,
  opendir,
  readlink,
  rename,
  rmdir,
  symlink,
  truncate,
  unlink,
} from 'node:fs/promises';
import { posix } from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from '@paddock/common';
import ssh2, { type Attributes, type FileEntry, type ServerChannel } from 'ssh2';
import { PathError, viaDescriptor, type Workspace } from '../workspace/containment.js';
import { openSftpSession } from './sftp-channel.js';
import { fileSystemFigures, folderMode, SFTP_EXTENSIONS } from './sftp-extensions.js';
import { readStrings, statvfsBody } from './sftp-wire.js';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;
type StatusCode = (typeof STATUS_CODE)[keyof typeof STATUS_CODE];

/** Open file and directory handles one SFTP session may hold (OpenSSH's sftp-server allows 512). */
export const MAX_SFTP_HANDLES = 256;
/**
 * Largest READ answered, in bytes. OpenSSH's client refuses SFTP messages over 256 KiB, and asks
 * for 32 KiB by default; a shorter answer than asked is valid and clients ask again for the rest.
 */
export const MAX_READ_BYTES = 64 * 1024;
/** Characters of an unknown extension's name (the client's text) repeated in the refusal. */
const MAX_EXTENSION_NAME_SHOWN = 64;
/** Directory entries per READDIR answer, which keeps each answer well under the message limit. */
const READDIR_BATCH = 100;
/**
 * Requests waiting for their answer. OpenSSH's clients keep at most 64 in flight; a client that
 * sends far more without reading answers only grows the queue, and its channel is closed.
 */
export const MAX_QUEUED_REQUESTS = 4096;

/**
 * An open file or folder. Both hold a descriptor opened by Workspace.openInside / openFolder
 * (no symlink followed on the way, checked to be the path): every later request on the handle
 * goes through it, never through the path again.
 */
type Handle =
  | { kind: 'file'; path: string; fd: number }
  | { kind: 'dir'; path: string; fd: number; dir: Dir; done: boolean };

const readAt = promisify(read);
const writeAt = promisify(write);
const fstatOf = promisify(fstat);
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);

/** Attribute changes through a descriptor, so they reach what was opened and checked. */
const fileAttrs = {
  truncate: promisify(ftruncate),
  chmod: promisify(fchmod),
  chown: promisify(fchown),
  utimes: promisify(futimes),
};

/** Opens what a STAT or SETSTAT names (symlinks inside followed by resolve), never blocking. */
const OPEN_TO_INSPECT = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The SFTP status for a failed file-system call or a refused path. */
export function statusOf(err: unknown): { code: StatusCode; message: string } {
  if (err instanceof PathError)
    return { code: STATUS_CODE.PERMISSION_DENIED, message: err.message };
  const errno = (err as NodeJS.ErrnoException | null)?.code;
  switch (errno) {
    case 'ENOENT':
    case 'ENOTDIR':
      return { code: STATUS_CODE.NO_SUCH_FILE, message: 'No such file' };
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return { code: STATUS_CODE.PERMISSION_DENIED, message: 'Permission denied' };
    default:
      return { code: STATUS_CODE.FAILURE, message: errno ?? 'Failure' };
  }
}

/** open(2) flags for SFTP's pflags (READ, WRITE, APPEND, CREAT, TRUNC, EXCL). */
export function openFlags(pflags: number): number {
  const read = (pflags & OPEN_MODE.READ) !== 0;
  const write = (pflags & OPEN_MODE.WRITE) !== 0;
  let flags = read && write ? constants.O_RDWR : write ? constants.O_WRONLY : constants.O_RDONLY;
  if (pflags & OPEN_MODE.APPEND) flags |= constants.O_APPEND;
  if (pflags & OPEN_MODE.CREAT) flags |= constants.O_CREAT;
  if (pflags & OPEN_MODE.TRUNC) flags |= constants.O_TRUNC;
  if (pflags & OPEN_MODE.EXCL) flags |= constants.O_EXCL;
  // The path is already resolved: a symlink in its last part now can only be a race.
  return flags | constants.O_NOFOLLOW;
}

/** SFTP attributes (times in seconds) of a file. */
export function attrsOf(st: Stats): Attributes {
  return {
    mode: st.mode,
    uid: st.uid,
    gid: st.gid,
    size: st.size,
    atime: Math.floor(st.atimeMs / 1000),
    mtime: Math.floor(st.mtimeMs / 1000),
  };
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The `ls -l` style line of a READDIR entry, which some clients show or parse. */
export function longnameOf(name: string, st: Stats): string {
  const type = st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : st.isFile() ? '-' : '?';
  const bits = 'rwxrwxrwx'
    .split('')
    .map((ch, i) => (st.mode & (0o400 >> i) ? ch : '-'))
    .join('');
  const date = st.mtime;
  const when = `${MONTHS[date.getMonth()]} ${String(date.getDate()).padStart(2)} ${date.getFullYear()}`;
  return `${type}${bits} ${String(st.nlink).padStart(3)} ${String(st.uid).padEnd(8)} ${String(st.gid).padEnd(8)} ${String(st.size).padStart(8)} ${when} ${name}`;
}

/**
 * Paths the way scp, sftp and VS Code use them: the login directory (REALPATH of `.`) is the
 * workspace root's real absolute path, relative paths start there, and absolute paths are taken
 * as they are. Every path must resolve inside the workspace (Workspace.resolve); anything else is
 * PERMISSION_DENIED, so `/etc/passwd`, `cd /` and `../..` all fail without touching the outside.
 */
export class SftpPaths {
  constructor(private readonly workspace: Workspace) {}

  /** The lexical absolute path (no file-system access). */
  absolute(path: string): string {
    return posix.resolve(this.workspace.root, path === '' ? '.' : path);
  }

  /** The real path, symlinks followed, inside the workspace. */
  follow(path: string): Promise<string> {
    return this.workspace.resolve(this.absolute(path));
  }

  /**
   * The path of the entry itself, not of what a symlink there points to (for LSTAT, REMOVE,
   * RENAME, READLINK): its folder is resolved and must be inside, its last part is kept as is.
   */
  async entry(path: string): Promise<string> {
    const absolute = this.absolute(path);
    if (absolute === this.workspace.root) return this.workspace.root;
    const parent = await this.workspace.resolve(posix.dirname(absolute));
    return posix.join(parent, posix.basename(absolute));
  }

  /**
   * Runs `work` on the entry itself (see entry) as seen through its folder, opened without
   * following symlinks and checked (Workspace.openFolder): `via` reaches that entry of that very
   * folder, so a folder swapped for a symlink meanwhile cannot send the operation outside.
   * `real` is the entry's real path, for messages and checks.
   */
  async inFolder<T>(path: string, work: (via: string, real: string) => Promise<T>): Promise<T> {
    const real = await this.entry(path);
    // The root itself has no folder inside the workspace; its path was resolved at start and lies
    // outside what the workspace's users can change.
    if (real === this.workspace.root) return work(real, real);
    const fd = this.workspace.openFolder(posix.dirname(real), false);
    try {
      return await work(viaDescriptor(fd, posix.basename(real)), real);
    } finally {
      closeSync(fd);
    }
  }

  /**
   * Runs `work` on the open descriptor of what `path` names, symlinks inside followed; `real` is
   * its real path.
   */
  async opened<T>(path: string, work: (fd: number, real: string) => Promise<T>): Promise<T> {
    const real = await this.follow(path);
    const fd = this.workspace.openInside(real, OPEN_TO_INSPECT);
    try {
      return await work(fd, real);
    } finally {
      closeSync(fd);
    }
  }
}

export interface SftpOptions {
  workspace: Workspace;
  logger: Logger;
  maxHandles?: number;
}

/** A request's answer when it is not OK: thrown inside a handler, sent as a STATUS. */
class SftpStatus extends Error {
  constructor(
    readonly code: StatusCode,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Serves the SFTP protocol (version 3, with OpenSSH's extensions listed in SFTP_EXTENSIONS) on one
 * subsystem channel, confined to the workspace. Requests are answered one at a time, in the order
 * they came: OpenSSH's client tracks the contiguous part of a download from the order of the
 * answers and truncates the file to it.
 */
export function serveSftp(channel: ServerChannel, options: SftpOptions): void {
  const { sftp, extendedReply, finish, roomToAnswer } = openSftpSession(channel, SFTP_EXTENSIONS);
  channel.on('error', (err: Error) => options.logger.debug({ err }, 'sftp channel error'));
  const paths = new SftpPaths(options.workspace);
  const maxHandles = options.maxHandles ?? MAX_SFTP_HANDLES;
  const handles = new Map<string, Handle>();
  let nextHandle = 0;
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;
  let ending = false;

  const ok = (reqId: number) => sftp.status(reqId, STATUS_CODE.OK);
  const answerFailure = (reqId: number, err: unknown) => {
    if (err instanceof SftpStatus) return void sftp.status(reqId, err.code, err.message);
    const { code, message } = statusOf(err);
    if (code === STATUS_CODE.FAILURE) options.logger.debug({ err }, 'sftp request failed');
    sftp.status(reqId, code, message);
  };
  /** Closes the channel once the client sent EOF and every request it made has its answer. */
  const closeWhenIdle = () => {
    if (!ending || queued > 0) return;
    for (const handle of handles.values()) void closeHandle(handle).catch(() => {});
    handles.clear();
    finish();
  };
  /** Queues one request behind the others; every failure becomes its STATUS answer. */
  const serve = (reqId: number, work: () => Promise<void>) => {
    if (queued >= MAX_QUEUED_REQUESTS) {
      options.logger.debug('sftp: client does not wait for answers; closing');
      return void sftp.end();
    }
    queued++;
    queue = queue
      .then(roomToAnswer)
      .then(work)
      .catch((err: unknown) => answerFailure(reqId, err))
      .finally(() => {
        queued--;
        closeWhenIdle();
      });
  };

  const addHandle = (handle: Handle): Buffer => {
    const id = Buffer.alloc(4);
    id.writeUInt32BE(nextHandle);
    nextHandle = (nextHandle + 1) >>> 0;
    handles.set(id.toString('hex'), handle);
    return id;
  };
  const checkHandleRoom = () => {
    if (handles.size >= maxHandles) {
      throw new SftpStatus(STATUS_CODE.FAILURE, `too many open handles (at most ${maxHandles})`);
    }
  };
  const anyHandle = (id: Buffer): Handle => {
    const handle = handles.get(id.toString('hex'));
    if (!handle) throw new SftpStatus(STATUS_CODE.FAILURE, 'invalid handle');
    return handle;
  };
  const fileHandle = (id: Buffer) => {
    const handle = anyHandle(id);
    if (handle.kind !== 'file') throw new SftpStatus(STATUS_CODE.FAILURE, 'not a file handle');
    return handle;
  };

  /**
   * Applies the attributes the client sent to an open descriptor. Only a size needs a writable
   * descriptor: a read-only one (a folder, or a file opened for SETSTAT) is truncated through its
   * /proc path, which reaches the opened file itself.
   */
  const applyAttrs = async (fd: number, attrs: Attributes, writable: boolean) => {
    // ssh2 sets only the attributes the client sent; the others stay undefined.
    const a = attrs as Partial<Attributes>;
    const via = viaDescriptor(fd);
    if (a.size !== undefined) {
      await (writable ? fileAttrs.truncate(fd, a.size) : truncate(via, a.size));
    }
    if (a.mode !== undefined) await fileAttrs.chmod(fd, a.mode & 0o7777);
    if (a.uid !== undefined && a.gid !== undefined) await fileAttrs.chown(fd, a.uid, a.gid);
    if (a.atime !== undefined && a.mtime !== undefined) {
      await fileAttrs.utimes(fd, a.atime, a.mtime);
    }
  };
  const refuseRoot = (path: string) => {
    if (path === options.workspace.root) {
      throw new SftpStatus(
        STATUS_CODE.PERMISSION_DENIED,
        'the workspace root itself cannot change',
      );
    }
  };

  sftp.on('OPEN', (reqId, filename, pflags, attrs) =>
    serve(reqId, async () => {
      checkHandleRoom();
      // open(2) refuses a name ending in a slash (EISDIR); resolving would drop the slash and
      // create a file where the client named a folder (`scp file host:missing/`).
      if (filename.endsWith('/')) {
        throw new SftpStatus(STATUS_CODE.FAILURE, `${filename} names a folder, not a file`);
      }
      const path = await paths.follow(filename);
      const mode = (attrs as Partial<Attributes>).mode;
      // Created, truncated or opened inside the checked folder only (openInside). O_NONBLOCK, as
      // the open is synchronous: a FIFO must not stall the process; only regular files are served.
      const fd = options.workspace.openInside(
        path,
        openFlags(pflags) | constants.O_NONBLOCK,
        mode === undefined ? 0o666 : mode & 0o7777,
      );
      try {
        if (!fstatSync(fd).isFile()) {
          throw new SftpStatus(STATUS_CODE.FAILURE, 'not a regular file');
        }
      } catch (err) {
        closeSync(fd);
        throw err;
      }
      sftp.handle(reqId, addHandle({ kind: 'file', path, fd }));
    }),
  );

  sftp.on('READ', (reqId, id, offset, length) =>
    serve(reqId, async () => {
      const { fd } = fileHandle(id);
      const buffer = Buffer.allocUnsafe(Math.min(length, MAX_READ_BYTES));
      const { bytesRead } = await readAt(fd, buffer, 0, buffer.length, offset);
      if (bytesRead === 0 && length > 0) return void sftp.status(reqId, STATUS_CODE.EOF);
      sftp.data(reqId, buffer.subarray(0, bytesRead));
    }),
  );

  sftp.on('WRITE', (reqId, id, offset, data) =>
    serve(reqId, async () => {
      const { fd } = fileHandle(id);
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await writeAt(
          fd,
          data,
          written,
          data.length - written,
          offset + written,
        );
        written += bytesWritten;
      }
      ok(reqId);
    }),
  );

  sftp.on('FSTAT', (reqId, id) =>
    serve(reqId, async () => {
      const handle = anyHandle(id);
      sftp.attrs(reqId, attrsOf(await fstatOf(handle.fd)));
    }),
  );

  sftp.on('FSETSTAT', (reqId, id, attrs) =>
    serve(reqId, async () => {
      const handle = anyHandle(id);
      await applyAttrs(handle.fd, attrs, handle.kind === 'file');
      ok(reqId);
    }),
  );

  sftp.on('CLOSE', (reqId, id) =>
    serve(reqId, async () => {
      const handle = anyHandle(id);
      handles.delete(id.toString('hex'));
      await closeHandle(handle);
      ok(reqId);
    }),
  );

  sftp.on('OPENDIR', (reqId, path) =>
    serve(reqId, async () => {
      checkHandleRoom();
      const real = await paths.follow(path);
      // Listed through the folder's checked descriptor, never through the path again.
      const fd = options.workspace.openFolder(real, false);
      let dir: Dir;
      try {
        dir = await opendir(viaDescriptor(fd));
      } catch (err) {
        closeSync(fd);
        throw err;
      }
      sftp.handle(reqId, addHandle({ kind: 'dir', path: real, fd, dir, done: false }));
    }),
  );

  sftp.on('READDIR', (reqId, id) =>
    serve(reqId, async () => {
      const handle = anyHandle(id);
      if (handle.kind !== 'dir')
        throw new SftpStatus(STATUS_CODE.FAILURE, 'not a directory handle');
      const names: FileEntry[] = [];
      while (!handle.done && names.length < READDIR_BATCH) {
        const dirent = await handle.dir.read();
        if (dirent === null) {
          handle.done = true;
          break;
        }
        const st = await lstat(viaDescriptor(handle.fd, dirent.name)).catch(() => undefined);
        if (!st) continue; // removed while listing
        names.push({
          filename: dirent.name,
          longname: longnameOf(dirent.name, st),
          attrs: attrsOf(st),
        });
      }
      if (names.length === 0) return void sftp.status(reqId, STATUS_CODE.EOF);
      sftp.name(reqId, names);
    }),
  );

  sftp.on('LSTAT', (reqId, path) =>
    serve(reqId, async () =>
      sftp.attrs(reqId, attrsOf(await paths.inFolder(path, (via) => lstat(via)))),
    ),
  );

  sftp.on('STAT', (reqId, path) =>
    serve(reqId, async () =>
      sftp.attrs(reqId, attrsOf(await paths.opened(path, (fd) => Promise.resolve(fstatSync(fd))))),
    ),
  );

  sftp.on('SETSTAT', (reqId, path, attrs) =>
    serve(reqId, async () => {
      await paths.opened(path, (fd) => applyAttrs(fd, attrs, false));
      ok(reqId);
    }),
  );

  sftp.on('REMOVE', (reqId, path) =>
    serve(reqId, async () => {
      await paths.inFolder(path, (via) => unlink(via));
      ok(reqId);
    }),
  );

  sftp.on('RMDIR', (reqId, path) =>
    serve(reqId, async () => {
      await paths.inFolder(path, (via, real) => {
        refuseRoot(real);
        return rmdir(via);
      });
      ok(reqId);
    }),
  );

  sftp.on('MKDIR', (reqId, path, attrs) =>
    serve(reqId, async () => {
      const mode = folderMode((attrs as Partial<Attributes>).mode);
      await paths.inFolder(path, (via) => mkdir(via, mode));
      ok(reqId);
    }),
  );

  /**
   * Renames through both ends' checked folders, held open together. SFTP version 3's RENAME
   * never replaces an existing target (OpenSSH's server behaves the same); posix-rename does,
   * atomically, as rename(2).
   */
  const renameInside = (oldPath: string, newPath: string, replace: boolean) =>
    paths.inFolder(oldPath, (fromVia, from) =>
      paths.inFolder(newPath, async (toVia, to) => {
        refuseRoot(from);
        refuseRoot(to);
        if (
          !replace &&
          (await lstat(toVia).then(
            () => true,
            () => false,
          ))
        ) {
          throw new SftpStatus(STATUS_CODE.FAILURE, 'the target exists');
        }
        await rename(fromVia, toVia);
      }),
    );

  sftp.on('RENAME', (reqId, oldPath, newPath) =>
    serve(reqId, async () => {
      await renameInside(oldPath, newPath, false);
      ok(reqId);
    }),
  );

  sftp.on('REALPATH', (reqId, path) =>
    serve(reqId, async () => {
      const real = await paths.follow(path);
      sftp.name(reqId, [{ filename: real, longname: real, attrs: {} as Attributes }]);
    }),
  );

  sftp.on('READLINK', (reqId, path) =>
    serve(reqId, async () => {
      const target = await paths.inFolder(path, (via) => readlink(via));
      sftp.name(reqId, [{ filename: target, longname: target, attrs: {} as Attributes }]);
    }),
  );

  // ssh2 hands both argument orders (OpenSSH swaps them on the wire) over as (link, target).
  sftp.on('SYMLINK', (reqId, linkPath, targetPath) =>
    serve(reqId, async () => {
      await paths.inFolder(linkPath, async (via, link) => {
        // The target must land inside too, so that the link does not lead readers out.
        await options.workspace.resolve(posix.resolve(posix.dirname(link), targetPath));
        await symlink(targetPath, via);
      });
      ok(reqId);
    }),
  );

  /** The strings an extended request carries, decoded; a malformed request is refused. */
  const extensionArguments = (name: string, data: Buffer | undefined, count: number) => {
    const strings = readStrings(data, count);
    if (!strings) throw new SftpStatus(STATUS_CODE.BAD_MESSAGE, `malformed ${name} request`);
    return strings;
  };
  const extensions: Record<string, (reqId: number, data: Buffer | undefined) => Promise<void>> = {
    'posix-rename@openssh.com': async (reqId, data) => {
      const [from, to] = extensionArguments('posix-rename', data, 2) as [Buffer, Buffer];
      await renameInside(from.toString('utf8'), to.toString('utf8'), true);
      ok(reqId);
    },
    'statvfs@openssh.com': async (reqId, data) => {
      const [path] = extensionArguments('statvfs', data, 1) as [Buffer];
      // Asked of the opened folder or file, so a path swapped meanwhile cannot reach outside.
      const figures = await paths.opened(path.toString('utf8'), fileSystemFigures);
      extendedReply(reqId, statvfsBody(figures));
    },
    'fstatvfs@openssh.com': async (reqId, data) => {
      const [id] = extensionArguments('fstatvfs', data, 1) as [Buffer];
      const handle = anyHandle(id);
      extendedReply(reqId, statvfsBody(await fileSystemFigures(handle.fd, handle.path)));
    },
    'fsync@openssh.com': async (reqId, data) => {
      const [id] = extensionArguments('fsync', data, 1) as [Buffer];
      await fsyncFd(fileHandle(id).fd);
      ok(reqId);
    },
  };
  sftp.on('EXTENDED', (reqId, name, data) =>
    serve(reqId, async () => {
      const handler = Object.hasOwn(extensions, name) ? extensions[name] : undefined;
      if (!handler) {
        const shown = name.slice(0, MAX_EXTENSION_NAME_SHOWN);
        throw new SftpStatus(STATUS_CODE.OP_UNSUPPORTED, `${shown} is not supported`);
      }
      await handler(reqId, data);
    }),
  );

  // The client's EOF: OpenSSH's clients wait for the server to close the channel.
  sftp.on('end', () => {
    ending = true;
    closeWhenIdle();
  });
  sftp.on('close', () => {
    for (const handle of handles.values()) void closeHandle(handle).catch(() => {});
    handles.clear();
  });
  sftp.on('error', (err: Error) => options.logger.debug({ err }, 'sftp protocol error'));
}

async function closeHandle(handle: Handle): Promise<void> {
  try {
    if (handle.kind === 'dir') await handle.dir.close();
  } finally {
    await closeFd(handle.fd);
  }
}
