import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from './tools/bash.js';
import { MAX_RUNNING_SHELLS } from './shells.js';

/** What the instructions are made of: the sandbox's configuration as an agent needs to know it. */
export interface InstructionsConfig {
  /** The workspace root, its real path (symlinks resolved), as Bash's `pwd` prints it. */
  root: string;
}

/**
 * The server instructions of the initialize result: what an agent must know before its first call
 * and cannot see in any one tool's description. A few lines, read into the agent's context once.
 */
export function serverInstructions({ root }: InstructionsConfig): string {
  return [
    'This server gives access to one workspace folder: its files and a shell running in it.',
    `Workspace root: ${root}`,
    '- Paths: give them relative to the workspace root (e.g. "src/index.ts") or absolute inside it; ' +
      'results show them relative to the root. The file tools refuse paths that lead outside it ' +
      '("..", other absolute paths, symlinks pointing out).',
    '- Bash: every call runs a new `bash -c` that starts in the workspace root with stdin closed, ' +
      'so a `cd` or a variable does not carry over to the next call: chain steps with && or use ' +
      `paths from the root. A call is killed after ${seconds(DEFAULT_TIMEOUT_MS)} s unless ` +
      `timeout says otherwise (at most ${seconds(MAX_TIMEOUT_MS)} s); start servers and watchers ` +
      `with run_in_background (at most ${MAX_RUNNING_SHELLS} at once), then use BashOutput and KillShell.`,
    '- Write and Edit change an existing file only after Read has read it in this session, and ' +
      'refuse it if it changed since.',
    '- Redaction: values that look like secrets are replaced in every result by [REDACTED:<kind>], ' +
      'e.g. "DB_PASSWORD=[REDACTED:secret-assignment]"; the real value is never shown. A marker ' +
      'written back with Write or Edit keeps the real value the file holds in its place.',
    '- Long results are cut with a note saying how to get the rest (Read: offset and limit; ' +
      'Grep: path, glob, type or head_limit).',
  ].join('\n');
}

function seconds(ms: number): number {
  return ms / 1000;
}
