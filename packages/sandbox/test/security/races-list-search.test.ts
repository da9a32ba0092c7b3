import { after, before, describe, test } from 'node:test';
import { startMcpRace, type McpRace } from '../support/race-sandbox.js';
import { textOf } from '../support/sandbox.js';
import { OUTSIDE_MARKER, raceWhileSwapped } from '../support/swapper.js';

/** Calls per race, and the most seconds each race may take on a loaded machine. */
const LS_CALLS = 1000;
const GLOB_CALLS = 500;
const GREP_CALLS = 500;
const MAX_SECONDS = 150;
const CONCURRENCY = 4;

describe('LS, Glob and Grep while a folder is swapped for a symlink to the outside', () => {
  let race: McpRace;
  before(async () => {
    race = await startMcpRace(CONCURRENCY);
  });
  after(async () => {
    await race?.stop();
  });

  /**
   * Calls a tool in a bounded loop while sub is swapped; asserts that no answer leaked and that
   * some answers saw the inside sub/file.txt. Returns [attempts, answers that saw it].
   */
  function raceCalls(
    count: number,
    call: (i: number) => { name: string; arguments: Record<string, unknown> },
  ): Promise<[number, number]> {
    return raceWhileSwapped(race.scene, {
      swaps: [['sub', race.scene.outside]],
      count,
      concurrency: CONCURRENCY,
      maxSeconds: MAX_SECONDS,
      attempt: async (i, worker) => textOf(await race.clients[worker]!.callTool(call(i))),
      insideSign: 'file.txt',
    });
  }

  test('LS never lists the outside folder', async (t) => {
    const [attempts, inside] = await raceCalls(LS_CALLS, () => ({
      name: 'LS',
      arguments: { path: 'sub' },
    }));
    t.diagnostic(`${attempts} LS calls, 0 leaks, ${inside} listed the inside folder`);
  });

  test('Glob never lists a file of the outside folder', async (t) => {
    const [attempts, inside] = await raceCalls(GLOB_CALLS, (i) => ({
      name: 'Glob',
      arguments: i % 2 === 0 ? { pattern: '**/*' } : { pattern: '*', path: 'sub' },
    }));
    t.diagnostic(`${attempts} Glob calls, 0 leaks, ${inside} listed the inside file`);
  });

  test('Grep never matches or shows outside content', async (t) => {
    const pattern = `inside content|${OUTSIDE_MARKER}`;
    const shapes: Record<string, unknown>[] = [
      { pattern, output_mode: 'content' },
      { pattern, output_mode: 'files_with_matches', path: 'sub' },
      { pattern, output_mode: 'content', path: 'sub/file.txt' },
      { pattern, output_mode: 'count', glob: 'sub/*' },
    ];
    const [attempts, inside] = await raceCalls(GREP_CALLS, (i) => ({
      name: 'Grep',
      arguments: shapes[i % shapes.length]!,
    }));
    t.diagnostic(`${attempts} Grep calls, 0 leaks, ${inside} found the inside file`);
  });
});
