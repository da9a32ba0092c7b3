import { closeSync, constants, fstatSync } from 'node:fs';
import { join } from 'node:path';
import { PathError, viaDescriptor, type FolderCursor } from '../../workspace/containment.js';
import { z } from 'zod';
import { defineTool, ToolFailure, type ToolContext } from '../tool.js';
import { fileTypeFilter, fileTypes, type FileTypeFilter } from './file-types.js';
import { fsFailure } from './fs-failure.js';
import { isNotIgnored, isPlainSubfolder, listFiles } from './file-list.js';
import { compileGlob } from './glob-pattern.js';
import {
  GLOB_MAX_SCANNED,
  GLOB_MAX_SCANNED_BYTES,
  GREP_MAX_BYTES,
  GREP_MAX_LINE_CHARS,
  GREP_HANDED_FILES,
  GREP_MAX_LINES,
  GREP_SELECTED_MAX_BYTES,
} from './limits.js';
import { handedFileIndex, ripgrepFileArgs, runRipgrep, type RipgrepResult } from './ripgrep.js';

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

const grepInput = z.object({
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
  type: z
    .string()
    .optional()
    .describe(
      'Only search files of this ripgrep file type (rg --type), e.g. "js", "ts", "py", "rust", ' +
        '"go", "java"; `rg --type-list` shows every type with its globs. With glob, a file must ' +
        'match both. Not applied when path names a file.',
    ),
  multiline: z
    .boolean()
    .optional()
    .describe(
      'Let a match span lines: "." also matches line ends and "\\n" can be used ' +
        '(rg -U --multiline-dotall), e.g. "interface Props \\{[^}]*children". Default false.',
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
});

type GrepArgs = z.output<typeof grepInput>;

export const grepTool = defineTool({
  name: 'Grep',
  description:
    'Searches file contents of the workspace with ripgrep (Rust regular expressions, e.g. ' +
    '"log.*Error", "function\\s+\\w+"; escape literal braces and dots). Files excluded by ' +
    '.gitignore or .ignore, binary files and the .git directory are skipped; other hidden files ' +
    'are searched. output_mode "files_with_matches" (the default) lists matching files, "count" ' +
    'gives matching lines per file, "content" shows matching lines as "path:line:text" (context ' +
    'lines as "path-line-text"). A match stays within one line unless multiline is set. Paths ' +
    `are relative to the workspace root. At most ${GREP_MAX_LINES} lines and ` +
    `${GREP_MAX_BYTES / 1024} KiB are returned; narrow the search with path, glob, type or ` +
    'head_limit.',
  input: grepInput,
  async run(args, ctx) {
    // An unknown type is refused before anything is searched, even when path names a file.
    const ofType =
      args.type === undefined
        ? undefined
        : fileTypeFilter(await fileTypes(ctx.childEnv, ctx.workspace.root), args.type);
    const target = await ctx.workspace.resolve(args.path ?? '.');
    const display = ctx.workspace.relative(target);
    // What is searched is opened first, without following symlinks, and its type is asked of the
    // descriptor: a FIFO, socket or device is refused here (rg would wait on a FIFO forever).
    let fd: number;
    try {
      fd = ctx.workspace.openInside(target, OPEN_FOR_SEARCHING);
    } catch (err) {
      throw fsFailure(err, display, 'Path');
    }
    try {
      const stats = fstatSync(fd);
      if (stats.isDirectory()) {
        return await searchFolder(args, ctx, { target, display, fd, ofType });
      }
      if (!stats.isFile()) {
        throw new ToolFailure(
          `${display} is not a regular file or a directory; Grep searches files and directories`,
        );
      }
      const found = await searchFiles(args, ctx, [{ display, fd }]);
      if (found.records.length > 0) return format(args, found, false);
      // A file named explicitly is searched whatever a glob says; a bad pattern fails here.
      if (found.failed !== undefined) throw grepFailure(args, found.failed);
      return NO_MATCHES;
    } finally {
      closeSync(fd);
    }
  },
});

/** Read-only, never blocking on a FIFO, never a controlling terminal (O_NOFOLLOW is added). */
const OPEN_FOR_SEARCHING = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/**
 * Searches a folder in two steps. rg first lists the files that match (-l), walking the folder
 * with the ignore rules and the glob; its walk looks paths up, so a folder swapped for a symlink
 * meanwhile could lead it out of the workspace, which is why that list only selects. Each selected
 * file is then opened without following symlinks and checked (Workspace.openInside), and rg
 * searches those open files for the answer: nothing it shows was read anywhere but inside.
 */
async function searchFolder(
  args: GrepArgs,
  ctx: ToolContext,
  { target, display, fd, ofType }: SearchedFolder,
): Promise<string> {
  const limit = Math.min(args.head_limit ?? GREP_MAX_LINES, GREP_MAX_LINES);
  // A folder is searched from inside (rg applies the .gitignore rules of the folders above it
  // correctly only then), so its paths get the folder prepended.
  let plan: Plan = { cwd: target, prefix: display === '.' ? '' : `${display}/`, rgArgs: [] };
  if (args.glob !== undefined) {
    const planned = await planGlob(args.glob, plan, ctx);
    if (planned === 'nothing') return NO_MATCHES;
    plan = planned;
  }
  let folder = fd;
  if (plan.cwd !== target) {
    try {
      folder = ctx.workspace.openFolder(plan.cwd, false);
    } catch (err) {
      throw fsFailure(err, ctx.workspace.relative(plan.cwd), 'Directory');
    }
  }
  let selection: RipgrepResult;
  let allowed: boolean;
  try {
    const selectArgs = ['--color', 'never', '--hidden', '--no-require-git', '-l', '--null'];
    selectArgs.push(...patternFlags(args), ...plan.rgArgs);
    // rg's own --type spares it reading other files, but several --type widen each other and a
    // glob that matches a file overrides them: the type is applied to what rg selects anyway.
    if (ofType !== undefined && !plan.rgArgs.includes('--type')) {
      selectArgs.push('--type', ofType.name);
    }
    // Last, so that no glob of the caller can bring .git back (rg's last matching glob wins).
    selectArgs.push('--glob', '!.git');
    // -e keeps a pattern starting with "-" from being read as an option.
    selectArgs.push('-e', args.pattern);
    [allowed, selection] = await Promise.all([
      plan.allowed ?? true,
      runRipgrep({
        args: selectArgs,
        // rg runs in the checked folder itself: its own view of the descriptor, not a path.
        cwd: viaDescriptor(folder),
        env: ctx.childEnv,
        signal: ctx.signal,
        maxRecords: limit,
        maxBytes: GREP_SELECTED_MAX_BYTES,
        separator: 0,
        accept: acceptSelected(plan.only, ofType),
      }),
    ]);
  } finally {
    if (folder !== fd) closeSync(folder);
  }
  if (!allowed) return NO_MATCHES;
  if (selection.records === 0) {
    // A glob or type that leaves no file to search is no match, not a failure.
    if (selection.exitCode === 2 && !selection.stderr.startsWith('No files were searched')) {
      throw grepFailure(args, selection.stderr || 'rg exited with an error');
    }
    return NO_MATCHES;
  }
  const selected = selection.output.split('\0').slice(0, -1);
  selected.sort();
  const files: HandedFile[] = [];
  const cursor = ctx.workspace.cursor();
  try {
    for (const path of selected) {
      const opened = openSelected(ctx, cursor, plan.prefix + path);
      if (opened !== undefined) files.push(opened);
    }
    cursor.close();
    const found = await searchFiles(args, ctx, files);
    if (selection.truncated !== false && found.truncated === false) found.truncated = 'records';
    if (selection.exitCode === 2 && selection.stderr !== '') {
      found.stderr ||= listingFailures(selection.stderr);
    }
    return found.records.length === 0 ? NO_MATCHES : format(args, found, true);
  } finally {
    cursor.close();
    for (const file of files) closeSync(file.fd);
  }
}

/** The folder a Grep searches: its real path, as shown, open; and the type asked for. */
interface SearchedFolder {
  target: string;
  display: string;
  fd: number;
  ofType: FileTypeFilter | undefined;
}

/** The flags that decide how the pattern matches, the same for both of a folder's searches. */
function patternFlags(args: GrepArgs): string[] {
  const flags: string[] = [];
  if (args['-i'] === true) flags.push('-i');
  if (args.multiline === true) flags.push('-U', '--multiline-dotall');
  return flags;
}

/** rg's error as the caller's; where rg suggests its --multiline flag, says what it is here. */
function grepFailure(args: GrepArgs, message: string): ToolFailure {
  const hint =
    args.multiline !== true && message.includes('--multiline')
      ? '\nWith Grep, set multiline to true.'
      : '';
  return new ToolFailure(`Grep failed: ${message}${hint}`);
}

/** A selected file opened for the search, or undefined when it is no longer a regular file inside. */
function openSelected(
  ctx: ToolContext,
  cursor: FolderCursor,
  display: string,
): HandedFile | undefined {
  let fd: number;
  try {
    fd = cursor.openInside(join(ctx.workspace.root, display), OPEN_FOR_SEARCHING);
  } catch (err) {
    // Gone, changed meanwhile (ChangedMeanwhile), unreadable or not openable: not searched.
    // Anything else (out of descriptors) is the sandbox's problem and fails the call.
    if (
      err instanceof PathError ||
      SKIPPED_OPEN_ERRORS.has((err as NodeJS.ErrnoException).code ?? '')
    ) {
      return undefined;
    }
    throw err;
  }
  if (fstatSync(fd).isFile()) return { display, fd };
  closeSync(fd);
  return undefined;
}

/** Why a selected file may fail to open that only means it is not searched. */
const SKIPPED_OPEN_ERRORS: ReadonlySet<string> = new Set([
  'ENOENT',
  'ENOTDIR',
  'ELOOP',
  'EACCES',
  'EPERM',
  'ENXIO',
]);

/** A file opened and checked, handed to rg as a descriptor, shown as `display`. */
interface HandedFile {
  display: string;
  fd: number;
}

interface Found {
  /** Output lines (content), paths or "path:count" entries, paths as the caller sees them. */
  records: string[];
  truncated: RipgrepResult['truncated'];
  /** rg's first error line about files it could not search, '' when none. */
  stderr: string;
  /** rg's error when it found nothing because it failed (a malformed pattern). */
  failed?: string;
}

/**
 * rg over open files (at most GREP_HANDED_FILES at a time, as its descriptors), in the output mode
 * asked for; the descriptors' paths in its output are replaced by the files' own. The caps count
 * the lines as shown.
 */
async function searchFiles(args: GrepArgs, ctx: ToolContext, files: HandedFile[]): Promise<Found> {
  const mode = args.output_mode;
  const limit = Math.min(args.head_limit ?? GREP_MAX_LINES, GREP_MAX_LINES);
  const rgArgs = ['--color', 'never'];
  if (mode === 'content') {
    rgArgs.push('--no-heading', '--with-filename', args['-n'] === false ? '-N' : '-n');
    // rg elides the rest of an over-long line (minified files) itself, before it reaches us.
    rgArgs.push('--max-columns', String(GREP_MAX_LINE_CHARS), '--max-columns-preview');
    if (args['-C'] !== undefined) rgArgs.push('-C', String(args['-C']));
    if (args['-A'] !== undefined) rgArgs.push('-A', String(args['-A']));
    if (args['-B'] !== undefined) rgArgs.push('-B', String(args['-B']));
    // Paths must be told apart from the rest of each line to be replaced.
    rgArgs.push('--field-match-separator', '\\x00:', '--field-context-separator', '\\x00-');
  } else if (mode === 'count') {
    rgArgs.push('-c', '--with-filename', '--null');
  } else {
    rgArgs.push('-l', '--null');
  }
  rgArgs.push(...patternFlags(args));
  const withContext =
    args['-A'] !== undefined || args['-B'] !== undefined || args['-C'] !== undefined;

  const records: string[] = [];
  let bytes = 0;
  let truncated: RipgrepResult['truncated'] = false;
  let stderr = '';
  let failed: string | undefined;
  for (let start = 0; start < files.length && truncated === false; start += GREP_HANDED_FILES) {
    const batch = files.slice(start, start + GREP_HANDED_FILES);
    const longest = Math.max(...batch.map((file) => Buffer.byteLength(file.display)));
    const result = await runRipgrep({
      // -e and -- keep a pattern starting with "-" from being read as an option.
      args: [...rgArgs, '-e', args.pattern, '--', ...ripgrepFileArgs(batch.length)],
      // Any folder will do: rg reads only the descriptors it is given.
      cwd: ctx.workspace.root,
      files: batch.map((file) => file.fd),
      env: ctx.childEnv,
      signal: ctx.signal,
      maxRecords: limit - records.length,
      // Shown paths may be longer than the descriptors' paths rg prints: the exact cut is below.
      maxBytes: GREP_MAX_BYTES + (limit - records.length) * longest,
      separator: mode === 'files_with_matches' ? 0 : 0x0a,
    });
    if (result.exitCode === 2) {
      if (result.records === 0) failed ??= result.stderr || 'rg exited with an error';
      else stderr ||= result.stderr;
    }
    let lines = outputLines(result.output, mode).map((line) => shownPath(line, batch));
    if (mode === 'content' && withContext && records.length > 0 && lines.length > 0) {
      lines = ['--', ...lines]; // between groups of lines, as rg separates its own
    }
    for (const line of lines) {
      const size = Buffer.byteLength(line) + 1;
      if (records.length >= limit) {
        truncated = 'records';
        break;
      }
      if (bytes + size > GREP_MAX_BYTES) {
        truncated = 'bytes';
        break;
      }
      bytes += size;
      records.push(line);
    }
    if (truncated === false && result.truncated !== false) truncated = result.truncated;
    if (truncated === false && records.length >= limit && start + batch.length < files.length) {
      truncated = 'records';
    }
  }
  while (records.at(-1) === '--') records.pop();
  return { records, truncated, stderr, failed };
}

/** A line rg printed about handed file i ("/proc/self/fd/<3+i>..."), with the file's own path. */
function shownPath(line: string, batch: readonly HandedFile[]): string {
  const match = /^\S+?(?=[:-]|$)/.exec(line);
  if (!match) return line;
  const index = handedFileIndex(match[0]);
  const file = index === -1 ? undefined : batch[index];
  return file === undefined ? line : file.display + line.slice(match[0].length);
}

/**
 * What the listing's errors say, without their paths: rg walks the folder by name, so a folder
 * swapped for a symlink meanwhile can make it name (and fail on) files outside the workspace. What
 * it lists is opened inside before it is searched; what it failed on is only counted.
 */
export function listingFailures(stderr: string): string {
  const count = stderr.split('\n').filter((line) => line.trim() !== '').length;
  return `${count} path${count === 1 ? '' : 's'} could not be read while listing the folder`;
}

/** The answer's text: the lines (sorted unless they are content), the markers, the totals. */
function format(args: GrepArgs, found: Found, sort: boolean): string {
  const mode = args.output_mode;
  const lines = found.records;
  // rg searches files in parallel; sorted lists read better and stay the same between calls.
  if (mode !== 'content' && sort) lines.sort();
  let text = lines.join('\n');
  if (mode === 'count' && found.truncated === false) {
    let total = 0;
    for (const line of lines) total += Number(line.slice(line.lastIndexOf(':') + 1));
    const files = lines.length;
    text += `\n\n${total} matching line${total === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'}`;
  }
  if (found.truncated === 'records') {
    text +=
      args.head_limit !== undefined && args.head_limit <= GREP_MAX_LINES
        ? `\n… [stopped at head_limit=${args.head_limit}; more results not shown]`
        : `\n… [output cut at ${GREP_MAX_LINES} lines; narrow the search with path, glob or a more specific pattern]`;
  } else if (found.truncated === 'bytes') {
    text += `\n… [output cut at ${GREP_MAX_BYTES / 1024} KiB; narrow the search with path, glob or a more specific pattern]`;
  }
  if (found.stderr !== '') {
    text += `\n(some files could not be searched: ${found.stderr.split('\n')[0]})`;
  }
  return text;
}

const NO_MATCHES = 'No matches found';

/** How rg is run: where, with which extra arguments, and how its paths are made root-relative. */
interface Plan {
  cwd: string;
  /** Prepended to every path rg prints, to make it relative to the workspace root. */
  prefix: string;
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
    // Asked while the search runs; its results are dropped if base turns out to be ignored. The
    // search may fail before this is awaited (its folder gone meanwhile): that must not leave a
    // rejection nobody handles, which would end the process.
    const allowed = isNotIgnored(ctx, plan.cwd, base);
    allowed.catch(() => undefined);
    return { cwd: join(plan.cwd, base), prefix: `${plan.prefix}${base}/`, rgArgs, allowed };
  }
  const listed = await listFiles(ctx, plan.cwd, compiled, {
    maxFiles: GLOB_MAX_SCANNED,
    maxBytes: GLOB_MAX_SCANNED_BYTES,
  });
  if (listed.paths.length === 0 && !listed.truncated) return 'nothing';
  const rgArgs = ['--glob', compiled.normalized];
  return listed.truncated ? { ...plan, rgArgs } : { ...plan, rgArgs, only: new Set(listed.paths) };
}

/**
 * Which paths rg selects (as it lists them with -l) are kept: those in `only` (when set) and of
 * the type asked for (when one is); undefined when all are.
 */
function acceptSelected(
  only: Set<string> | undefined,
  ofType: FileTypeFilter | undefined,
): ((record: string) => boolean) | undefined {
  if (only === undefined) return ofType?.matches;
  if (ofType === undefined) return (record) => only.has(record);
  return (record) => only.has(record) && ofType.matches(record);
}

/** rg's output (run with NUL after each path) as lines, with rg's usual separators. */
function outputLines(output: string, mode: string): string[] {
  if (mode === 'files_with_matches') return output.split('\0').slice(0, -1);
  if (output === '') return [];
  const lines = (output.endsWith('\n') ? output.slice(0, -1) : output).split('\n');
  if (mode === 'count') return lines.map((line) => line.replace('\0', ':'));
  while (lines.at(-1) === '--') lines.pop();
  return lines.map((line) => line.replace(/\0([:-])/g, '$1'));
}
