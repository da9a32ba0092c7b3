import type { FileStamp, SessionState } from '../session.js';
import { ToolFailure } from '../tool.js';

/**
 * Write and Edit may change an existing file only if this session has read it, and only if it has
 * not changed since: the agent must have seen what it replaces, and must not undo someone else's
 * change made in between.
 */
export function requireFreshRead(
  session: SessionState,
  realPath: string,
  display: string,
  current: FileStamp,
  action: 'overwriting' | 'editing',
): void {
  const stamp = session.reads.get(realPath);
  if (stamp === undefined) {
    throw new ToolFailure(`${display} exists: read the file before ${action} it`);
  }
  if (stamp.mtimeMs !== current.mtimeMs || stamp.size !== current.size) {
    throw new ToolFailure(`${display} has changed since it was read; read it again`);
  }
}

/** Remembers what the session now knows of a file, after a Read or its own Write or Edit. */
export function recordStamp(session: SessionState, realPath: string, stats: FileStamp): void {
  session.reads.set(realPath, { mtimeMs: stats.mtimeMs, size: stats.size });
}
