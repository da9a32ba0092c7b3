import { ToolFailure } from '../tool.js';

/**
 * Turns a file-system error the caller caused (a missing file, a parent that is a file, no
 * permission) into a ToolFailure naming the path as the caller sees it; anything else is returned
 * unchanged to be rethrown, as it is the sandbox's problem.
 */
export function fsFailure(err: unknown, display: string, what = 'File'): unknown {
  switch ((err as NodeJS.ErrnoException | null)?.code) {
    case 'ENOENT':
      return new ToolFailure(`${what} not found: ${display}`);
    case 'ENOTDIR':
      return new ToolFailure(`${what} not found: ${display} (a parent of it is not a directory)`);
    case 'EACCES':
    case 'EPERM':
      return new ToolFailure(`Permission denied: ${display}`);
    case 'EISDIR':
      return new ToolFailure(`${display} is a directory`);
    case 'ENXIO':
      // open(2) of a socket (or of a device or FIFO nothing serves): never a file to read.
      return new ToolFailure(`${display} is not a regular file`);
    case 'ELOOP':
      return new ToolFailure(
        `${display} is a symlink loop, or became a symlink meanwhile; try again`,
      );
    default:
      return err;
  }
}
