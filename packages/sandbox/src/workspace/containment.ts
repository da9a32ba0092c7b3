import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
} from 'node:fs';
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Longest path a caller may name, and longest single segment (Linux's PATH_MAX and NAME_MAX). */
export const MAX_PATH_LENGTH = 4096;
export const MAX_SEGMENT_LENGTH = 255;
/** Dangling symlinks followed in a row before the path counts as a loop (Linux's MAXSYMLINKS). */
const MAX_SYMLINK_HOPS = 40;

/** A path the caller gave that cannot be used: outside the workspace, malformed, or unresolvable. */
export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathError';
  }
}

/**
 * Where Linux shows a process's open descriptors. `${DESCRIPTOR_FOLDER}/<fd>` names exactly what the
 * descriptor refers to (the kernel follows it to the open file, not to a path), and
 * `${DESCRIPTOR_FOLDER}/<fd>/<name>` looks `name` up inside the opened folder: openat(2) for a
 * runtime that has no openat. A child process sees its own descriptors there.
 */
export const DESCRIPTOR_FOLDER = '/proc/self/fd';

/** The path that names what descriptor `fd` refers to, or the entry `name` of that open folder. */
export function viaDescriptor(fd: number, name?: string): string {
  return name === undefined ? `${DESCRIPTOR_FOLDER}/${fd}` : `${DESCRIPTOR_FOLDER}/${fd}/${name}`;
}

/** A folder is opened to be looked into and listed, never through a symlink in its last segment. */
const OPEN_FOLDER = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** Mode of folders created on the way to a new file (the umask narrows it, as for mkdir -p). */
const NEW_FOLDER_MODE = 0o777;

/**
 * The entry changed between the containment check and its use (a symlink appeared where a folder
 * or file was, or it was moved): refused rather than followed. A PathError, so callers report it as
 * they report any other refused path.
 */
export class ChangedMeanwhile extends PathError {
  constructor(display: string) {
    super(
      `${display} changed while it was being opened (a symlink appeared or it moved); try again`,
    );
    this.name = 'ChangedMeanwhile';
  }
}

/**
 * The real path of what descriptor `fd` refers to, as the kernel knows it now; undefined when the
 * kernel cannot show it (no /proc). A file deleted meanwhile shows as "<path> (deleted)".
 */
export function descriptorPath(fd: number): string | undefined {
  try {
    return readlinkSync(viaDescriptor(fd));
  } catch {
    return undefined;
  }
}

/**
 * Opens the folder at `absolute` (a real path: no symlink in it when it was checked) and returns its
 * descriptor only if the kernel says it is that very folder; a folder reached through a symlink
 * that replaced one of its parents meanwhile is closed again before anything is read from it.
 * Throws ChangedMeanwhile then, and the open's own error (ENOENT, ENOTDIR...) otherwise.
 */
export function openCheckedFolder(absolute: string): number {
  const fd = openSync(absolute, OPEN_FOLDER);
  if (descriptorPath(fd) !== absolute) {
    closeSync(fd);
    throw new ChangedMeanwhile(absolute);
  }
  return fd;
}

/** Opens entries one after the other through checked folders; see Workspace.cursor. */
export interface FolderCursor {
  /**
   * The checked descriptor of the folder at `realPath`, held by the cursor: valid until the
   * cursor is used again or closed, and never to be closed by the caller.
   */
  folder(realPath: string): number;
  /** Like Workspace.openInside (never the root itself); the caller closes the descriptor. */
  openInside(realPath: string, flags: number): number;
  /** Closes the folders it holds; it can be used again afterwards. */
  close(): void;
}

