import assert from 'node:assert/strict';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { start, tempDir, type Started } from '@paddock/testing';

/**
 * The longest a swapper runs, whatever happens to the test that started it: a bound on the CPU it
 * can take from the machine if a test dies without stopping it.
 */
export const SWAPPER_MAX_SECONDS = 300;

/**
 * How long each state (the real entry, the symlink) stays in place, busy-waiting, in microseconds:
 * long enough for a request to land on either, short enough for thousands of swaps a second.
 */
export const SWAP_HOLD_MICROSECONDS = 100;

/**
 * The swapping loop, run by a separate node process: it renames `entry` (a file or folder inside
 * the workspace) away to `hold`, renames `link` (a symlink to the outside) into its place, waits,
 * then puts the real entry back and waits again, yielding to its event loop every few hundred
 * swaps so that it notices its stdin closing. If something recreated the entry while it was away
 * (a Write creating missing folders), that is moved aside to a `.junk-<n>` sibling inside the
 * workspace and the swap goes on. When stdin closes (or SWAPPER_MAX_SECONDS pass) it stops with
 * the real entry in place, prints how many swaps it made, and exits. It prints "swapping" once
 * it has started.
 */
const SWAPPER_SCRIPT = `
const { renameSync, lstatSync } = require('node:fs');
const { dirname, join } = require('node:path');
const [entry, hold, link, maxSeconds, holdMicros] = process.argv.slice(1);
const deadline = Date.now() + Number(maxSeconds) * 1000;
const holdNs = BigInt(holdMicros) * 1000n;
let swaps = 0;
let junk = 0;
let stopping = false;
process.stdin.on('end', () => { stopping = true; });
process.stdin.resume();
const exists = (path) => { try { lstatSync(path); return true; } catch { return false; } };
// Puts from at entry; whatever was recreated at entry meanwhile goes aside, inside the workspace.
function place(from) {
  for (;;) {
    try { renameSync(from, entry); return; } catch {}
    if (exists(entry)) renameSync(entry, join(dirname(entry), '.junk-' + junk++));
  }
}
const wait = () => { const until = process.hrtime.bigint() + holdNs; while (process.hrtime.bigint() < until); };
function chunk() {
  for (let i = 0; i < 200; i++) {
    renameSync(entry, hold);
    place(link);
    wait();
    renameSync(entry, link);
    place(hold);
    wait();
    swaps++;
  }
  if (stopping || Date.now() > deadline) {
    process.stdout.write('swaps ' + swaps + '\\n');
    process.exit(0);
  }
  setImmediate(chunk);
}
process.stdout.write('swapping\\n');
chunk();
`;

export interface Swapper {
  /** Stops the loop, waits until the real entry is back in place, and returns the swaps made. */
  stop: () => Promise<number>;
}

/**
 * Starts a real process that keeps swapping `entry` (absolute path inside the workspace) for a
 * symlink to `outsideTarget`, and resolves once it is swapping. `stash` is a folder outside the
 * workspace on the same file system, where (in a fresh subfolder per swapper) the real entry and
 * the link wait their turn.
 */
