import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eventually } from './waiting.js';

export interface RenameLoop {
  /** Whether the loop is still renaming. */
  running: () => boolean;
  /** Stops the loop, waits until it has exited, and returns how many renames it made. */
  finish: () => Promise<number>;
}

let loops = 0;

/**
 * Makes the tree the loop renames: `folder`/a with `folders` folders d<i> of `filesPerFolder` files
 * f<n>.txt each (`folder` is made too when missing).
 */
export async function makeRenameTree(
  folder: string,
  folders: number,
  filesPerFolder: number,
): Promise<void> {
  for (let i = 0; i < folders; i++) {
    await mkdir(join(folder, 'a', `d${i}`), { recursive: true });
    for (let f = 0; f < filesPerFolder; f++) {
      await writeFile(join(folder, 'a', `d${i}`, `f${f}.txt`), `${i}.${f}\n`);
    }
  }
}

/**
 * Starts a real bash loop renaming `folder`/a to `folder`/b and back (`mv a b; mv b a`), bounded by
 * `maxSeconds` and, when given, by `maxRenames`; resolves once it runs. It stops when a stop file
 * (a sibling of `folder`, outside it) appears.
 */
export async function startRenameLoop(
  folder: string,
  bounds: { maxSeconds: number; maxRenames?: number },
): Promise<RenameLoop> {
  const stop = `${folder}.stop-${++loops}`;
  const counted = bounds.maxRenames === undefined ? '' : ` && [ $i -lt ${bounds.maxRenames} ]`;
  const script = `cd "$1"; echo started; i=0; while [ ! -e "$2" ]${counted}; do mv a b; mv b a; i=$((i+2)); done; echo "$i"`;
  const child = spawn('timeout', [
    String(bounds.maxSeconds),
    'bash',
    '-c',
    script,
    'loop',
    folder,
    stop,
  ]);
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = once(child, 'exit');
  await eventually('the loop started', () => (out.startsWith('started') ? true : undefined));
  return {
    running: () => child.exitCode === null && child.signalCode === null,
    finish: async () => {
      await writeFile(stop, '');
      await exited;
      await rm(stop, { force: true });
      return Number(out.replace('started', '').trim());
    },
  };
}
