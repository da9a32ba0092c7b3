import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** A program the sandbox itself runs, which must be installed for it to start. */
export interface RequiredProgram {
  /** The command looked up on PATH. */
  command: string;
  /** What to install. */
  name: string;
  /** What needs it. */
  usedBy: string;
}

/**
 * What paddock-sandbox runs itself and cannot work without. The Grep and Glob tools run ripgrep;
 * without it they could only fail on every call, so the sandbox refuses to start instead.
 */
export const REQUIRED_PROGRAMS: readonly RequiredProgram[] = [
  { command: 'rg', name: 'ripgrep', usedBy: 'the Grep and Glob tools' },
];

/** The search path a child process gets when PATH is unset (what libuv's execvp falls back to). */
const DEFAULT_SEARCH_PATH = '/usr/local/bin:/usr/bin:/bin';

/**
 * Where `command` would be found on `searchPath` (PATH's value), asking `isExecutable` about each
 * candidate in order; undefined when nowhere. An empty entry means the current folder, as for
 * execvp.
 */
export function findOnPath(
  command: string,
  searchPath: string | undefined,
  isExecutable: (path: string) => boolean,
): string | undefined {
  for (const folder of (searchPath ?? DEFAULT_SEARCH_PATH).split(delimiter)) {
    const candidate = join(folder === '' ? '.' : folder, command);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The one line that says why the sandbox does not start without `program`. */
export function missingProgramLine(program: RequiredProgram): string {
  return (
    `error: ${program.name} (${program.command}) is not installed or not on PATH; ` +
    `${program.usedBy} need it: install ${program.name} and start again`
  );
}

/** The first required program missing from the environment's PATH, or undefined. */
export function missingProgram(env: NodeJS.ProcessEnv): RequiredProgram | undefined {
  return REQUIRED_PROGRAMS.find(
    (program) => findOnPath(program.command, env.PATH, isExecutableFile) === undefined,
  );
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
