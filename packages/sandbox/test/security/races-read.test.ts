import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startMcpRace, type McpRace } from '../support/race-sandbox.js';
import { textOf } from '../support/sandbox.js';
import { raceWhileSwapped } from '../support/swapper.js';

/** Reads per race, and the most seconds they may take on a loaded machine. */
const READS = 2000;
const MAX_SECONDS = 120;
/** Calls in flight at once: more chances to land inside a swap. */
const CONCURRENCY = 4;

describe('Read while a file or its folder is swapped for a symlink to the outside', () => {
  let race: McpRace;
  before(async () => {
    race = await startMcpRace(CONCURRENCY);
  });
  after(async () => {
    await race?.stop();
  });

  /** Reads `path` in a bounded loop while `entry` is swapped; returns [attempts, inside reads]. */
  function raceReads(path: string, entry: string, target: string): Promise<[number, number]> {
    return raceWhileSwapped(race.scene, {
      swaps: [[entry, target]],
      count: READS,
      concurrency: CONCURRENCY,
      maxSeconds: MAX_SECONDS,
      attempt: async (_, worker) => {
        const read = { name: 'Read', arguments: { file_path: path } };
        return textOf(await race.clients[worker]!.callTool(read));
      },
      insideSign: 'inside content',
    });
  }

  test('never returns the outside file when the file is swapped', async (t) => {
    const [attempts, inside] = await raceReads(
      'file.txt',
      'file.txt',
      join(race.scene.outside, 'secret.txt'),
    );
    t.diagnostic(`${attempts} reads, 0 leaks, ${inside} read the inside file`);
  });

  test('never returns the outside file when its folder is swapped', async (t) => {
    const [attempts, inside] = await raceReads('sub/file.txt', 'sub', race.scene.outside);
    t.diagnostic(`${attempts} reads, 0 leaks, ${inside} read the inside file`);
  });
});
