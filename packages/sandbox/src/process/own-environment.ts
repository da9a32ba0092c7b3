import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { isSecretName } from '@paddock/common/scrub';

/**
 * The sandbox's own secrets out of reach of the commands it runs. A process's environment as it
 * was started stays readable in /proc/<pid>/environ by every process of the same user, whatever
 * the process later does to `process.env`: a command can read its parent's (`/proc/$PPID/environ`)
 * however the output is encoded afterwards. So at start the sandbox copies its environment, removes
 * the secret variables from it, and overwrites their entries in that initial block with zero
 * bytes, through /proc/self/mem, before it serves anything or starts any command.
 */

/** Fields 50 and 51 of /proc/<pid>/stat: where the initial environment block starts and ends. */
const ENV_START_FIELD = 50;
const ENV_END_FIELD = 51;

/** A variable hidden from the environment block: the sandbox's configuration secrets and the like. */
export function isHiddenVariable(name: string): boolean {
  return isSecretName(name);
}

/**
 * Where the entries `NAME=value` of an environment block (entries ended by NUL) whose name is
 * hidden lie: [start, end) byte ranges, the name included, so that nothing of them is left.
 */
export function hiddenEntryRanges(
  block: Uint8Array,
  hidden: (name: string) => boolean = isHiddenVariable,
): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf(0, start);
    if (end === -1) end = block.length;
    const entry = Buffer.from(block.subarray(start, end)).toString('latin1');
    const equals = entry.indexOf('=');
    if (equals > 0 && hidden(entry.slice(0, equals))) ranges.push([start, end]);
    start = end + 1;
  }
  return ranges;
}

/** The [start, end) addresses of this process's initial environment block, from a stat line. */
export function environmentBlockOf(stat: string): [number, number] {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the comm, the fields are numbered from 3 (state).
  const start = fields[ENV_START_FIELD - 3];
  const end = fields[ENV_END_FIELD - 3];
  const block = [Number(start), Number(end)] as [number, number];
  // User-space addresses stay below 2^47, well within what a number holds exactly.
  if (!block.every((n) => Number.isSafeInteger(n) && n > 0) || block[0] > block[1]) {
    throw new Error('/proc/self/stat does not show where the environment lies');
  }
  return block;
}

/**
 * The environment with its secrets, for the sandbox alone: secret variables are removed from
 * `process.env` (so no default spawn passes them on) and wiped from the initial environment block
 * (so /proc/<pid>/environ no longer shows them). Throws when a secret would stay readable there,
 * so that the sandbox refuses to start rather than serve with its secrets exposed. Only Linux has
 * /proc/<pid>/environ; elsewhere the secrets are only removed from `process.env`.
 */
export function takeOwnEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  const names = Object.keys(env).filter(isHiddenVariable);
  for (const name of names) Reflect.deleteProperty(process.env, name);
  if (process.platform !== 'linux' || names.length === 0) return env;
  try {
    wipeEnvironmentBlock();
  } catch (err) {
    throw new Error(
      `cannot hide the sandbox's secrets (${names.join(', ')}) from the commands it runs: ` +
        `${(err as Error).message}`,
      { cause: err },
    );
  }
  return env;
}

function wipeEnvironmentBlock(): void {
  const [start] = environmentBlockOf(readFileSync('/proc/self/stat', 'utf8'));
  const block = readFileSync('/proc/self/environ');
  const ranges = hiddenEntryRanges(block);
  if (ranges.length === 0) return;
  const mem = openSync('/proc/self/mem', 'r+');
  try {
    for (const [from, to] of ranges) {
      writeSync(mem, Buffer.alloc(to - from), 0, to - from, start + from);
    }
  } finally {
    closeSync(mem);
  }
  if (hiddenEntryRanges(readFileSync('/proc/self/environ')).length > 0) {
    throw new Error('its entries are still in /proc/self/environ after overwriting them');
  }
}
