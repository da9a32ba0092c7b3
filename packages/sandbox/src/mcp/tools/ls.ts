import { closeSync, constants, fstatSync, type Dirent, type Stats } from 'node:fs';
import { lstat, readdir, readlink } from 'node:fs/promises';
import { viaDescriptor } from '../../workspace/containment.js';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../tool.js';
import { fsFailure } from './fs-failure.js';
import { LS_MAX_ENTRIES } from './limits.js';

export const lsTool = defineTool({
  name: 'LS',
  description:
    'Lists one directory of the workspace (not recursive): directories first, then the other ' +
    'entries, each sorted by name. Each line gives the type (dir, file, symlink, other), the name ' +
    '(directories end with "/", symlinks show their target) and, for files, the size in bytes. ' +
    `Shows at most ${LS_MAX_ENTRIES} entries. Hidden and ignored entries are included. To find ` +
    'files across directories use Glob.',
  input: z.object({
    path: z
      .string()
      .default('.')
      .describe(
        'The directory to list: relative to the workspace root, or absolute inside it. Default ".", the root.',
      ),
  }),
  async run({ path }, ctx) {
    const realPath = await ctx.workspace.resolve(path);
    const display = ctx.workspace.relative(realPath);
    // The folder is opened without following symlinks and checked, then listed through its
    // descriptor: a folder swapped for a symlink meanwhile is never listed.
    let fd: number;
    try {
      fd = ctx.workspace.openInside(
        realPath,
        constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY,
      );
    } catch (err) {
      throw fsFailure(err, display, 'Directory');
    }
    try {
      return await list(fd, display);
    } finally {
      closeSync(fd);
    }
  },
});

/** The listing of the open folder `fd` (anything else is refused). */
async function list(fd: number, display: string): Promise<string> {
  let entries: Dirent[];
  try {
    if (!fstatSync(fd).isDirectory()) {
      throw new ToolFailure(`${display} is not a directory; use Read for files`);
    }
    entries = await readdir(viaDescriptor(fd), { withFileTypes: true });
  } catch (err) {
    throw fsFailure(err, display, 'Directory');
  }
  if (entries.length === 0) return `${display}/: empty directory`;

  entries.sort((a, b) => {
    const dirs = Number(b.isDirectory()) - Number(a.isDirectory());
    if (dirs !== 0) return dirs;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  const shown = entries.slice(0, LS_MAX_ENTRIES);
  const lines = await Promise.all(shown.map((entry) => describe(fd, entry)));
  const count = `${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}`;
  let text = `${display}/: ${count}\n${lines.join('\n')}`;
  if (entries.length > shown.length) {
    text += `\n… ${entries.length - shown.length} more entries not shown`;
  }
  return text;
}

/** One line for an entry of the open folder `folder`, from that folder (never from a path). */
async function describe(folder: number, entry: Dirent): Promise<string> {
  const path = viaDescriptor(folder, entry.name);
  if (entry.isDirectory()) return `dir      ${entry.name}/`;
  if (entry.isSymbolicLink()) {
    const target = await readlink(path).catch(() => '?');
    return `symlink  ${entry.name} -> ${target}`;
  }
  if (entry.isFile()) {
    // lstat: the entry itself; a file removed since readdir is still listed, without a size.
    const stats: Stats | undefined = await lstat(path).catch(() => undefined);
    return `file     ${entry.name}${stats ? `  (${stats.size} bytes)` : ''}`;
  }
  return `other    ${entry.name}`;
}
