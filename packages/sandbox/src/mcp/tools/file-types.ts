import { ToolFailure } from '../tool.js';
import { compileGlob } from './glob-pattern.js';
import { FILE_TYPES_MAX_BYTES, FILE_TYPES_MAX_NAMES, FILE_TYPE_SUGGESTIONS } from './limits.js';
import { runRipgrep } from './ripgrep.js';

/** ripgrep's file types: each name ("js") with the file-name globs that make it ("*.js", ...). */
export type FileTypes = ReadonlyMap<string, readonly string[]>;

/**
 * Parses `rg --type-list`: one type a line, "name: glob, glob". Lines that do not have that
 * shape are skipped (a future rg may add notes).
 */
export function parseTypeList(text: string): Map<string, string[]> {
  const types = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const match = /^([\w-]+): (.+)$/.exec(line.trim());
    if (match) types.set(match[1]!, match[2]!.split(', ').filter(Boolean));
  }
  return types;
}

/** One file type asked for: its name, and a test of a path (as rg lists it, '/'-separated). */
export interface FileTypeFilter {
  name: string;
  matches: (path: string) => boolean;
}

/**
 * The filter of a file type: rg matches a type's globs against the file name only. An unknown
 * name is the caller's mistake, a ToolFailure that names the closest known types.
 */
export function fileTypeFilter(types: FileTypes, name: string): FileTypeFilter {
  const globs = types.get(name);
  if (globs === undefined) {
    const near = suggestTypes(types, name);
    throw new ToolFailure(
      `Unknown file type "${name}" for Grep's type: it takes a ripgrep type name such as js, ts, ` +
        `py, rust, go or java` +
        (near.length > 0 ? `; did you mean ${near.map((n) => `"${n}"`).join(' or ')}?` : '') +
        ' (`rg --type-list` lists them all; glob takes any file-name pattern).',
    );
  }
  const patterns = globs.map((glob) => compileGlob(glob).regex);
  const matches = (path: string): boolean => {
    const fileName = path.slice(path.lastIndexOf('/') + 1);
    return patterns.some((pattern) => pattern.test(fileName));
  };
  return { name, matches };
}

/**
 * Known types a mistaken name probably meant: one whose name starts the other ("python" → py),
 * or whose globs name the extension given ("tsx" → ts, "jsx" → js), at most a few.
 */
export function suggestTypes(types: FileTypes, name: string): string[] {
  const wanted = name.toLowerCase();
  const found: string[] = [];
  for (const [known, globs] of types) {
    // One letter in common says nothing ("cobol" is no "c").
    const prefix =
      Math.min(known.length, wanted.length) >= 2 &&
      (wanted.startsWith(known) || known.startsWith(wanted));
    if (prefix || globs.includes(`*.${wanted}`)) found.push(known);
    if (found.length >= FILE_TYPE_SUGGESTIONS) break;
  }
  return found;
}

/** rg's types, asked of rg once per process (its version decides which exist). */
let known: Promise<FileTypes> | undefined;

/**
 * The file types of the rg on PATH, from `rg --type-list` (bounded; about 5 KB). Asked at the
 * first Grep with a type and kept; a failure is not kept, so the next call asks again.
 */
export function fileTypes(env: NodeJS.ProcessEnv, cwd: string): Promise<FileTypes> {
  known ??= runRipgrep({
    args: ['--type-list'],
    cwd,
    env,
    // Shared by every later call, so no one caller's cancellation may end it.
    signal: new AbortController().signal,
    maxRecords: FILE_TYPES_MAX_NAMES,
    maxBytes: FILE_TYPES_MAX_BYTES,
  })
    .then((listed) => {
      if (listed.exitCode !== 0) {
        throw new Error(`rg --type-list failed: ${listed.stderr || 'its output was cut'}`);
      }
      return parseTypeList(listed.output);
    })
    .catch((err: unknown) => {
      known = undefined;
      throw err;
    });
  return known;
}
