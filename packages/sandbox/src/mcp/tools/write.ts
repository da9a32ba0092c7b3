import { closeSync, constants, fstatSync, type Stats } from 'node:fs';
import type { Workspace } from '../../workspace/containment.js';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../tool.js';
import { atomicWrite } from './atomic-write.js';
import { recordStamp, requireFreshRead } from './freshness.js';
import { fsFailure } from './fs-failure.js';
import { REDACTION_NOTE, restoreWriteContent } from './redaction-markers.js';

export const writeTool = defineTool({
  name: 'Write',
  description:
    'Writes a whole file of the workspace, creating it (and its missing parent directories) or ' +
    'replacing it. Replacing an existing file requires reading it with Read first in this ' +
    'session, and is refused if the file changed since. The write is atomic: other readers see ' +
    'the old content or the new, never a mix; an existing file keeps its permissions. To change ' +
    'part of a file, prefer Edit. ' +
    REDACTION_NOTE,
  input: z.object({
    file_path: z
      .string()
      .describe(
        'The file to write: relative to the workspace root (e.g. "src/new.ts"), or absolute inside it.',
      ),
    content: z.string().describe('The complete new content of the file, as UTF-8 text.'),
  }),
  async run({ file_path, content }, ctx) {
    const realPath = await ctx.workspace.resolve(file_path);
    const display = ctx.workspace.relative(realPath);
    let existing: Stats | undefined;
    try {
      existing = statInside(ctx.workspace, realPath);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOTDIR') {
        throw new ToolFailure(`Cannot create ${display}: a parent of it is not a directory`);
      }
      if (code !== 'ENOENT') throw fsFailure(err, display);
    }
    if (existing !== undefined) {
      if (existing.isDirectory()) throw new ToolFailure(`${display} is a directory`);
      if (!existing.isFile()) throw new ToolFailure(`${display} is not a regular file`);
      requireFreshRead(ctx.session, realPath, display, existing, 'overwriting');
    }
    // Content written back from Read may hold redaction markers: they keep the file's real values.
    const text = restoreWriteContent(ctx, realPath, display, content, existing !== undefined);
    let written: Stats;
    try {
      // Missing parent folders are created on the way, each inside the checked one before it.
      written = atomicWrite(ctx.workspace, realPath, text, {
        mode: existing ? existing.mode & 0o7777 : undefined,
        createFolders: existing === undefined,
      });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR') {
        throw new ToolFailure(`Cannot create ${display}: a parent of it is not a directory`);
      }
      throw fsFailure(err, display);
    }
    recordStamp(ctx.session, realPath, written);
    return `Wrote ${written.size} bytes to ${display} (${existing ? 'updated' : 'created'})`;
  },
});

/**
 * What is at `realPath` now, from a descriptor opened without following symlinks (never the
 * stats of something a swapped folder leads to); throws ENOENT when there is nothing.
 */
function statInside(workspace: Workspace, realPath: string): Stats {
  const fd = workspace.openInside(
    realPath,
    constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY,
  );
  try {
    return fstatSync(fd);
  } finally {
    closeSync(fd);
  }
}
