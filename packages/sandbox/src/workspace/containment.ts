import { readlinkSync, realpathSync } from 'node:fs';
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
 */
export class Workspace {
  private constructor(readonly root: string) {}

  /** Opens a workspace at a folder; the root itself is resolved once, so a symlinked root works. */
  static async open(folder: string): Promise<Workspace> {
    return new Workspace(await realpath(folder));
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

function readlinkOrUndefined(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