export async function startSwapper(
  entry: string,
  outsideTarget: string,
  stash: string,
): Promise<Swapper> {
  const own = await mkdtemp(join(stash, 'swap-'));
  const hold = join(own, 'hold');
  const link = join(own, 'link');
  await symlink(outsideTarget, link);
  const child: Started = start(
    process.execPath,
    [
      '-e',
      SWAPPER_SCRIPT,
      entry,
      hold,
      link,
      String(SWAPPER_MAX_SECONDS),
      String(SWAP_HOLD_MICROSECONDS),
    ],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  await child.waitForOutput(/swapping/, 30_000);
  return {
    stop: async () => {
      child.child.stdin?.end();
      const [, swaps] = await child.waitForOutput(/swaps (\d+)/, 60_000);
      await child.exited;
      return Number(swaps);
    },
  };
}

/** A text no workspace file contains: finding it in an answer means outside content leaked. */
export const OUTSIDE_MARKER = 'OUTSIDE-SECRET-7f3a9c';
/** A file name that exists only outside the workspace. */
export const OUTSIDE_ONLY_NAME = 'outside-only.png';

export interface RaceScene {
  /** The workspace folder (a real path). */
  workspace: string;
  /** A folder outside the workspace holding the secrets. */
  outside: string;
  /** Outside the workspace too: where the swapper keeps the entry and the link. */
  stash: string;
  remove: () => Promise<void>;
}

/**
 * A workspace and an outside folder side by side in one temporary folder (one file system):
 * workspace/file.txt, workspace/data.png and workspace/sub/file.txt say "inside content";
 * outside/file.txt and outside/outside-only.png hold OUTSIDE_MARKER, and outside/secret.txt too,
 * as the target of a swapped file. (A zip stores .png files as they are, so their bytes show.)
 */
export async function raceScene(): Promise<RaceScene> {
  const temp = await tempDir('paddock-race-');
  const workspace = join(temp.path, 'workspace');
  const outside = join(temp.path, 'outside');
  const stash = join(temp.path, 'stash');
  await mkdir(join(workspace, 'sub'), { recursive: true });
  await mkdir(outside);
  await mkdir(stash);
  await writeFile(join(workspace, 'sub', 'file.txt'), 'inside content\n');
  await writeFile(join(workspace, 'file.txt'), 'inside content\n');
  await writeFile(join(workspace, 'data.png'), 'inside content\n');
  await writeFile(join(outside, 'file.txt'), `${OUTSIDE_MARKER}\n`);
  await writeFile(join(outside, OUTSIDE_ONLY_NAME), `${OUTSIDE_MARKER}\n`);
  await writeFile(join(outside, 'secret.txt'), `${OUTSIDE_MARKER}\n`);
  return { workspace, outside, stash, remove: temp.remove };
}

/**
 * Runs `attempt` up to `count` times with `concurrency` workers (each running its attempts one
 * after the other, `worker` its number), stopping early when `maxSeconds` have passed (a bound for
 * a loaded machine); returns how many ran.
 */
export async function boundedLoop(
  count: number,
  concurrency: number,
  maxSeconds: number,
  attempt: (i: number, worker: number) => Promise<void>,
): Promise<number> {
  const deadline = Date.now() + maxSeconds * 1000;
  let next = 0;
  const worker = async (n: number): Promise<void> => {
    while (next < count && Date.now() < deadline) await attempt(next++, n);
  };
  await Promise.all(Array.from({ length: concurrency }, (_, n) => worker(n)));
  return next;
}

/** Outside content or names in an answer: the marker, or the name only the outside folder has. */
export function showsOutside(answer: string | Buffer): boolean {
  return answer.includes(OUTSIDE_MARKER) || answer.includes(OUTSIDE_ONLY_NAME);
}

/** An entry of the scene's workspace (relative to it) and the outside path its symlink targets. */
export type Swap = [entry: string, target: string];

/**
 * Runs `during` while each of `swaps` is swapped by a swapper of its own; then stops them all and
 * asserts that each swapped.
 */
export async function whileSwapped<T>(
  scene: RaceScene,
  swaps: readonly Swap[],
  during: () => Promise<T>,
): Promise<T> {
  const swappers: Swapper[] = [];
  for (const [entry, target] of swaps) {
    swappers.push(await startSwapper(join(scene.workspace, entry), target, scene.stash));
  }
  try {
    return await during();
  } finally {
    for (const swapper of swappers) {
      assert.ok((await swapper.stop()) > 0, 'the swapper never swapped');
    }
  }
}

export interface Race {
  swaps: readonly Swap[];
  /** The bounded loop (see boundedLoop). */
  count: number;
  concurrency: number;
  maxSeconds: number;
  /** One request; resolves with its answer (a refusal is an answer too). */
  attempt: (i: number, worker: number) => Promise<string | Buffer>;
  /** A text that an answer showing the inside holds. */
  insideSign: string;
}

/**
 * Runs a race's attempts in a bounded loop while its entries are swapped; asserts that no answer
 * showed outside content and that some showed the inside (else the race proves nothing). Returns
 * [attempts, answers that showed the inside].
 */
export async function raceWhileSwapped(
  scene: RaceScene,
  race: Race,
): Promise<[attempts: number, inside: number]> {
  const leaks: string[] = [];
  let inside = 0;
  const attempts = await whileSwapped(scene, race.swaps, () =>
    boundedLoop(race.count, race.concurrency, race.maxSeconds, async (i, worker) => {
      const answer = await race.attempt(i, worker);
      if (showsOutside(answer)) leaks.push(answer.toString());
      else if (answer.includes(race.insideSign)) inside++;
    }),
  );
  assert.deepEqual(leaks, [], `${leaks.length} of ${attempts} answers showed outside content`);
  assert.ok(inside > 0, 'no answer saw the inside: the race proves nothing');
  return [attempts, inside];
}
