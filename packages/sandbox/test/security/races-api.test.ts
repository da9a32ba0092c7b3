import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startApiRace, type ApiRace } from '../support/race-sandbox.js';
import { as } from '../support/sandbox.js';
import { OUTSIDE_ONLY_NAME, raceWhileSwapped, type Swap } from '../support/swapper.js';

/** Requests per race, and the most seconds each race may take on a loaded machine. */
const FILE_REQUESTS = 2000;
const TREE_REQUESTS = 500;
const DOWNLOADS = 300;
const MAX_SECONDS = 150;
const CONCURRENCY = 4;

describe('the file routes while a file or folder is swapped for a symlink to the outside', () => {
  let race: ApiRace;
  before(async () => {
    race = await startApiRace(['-enable-api']);
  });
  after(async () => {
    await race?.stop();
  });

  /** The body of a GET of the human API, whatever its status. */
  async function get(path: string): Promise<Buffer> {
    const response = await fetch(`${race.sandbox.apiBase}${path}`, { headers: as('alice') });
    return Buffer.from(await response.arrayBuffer());
  }

  /**
   * GETs in a bounded loop while the entries are swapped (each by its own swapper); asserts that
   * no body leaked and that some saw `insideSign`. Returns [attempts, bodies that saw it].
   */
  function raceGets(
    count: number,
    swaps: Swap[],
    path: (i: number) => string,
    insideSign: string,
  ): Promise<[number, number]> {
    return raceWhileSwapped(race.scene, {
      swaps,
      count,
      concurrency: CONCURRENCY,
      maxSeconds: MAX_SECONDS,
      attempt: (i) => get(path(i)),
      insideSign,
    });
  }

  test('/api/file never serves an outside file when its folder is swapped', async (t) => {
    const [attempts, inside] = await raceGets(
      FILE_REQUESTS,
      [['sub', race.scene.outside]],
      () => '/api/file?path=sub/file.txt',
      'inside content',
    );
    t.diagnostic(`${attempts} requests, 0 leaks, ${inside} served the inside file`);
  });

  test('/api/file never serves an outside file when the file is swapped', async (t) => {
    const [attempts, inside] = await raceGets(
      FILE_REQUESTS,
      [['file.txt', join(race.scene.outside, 'secret.txt')]],
      () => '/api/file?path=file.txt',
      'inside content',
    );
    t.diagnostic(`${attempts} requests, 0 leaks, ${inside} served the inside file`);
  });

  test('/api/tree never lists the outside folder', async (t) => {
    const [attempts, inside] = await raceGets(
      TREE_REQUESTS,
      [['sub', race.scene.outside]],
      (i) => (i % 2 === 0 ? '/api/tree?path=sub' : '/api/tree'),
      'file.txt',
    );
    t.diagnostic(`${attempts} requests, 0 leaks, ${inside} listed the inside folder`);
  });

  test('/api/download never puts an outside file into the zip', async (t) => {
    const [attempts, inside] = await raceGets(
      DOWNLOADS,
      [
        ['sub', race.scene.outside],
        ['data.png', join(race.scene.outside, OUTSIDE_ONLY_NAME)],
      ],
      () => '/api/download',
      'inside content',
    );
    t.diagnostic(`${attempts} downloads, 0 leaks, ${inside} held the inside files`);
  });
});
