import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { isWithin } from '../../workspace/containment.js';
import { z } from 'zod';
import { defineTool, ToolFailure } from '../tool.js';
import { fsFailure } from './fs-failure.js';
import {
  GLOB_MAX_RESULTS,
  GLOB_MAX_SCANNED,
  GLOB_MAX_SCANNED_BYTES,
  GLOB_STAT_CONCURRENCY,
} from './limits.js';
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
    const paths = found.paths;
    const where = display === '.' ? '' : ` in ${display}`;
    if (paths.length === 0) return `No files match ${pattern}${where}`;

    const mtimes = await mapLimited(paths, GLOB_STAT_CONCURRENCY, async (p) => {
      // A file deleted since rg listed it sorts last rather than failing the search.
      const stats = await stat(join(folder, p)).catch(() => undefined);
      return stats?.mtimeMs ?? Number.NEGATIVE_INFINITY;
    });
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

/** Maps over items with at most `limit` calls in flight, keeping the order of the results. */
async function mapLimited<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