/** True when `target` is `root` or below it, compared by path segments, never by string prefix. */
export function isWithin(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${sep}`));
}

/** Syntax checks that need no file system: NUL bytes, over-long paths and segments. */
export function checkPathSyntax(userPath: string): void {
  if (userPath.includes('\0')) throw new PathError('path contains a NUL byte');
  if (userPath.length > MAX_PATH_LENGTH) {
    throw new PathError(`path is longer than ${MAX_PATH_LENGTH} characters`);
  }
  if (userPath.split(/[\\/]/).some((segment) => segment.length > MAX_SEGMENT_LENGTH)) {
    throw new PathError(`a path segment is longer than ${MAX_SEGMENT_LENGTH} characters`);
  }
}

/**
 * The workspace folder, with the one rule every tool and route goes through: resolve a caller's
 * path (relative to the root, or absolute inside it) to a real path inside the root. Symlinks are
 * resolved, for a path that does not exist yet through its deepest existing parent, and the result
 * is checked by segments. Anything that would leave the root is a PathError.
 *
 * The checked path is then used only through openInside, openFolder or cursor, which open exactly
 * what was checked or refuse (ChangedMeanwhile), however the workspace changes in between: see
 * docs/decisions/0015-containment-under-change.md.
 */
export class Workspace {
  private constructor(
    readonly root: string,
    /** The root folder, open for the process's lifetime: every walk down a path starts here. */
    private readonly rootFd: number,
  ) {}

  /**
   * Opens a workspace at a folder; the root itself is resolved once, so a symlinked root works.
   * Fails when the kernel cannot show what a descriptor refers to (no /proc): containment under
   * concurrent change depends on it.
   */
  static async open(folder: string): Promise<Workspace> {
    const root = await realpath(folder);
    const rootFd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
    if (descriptorPath(rootFd) !== root) {
      closeSync(rootFd);
      throw new Error(
        `cannot confine file access to ${root}: ${DESCRIPTOR_FOLDER} does not show open files ` +
          '(the sandbox needs Linux with /proc mounted)',
      );
    }
    return new Workspace(root, rootFd);
  }

  /**
   * Opens the entry at `realPath` (what resolve returned) without following any symlink on the way:
   * each folder is opened inside the one before it, from the root's descriptor, refusing a symlink
   * in every segment (O_NOFOLLOW, the last segment included), and the descriptor is checked to be
   * that very path before it is returned (but for the root's own entries, which need no check).
   * So whatever is read or written through it is what was checked, even if a folder or the file
   * was swapped for a symlink meanwhile (ChangedMeanwhile).
   * `flags` may create the file (O_CREAT, with `mode`), inside the folder that was checked. The
   * caller closes the descriptor. Synchronous, like resolve: a few fast system calls per segment.
   */
  openInside(realPath: string, flags: number, mode?: number): number {
    if (realPath === this.root) return this.reopenRoot(flags);
    const folder = this.openFolderInside(dirname(realPath), false);
    const inRoot = folder === this.rootFd;
    let fd: number;
    try {
      fd = this.openEntry(folder, basename(realPath), flags | constants.O_NOFOLLOW, realPath, mode);
    } finally {
      if (!inRoot) closeSync(folder);
    }
    // The check is for a folder on the way that moved out after it was opened. An entry of the
    // root itself needs none: it was found by its one name in the root's own folder, without
    // following a symlink, so it was inside when it was opened (a system call saved per file).
    return inRoot ? fd : this.checked(fd, realPath);
  }

  /**
   * resolve and openInside in one step, for the common case of a path with no symlink in it: such a
   * path is its own real path, and openInside is the proof of it (no symlink followed in any
   * segment, the descriptor checked to be that very path), so the path is opened as written and the
   * realpath(3) walk is skipped. Undefined when that does not apply or fails for any reason (a
   * symlink on the way, a missing entry, a path outside the root): the caller then resolves and
   * opens the usual way, with the usual answers and errors. Never creates anything.
   */
  openAsWritten(userPath: string, flags: number): { realPath: string; fd: number } | undefined {
    if ((flags & constants.O_CREAT) !== 0) return undefined;
    try {
      checkPathSyntax(userPath);
      const lexical = resolve(this.root, userPath);
      if (!isWithin(this.root, lexical)) return undefined;
      return { realPath: lexical, fd: this.openInside(lexical, flags) };
    } catch {
      return undefined;
    }
  }

  /**
   * Opens the folder at `realPath` (what resolve returned) the way openInside opens a file; with
   * `create`, folders missing on the way are created, each inside the checked one before it (mkdir
   * -p that cannot be redirected). Never returns the root's own descriptor: the caller closes it.
   */
  openFolder(realPath: string, create: boolean): number {
    const fd = this.openFolderInside(realPath, create);
    return fd === this.rootFd ? this.reopenRoot(constants.O_RDONLY | constants.O_DIRECTORY) : fd;
  }

  /**
   * For opening many entries in a row (the files a search selected, sorted by path): opens each
   * folder once, inside the checked one above it, and keeps the chain of folders from the root to
   * the last one used, so files of one folder cost one open and one check each. Every entry is
   * opened without following a symlink and checked to be its path, as openInside does. The caller
   * closes the cursor; it holds at most one descriptor per level of the deepest path.
   */
  cursor(): FolderCursor {
    /** The open folders from the root down: chain[i] is the folder at paths[i]. */
    const paths: string[] = [this.root];
    const chain: number[] = [this.rootFd];
    const folder = (realPath: string): number => {
      if (!isWithin(this.root, realPath)) {
        throw new PathError(`${realPath} is outside the workspace`);
      }
      // Keep the longest open prefix of realPath, then open the rest segment by segment.
      let depth = paths.length - 1;
      while (depth > 0 && !isWithin(paths[depth]!, realPath)) depth--;
      while (paths.length > depth + 1) {
        paths.pop();
        closeSync(chain.pop()!);
      }
      const rest = relative(paths[depth]!, realPath);
      if (rest === '') return chain[depth]!;
      for (const segment of rest.split(sep)) {
        const path = join(paths.at(-1)!, segment);
        const fd = this.checked(this.openEntry(chain.at(-1)!, segment, OPEN_FOLDER, path), path);
        paths.push(path);
        chain.push(fd);
      }
      return chain.at(-1)!;
    };
    return {
      folder,
      openInside: (realPath, flags) => {
        const parent = folder(dirname(realPath));
        const fd = this.openEntry(
          parent,
          basename(realPath),
          flags | constants.O_NOFOLLOW,
          realPath,
        );
        return this.checked(fd, realPath);
      },
      close: () => {
        for (const fd of chain.slice(1)) closeSync(fd);
        chain.length = 1;
        paths.length = 1;
      },
    };
  }

  /** The folder's descriptor (the root's own for the root, which must not be closed), checked. */
  private openFolderInside(realPath: string, create: boolean): number {
    if (!isWithin(this.root, realPath)) throw new PathError(`${realPath} is outside the workspace`);
    const rel = relative(this.root, realPath);
    if (rel === '') return this.rootFd;
    let current = this.rootFd;
    let path = this.root;
    try {
      for (const segment of rel.split(sep)) {
        path = join(path, segment);
        let next: number;
        try {
          next = this.openEntry(current, segment, OPEN_FOLDER, path);
        } catch (err) {
          if (!create || (err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
          try {
            mkdirSync(viaDescriptor(current, segment), NEW_FOLDER_MODE);
          } catch (mkdirErr) {
            // Another writer created it first: open what is there, with the same checks.
            if ((mkdirErr as NodeJS.ErrnoException).code !== 'EEXIST') throw mkdirErr;
          }
          next = this.openEntry(current, segment, OPEN_FOLDER, path);
        }
        if (current !== this.rootFd) closeSync(current);
        current = next;
      }
    } catch (err) {
      if (current !== this.rootFd) closeSync(current);
      throw err;
    }
    return this.checked(current, realPath);
  }

  /**
   * Opens `name` inside the open folder `folder`. A symlink where the check saw none fails the
   * open (ELOOP for a file, ENOTDIR for a folder): told apart from a real non-folder by lstat.
   */
  private openEntry(
    folder: number,
    name: string,
    flags: number,
    path: string,
    mode?: number,
  ): number {
    const via = viaDescriptor(folder, name);
    try {
      return openSync(via, flags, mode);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP' || (code === 'ENOTDIR' && isSymlink(via))) {
        throw new ChangedMeanwhile(this.relative(path));
      }
      throw err;
    }
  }

  /** A new descriptor of the root folder (the kept one is never handed out). */
  private reopenRoot(flags: number): number {
    const allowed = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NONBLOCK;
    return this.checked(openSync(viaDescriptor(this.rootFd), flags & allowed), this.root);
  }

  /** `fd` if the kernel says it refers to `realPath` (not moved out meanwhile); closed otherwise. */
  private checked(fd: number, realPath: string): number {
    if (descriptorPath(fd) === realPath) return fd;
    if (fd !== this.rootFd) closeSync(fd);
    throw new ChangedMeanwhile(this.relative(realPath));
  }

  /** The path relative to the root, as shown to callers ('.' for the root itself). */
  relative(absolute: string): string {
    return relative(this.root, absolute) || '.';
  }

  /**
   * Resolution uses the synchronous realpath(3) on purpose: it is one fast system call on the
   * workspace's local disk, cheaper than a thread-pool round trip, and it runs on every tool call.
   */
  resolve(userPath: string): Promise<string> {
    try {
      return Promise.resolve(this.resolveNow(userPath));
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }

  private resolveNow(userPath: string): string {
    checkPathSyntax(userPath);
    const lexical = resolve(this.root, userPath);
    if (!isWithin(this.root, lexical)) throw new PathError(`${userPath} is outside the workspace`);

    // Walk up to the deepest part that exists and resolve its symlinks; re-append the rest.
    let existing = lexical;
    const rest: string[] = [];
    let hops = 0;
    for (;;) {
      let real: string;
      try {
        real = realpathSync.native(existing);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ELOOP') throw new PathError(`${userPath} is a symlink loop`);
        if (code === 'ENAMETOOLONG') throw new PathError(`${userPath} is too long`);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
        // A dangling symlink: creating the path would create its target, so follow it like the
        // kernel would (relative to the link's real folder) and check where that lands.
        const target = readlinkOrUndefined(existing);
        if (target !== undefined) {
          if (++hops > MAX_SYMLINK_HOPS) throw new PathError(`${userPath} is a symlink loop`);
          existing = resolve(realpathSync.native(dirname(existing)), target);
          continue;
        }
        if (existing === this.root || dirname(existing) === existing) throw err;
        rest.push(basename(existing));
        existing = dirname(existing);
        continue;
      }
      const full = rest.length > 0 ? join(real, ...rest.reverse()) : real;
      if (!isWithin(this.root, full)) {
        throw new PathError(`${userPath} resolves outside the workspace`);
      }
      return full;
    }
  }
}

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function readlinkOrUndefined(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
