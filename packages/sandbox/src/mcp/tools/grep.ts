import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, ToolFailure, type ToolContext } from '../tool.js';
import { fsFailure } from './fs-failure.js';
import { isNotIgnored, isPlainSubfolder, listFiles } from './file-list.js';
import { compileGlob } from './glob-pattern.js';
import {
  GLOB_MAX_SCANNED,
  GLOB_MAX_SCANNED_BYTES,
  GREP_MAX_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_MAX_LINES,
} from './limits.js';
import { runRipgrep } from './ripgrep.js';

/** The name of the rg file type made of a name glob. */
const GLOB_TYPE = 'paddockglob';

const contextLines = (what: string) =>
  z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      `Lines of context to show ${what} each match (content mode only; -A and -B take precedence over -C).`,
    );

export const grepTool = defineTool({
  name: 'Grep',
  description:
    'Searches file contents of the workspace with ripgrep (Rust regular expressions, e.g. ' +
    '"log.*Error", "function\\s+\\w+"; escape literal braces and dots). Files excluded by ' +
    '.gitignore or .ignore, binary files and the .git directory are skipped; other hidden files ' +
    'are searched. output_mode "files_with_matches" (the default) lists matching files, "count" ' +
    'gives matching lines per file, "content" shows matching lines as "path:line:text" (context ' +
    'lines as "path-line-text"). Paths are relative to the workspace root. At most ' +
    `${GREP_MAX_LINES} lines and ${GREP_MAX_BYTES / 1024} KiB are returned; narrow the search ` +
    'with path, glob or head_limit.',
  input: z.object({
    pattern: z.string().describe('The regular expression to search for (ripgrep syntax).'),
    path: z
      .string()
      .optional()
      .describe(
        'The file or directory to search: relative to the workspace root, or absolute inside it. Default: the root.',
      ),
    glob: z
      .string()
      .optional()
      .describe(
        'Only search files matching this glob: one without "/" matches file names at any depth ' +
          '("*.ts", "*.{js,jsx}"), one with "/" matches paths relative to the searched directory ' +
          '("src/**/*.ts"); a leading "!" excludes instead ("!*.min.js"). Ignored files stay ' +
          'excluded. Not applied when path names a file.',
      ),
    output_mode: z
      .enum(['content', 'files_with_matches', 'count'])
      .default('files_with_matches')
      .describe(
        '"files_with_matches" (default): the paths of matching files; "content": the matching lines; "count": matching lines per file.',
      ),
    '-i': z.boolean().optional().describe('Case-insensitive search. Default false.'),
    '-n': z.boolean().optional().describe('Show line numbers in content mode. Default true.'),
    '-A': contextLines('after'),
    '-B': contextLines('before'),
    '-C': contextLines('before and after'),
    head_limit: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe(
        `Return at most this many output lines (content) or entries (files, counts). The overall cap of ${GREP_MAX_LINES} applies anyway.`,
      ),
  }),
  async run(args, ctx) {
    const target = await ctx.workspace.resolve(args.path ?? '.');
    const display = ctx.workspace.relative(target);
    let isFolder: boolean;
    try {
      isFolder = (await stat(target)).isDirectory();
    } catch (err) {
      throw fsFailure(err, display, 'Path');
    }

    const mode = args.output_mode;
    const rgArgs = ['--color', 'never', '--hidden', '--no-require-git'];
    if (mode === 'content') {
      rgArgs.push('--no-heading', '--with-filename', args['-n'] === false ? '-N' : '-n');
      // rg elides the rest of an over-long line (minified files) itself, before it reaches us.
      rgArgs.push('--max-columns', String(GREP_MAX_LINE_CHARS), '--max-columns-preview');
      if (args['-C'] !== undefined) rgArgs.push('-C', String(args['-C']));
      if (args['-A'] !== undefined) rgArgs.push('-A', String(args['-A']));
      if (args['-B'] !== undefined) rgArgs.push('-B', String(args['-B']));
    } else if (mode === 'count') {
      rgArgs.push('-c', '--with-filename');
    } else {
      rgArgs.push('-l');
    }
    if (args['-i'] === true) rgArgs.push('-i');

    // A folder is searched from inside (rg applies the .gitignore rules of the folders above it
    // correctly only then), so its paths get the folder prepended; a file is named from the root.
    let plan: Plan = isFolder
      ? { cwd: target, prefix: display === '.' ? '' : `${display}/`, paths: [], rgArgs: [] }
      : { cwd: ctx.workspace.root, prefix: '', paths: [display], rgArgs: [] };
    // A file named explicitly is searched whatever the glob says, as rg does.
    if (args.glob !== undefined && isFolder) {
      const planned = await planGlob(args.glob, plan, ctx);
      if (planned === 'nothing') return NO_MATCHES;
      plan = planned;
    }
    const { only } = plan;
    if (only !== undefined) {
      // Paths must be told apart from the rest of each line to be checked against `only`.
      if (mode === 'content') {
        rgArgs.push('--field-match-separator', '\\x00:', '--field-context-separator', '\\x00-');
      } else {
        rgArgs.push('--null');
      }
    }
    rgArgs.push(...plan.rgArgs);
    // Last, so that no glob of the caller can bring .git back (rg's last matching glob wins).
    rgArgs.push('--glob', '!.git');
    // -e and -- keep a pattern or path starting with "-" from being read as an option.
    rgArgs.push('-e', args.pattern, '--', ...plan.paths);

    const limit = Math.min(args.head_limit ?? GREP_MAX_LINES, GREP_MAX_LINES);
    const searching = runRipgrep({
      args: rgArgs,
      cwd: plan.cwd,
      env: ctx.childEnv,
      signal: ctx.signal,
      maxRecords: limit,
      maxBytes: GREP_MAX_BYTES,
      recordOverhead: Buffer.byteLength(plan.prefix),
      // With --null, -l ends each path with NUL instead of a newline.
      separator: only !== undefined && mode === 'files_with_matches' ? 0 : 0x0a,
      accept: only === undefined ? undefined : acceptOnly(only, mode),
    });
    const [allowed, result] = await Promise.all([plan.allowed ?? true, searching]);
    if (!allowed) return NO_MATCHES;
    if (result.records === 0) {
      // A glob or type that leaves no file to search is no match, not a failure.
      if (result.exitCode === 2 && !result.stderr.startsWith('No files were searched')) {
        throw new ToolFailure(`Grep failed: ${result.stderr || 'rg exited with an error'}`);
      }
      return NO_MATCHES;
    }

    let lines = outputLines(result.output, mode, only !== undefined);
    if (plan.prefix !== '') {
      const { prefix } = plan;
      // Every line starts with its path, except the "--" between groups of context lines.
      lines = lines.map((line) => (mode === 'content' && line === '--' ? line : prefix + line));
    }
    // rg searches files in parallel; sorted lists read better and stay the same between calls.
    if (mode !== 'content') lines.sort();
    let text = lines.join('\n');
    if (mode === 'count' && result.truncated === false) {
      let total = 0;
      for (const line of lines) total += Number(line.slice(line.lastIndexOf(':') + 1));
      const files = lines.length;
      text += `\n\n${total} matching line${total === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;
    }
    if (result.truncated === 'records') {
      text +=
        args.head_limit !== undefined && args.head_limit <= GREP_MAX_LINES
          ? `\n… [stopped at head_limit=${args.head_limit}; more results not shown]`
          : `\n… [output cut at ${GREP_MAX_LINES} lines; narrow the search with path, glob or a more specific pattern]`;
    } else if (result.truncated === 'bytes') {
      text += `\n… [output cut at ${GREP_MAX_BYTES / 1024} KiB; narrow the search with path, glob or a more specific pattern]`;
    }
    if (result.exitCode === 2 && result.stderr !== '') {
      text += `\n(some files could not be searched: ${result.stderr.split('\n')[0]})`;
    }
    return text;
  },
});

const NO_MATCHES = 'No matches found';

/** How rg is run: where, with which extra arguments, and how its paths are made root-relative. */
interface Plan {
  cwd: string;
  /** Prepended to every path rg prints, to make it relative to the workspace root. */
  prefix: string;
  /** Paths given to rg (none: it searches its cwd). */
  paths: string[];
  rgArgs: string[];
  /** When set, only results for these paths (as rg prints them) are kept. */
  only?: Set<string>;
  /** When it resolves to false, the search finds nothing (its folder is ignored). */
  allowed?: Promise<boolean>;
}

// How the `glob` argument narrows a search of a folder while keeping .gitignore in force (an rg
// --glob that matches a file would override it). A line comment, as the examples contain "*/":
// - an exclusion ("!*.md") stays an rg glob, as excluding overrides nothing;
// - a name glob ("*.ts", "**/*.ts") becomes an rg file type, which rg applies after its ignore rules;
// - a literal folder, then a name ("src/lib/**/*.ts", "src/*.ts", "src/**"), searches from that
//   folder with the name as file type (one level deep only when there is no "**");
// - any other glob ("src/*/test/*.ts") is given to rg, whose walk it prunes, and the files it
//   matches are listed first without it, so that results for ignored files it re-includes are
//   dropped. Past GLOB_MAX_SCANNED listed files that check is given up.
async function planGlob(glob: string, plan: Plan, ctx: ToolContext): Promise<Plan | 'nothing'> {
  if (glob.startsWith('!')) {
    compileGlob(glob.slice(1)); // reports a malformed pattern the way every other glob is
    return { ...plan, rgArgs: ['--glob', glob] };
  }
  const compiled = compileGlob(glob);
  const fileType = (name: string): string[] => [
    '--type-add',
    `${GLOB_TYPE}:${name}`,
    '--type',
    GLOB_TYPE,
  ];
  if (compiled.basenameOnly) return { ...plan, rgArgs: fileType(glob) };
  const { simple, base } = compiled;
  if (simple !== undefined) {
    if (!(await isPlainSubfolder(plan.cwd, base))) return 'nothing';
    const rgArgs = simple.name === undefined ? [] : fileType(simple.name);
    if (simple.oneLevel) rgArgs.push('--max-depth', '1');
    if (base === '') return { ...plan, rgArgs };
    return {
      cwd: join(plan.cwd, base),
      prefix: `${plan.prefix}${base}/`,
      paths: [],
      rgArgs,
      // Asked while the search runs; its results are dropped if base turns out to be ignored.
      allowed: isNotIgnored(ctx, plan.cwd, base),
    };
  }
  const listed = await listFiles(ctx, plan.cwd, compiled, {
    maxFiles: GLOB_MAX_SCANNED,
    maxBytes: GLOB_MAX_SCANNED_BYTES,
  });
  if (listed.paths.length === 0 && !listed.truncated) return 'nothing';
  const rgArgs = ['--glob', compiled.normalized];
  return listed.truncated ? { ...plan, rgArgs } : { ...plan, rgArgs, only: new Set(listed.paths) };
}

/** Keeps the results of the files in `only` (and the "--" between kept groups of lines). */
function acceptOnly(only: Set<string>, mode: string): (record: string) => boolean {
  let afterSeparator = true;
  return (record) => {
    if (mode === 'content' && record === '--') {
      if (afterSeparator) return false;
      afterSeparator = true;
      return true;
    }
    const end = record.indexOf('\0');
    const kept = only.has(end === -1 ? record : record.slice(0, end));
    if (kept) afterSeparator = false;
    return kept;
  };
}

/** rg's output as lines, the NUL separators of a checked search back to rg's usual ones. */
function outputLines(output: string, mode: string, checked: boolean): string[] {
  if (checked && mode === 'files_with_matches') return output.split('\0').slice(0, -1);
  const lines = (output.endsWith('\n') ? output.slice(0, -1) : output).split('\n');
  if (!checked) return lines;
  if (mode === 'count') return lines.map((line) => line.replace('\0', ':'));
  while (lines.at(-1) === '--') lines.pop();
  return lines.map((line) => line.replace(/\0([:-])/g, '$1'));
}
