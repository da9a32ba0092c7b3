import { lstatSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { isWithin, viaDescriptor, type Workspace } from '../../workspace/containment.js';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../tool.js';
import { fsFailure } from './fs-failure.js';
import { GLOB_MAX_RESULTS, GLOB_MAX_SCANNED, GLOB_MAX_SCANNED_BYTES } from './limits.js';
import { listFiles } from './file-list.js';
import { compileGlob, type CompiledGlob } from './glob-pattern.js';

export const globTool = defineTool({
  name: 'Glob',
  description:
    'Finds files of the workspace by name pattern, newest (last modified) first. Patterns use ' +
    'glob syntax with ** for any depth, e.g. "**/*.ts", "src/**/*.test.ts", "*.{json,md}"; a ' +
    'pattern without "/" matches file names at any depth, one with "/" is relative to the searched ' +
    'directory. Files excluded by .gitignore or .ignore (even when the pattern names them) and ' +
    'the .git directory are skipped; other hidden files are included; symlinks are not followed. ' +
    `Returns paths relative to the workspace root, at most ${GLOB_MAX_RESULTS}.`,
  input: z.object({
    pattern: z
      .string()
      .min(1)
      .describe('The glob pattern to match file paths against, e.g. "**/*.ts".'),
    path: z
      .string()
      .optional()
      .describe(
        'The directory to search in: relative to the workspace root, or absolute inside it. Default: the root.',
      ),
  }),
  async run({ pattern, path }, ctx) {
    const folder = await ctx.workspace.resolve(path ?? '.');
    const display = ctx.workspace.relative(folder);
    try {
      if (!(await stat(folder)).isDirectory()) {
        throw new ToolFailure(`${display} is not a directory; Glob searches a directory`);
      }
    } catch (err) {
      throw fsFailure(err, display, 'Directory');
    }
    const compiled = compilePattern(pattern, folder);
    const found = await listFiles(ctx, folder, compiled, {
      maxFiles: GLOB_MAX_SCANNED,
      maxBytes: GLOB_MAX_SCANNED_BYTES,
    });
    // rg's walk looks paths up, so a folder swapped for a symlink meanwhile could show it names
    // from outside: each listed file is looked at again through its checked folder, and only
    // regular files found there are shown (with their modification time, for the order).
    const checked = checkListed(ctx.workspace, folder, found.paths);
    const paths = checked.map((file) => file.path);
    const where = display === '.' ? '' : ` in ${display}`;
    if (paths.length === 0) return `No files match ${pattern}${where}`;
    const mtimes = checked.map((file) => file.mtimeMs);
    const order = paths.map((_, i) => i);
    order.sort((a, b) => {
      const age = mtimes[b]! - mtimes[a]!;
      if (age !== 0 && !Number.isNaN(age)) return age;
      return paths[a]! < paths[b]! ? -1 : paths[a]! > paths[b]! ? 1 : 0;
    });
    const shown = order
      .slice(0, GLOB_MAX_RESULTS)
      .map((i) => (display === '.' ? paths[i]! : join(display, paths[i]!)));
    let text = shown.join('\n');
    const more = paths.length - shown.length;
    if (found.truncated) {
      text +=
        `\n… listing stopped after ${GLOB_MAX_SCANNED} files, so there may be more than the ` +
        `${paths.length} matches found; use a narrower pattern or path`;
    } else if (more > 0) {
      text += `\n… ${more} more matches not shown; use a narrower pattern or path`;
    }
    return text;
  },
});

/** Compiles the pattern; an absolute one naming paths inside the folder is made relative to it. */
function compilePattern(pattern: string, folder: string): CompiledGlob {
  const relativePattern =
    isAbsolute(pattern) && isWithin(folder, pattern) && pattern !== folder
      ? relative(folder, pattern)
      : pattern;
  return compileGlob(relativePattern);
}

/** A listed file as found again through its checked folder. */
interface CheckedFile {
  path: string;
  mtimeMs: number;
}

/**
 * The listed paths (relative to `folder`) that are regular files when looked at through their
 * folder opened and checked (Workspace.cursor: never through a symlink), in the order given;
 * the rest are dropped. Paths are taken folder by folder, each folder opened once.
 * Synchronous system calls, like the containment check: one lstat per file on the local disk.
 */
function checkListed(
  workspace: Workspace,
  folder: string,
  paths: readonly string[],
): CheckedFile[] {
  const byFolder = new Map<string, number[]>();
  paths.forEach((path, i) => {
    const slash = path.lastIndexOf('/');
    const parent = slash === -1 ? '' : path.slice(0, slash);
    let group = byFolder.get(parent);
    if (group === undefined) byFolder.set(parent, (group = []));
    group.push(i);
  });
  const found = new Array<CheckedFile | undefined>(paths.length);
  const cursor = workspace.cursor();
  try {
    // In path order, so that the cursor opens each folder once.
    for (const parent of [...byFolder.keys()].sort()) {
      let fd: number;
      try {
        fd = cursor.folder(parent === '' ? folder : join(folder, parent));
      } catch {
        continue; // gone, or changed meanwhile: none of its files is shown
      }
      for (const i of byFolder.get(parent)!) {
        const path = paths[i]!;
        const stats = lstatOrUndefined(viaDescriptor(fd, path.slice(path.lastIndexOf('/') + 1)));
        if (stats?.isFile()) found[i] = { path, mtimeMs: stats.mtimeMs };
      }
    }
  } finally {
    cursor.close();
  }
  return found.filter((file): file is CheckedFile => file !== undefined);
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
