import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { as, startApiSandbox, type RunningApiSandbox } from '../support/sandbox.js';
import {
  boundedLoop,
  OUTSIDE_MARKER,
  OUTSIDE_ONLY_NAME,
  raceScene,
  startSwapper,
  type RaceScene,
} from '../support/swapper.js';

/** Requests per race, and the most seconds each race may take on a loaded machine. */
const FILE_REQUESTS = 2000;
const TREE_REQUESTS = 500;
const DOWNLOADS = 300;
const MAX_SECONDS = 150;
const CONCURRENCY = 4;

const leaked = (body: Buffer) => body.includes(OUTSIDE_MARKER) || body.includes(OUTSIDE_ONLY_NAME);

describe('the file routes while a file or folder is swapped for a symlink to the outside', () => {
  let scene: RaceScene;
  let sandbox: RunningApiSandbox;
  before(async () => {
    scene = await raceScene();
    sandbox = await startApiSandbox(scene.workspace, ['-enable-api']);
  });
  after(async () => {
    await sandbox?.stop();
    await scene?.remove();
  });

  /** The body of a GET of the human API, whatever its status. */
  async function get(path: string): Promise<Buffer> {
    const response = await fetch(`${sandbox.apiBase}${path}`, { headers: as('alice') });
    return Buffer.from(await response.arrayBuffer());
  }

  /**
   * GETs in a bounded loop while the entries are swapped (each by its own swapper); asserts that
   * no body leaked and that some saw `insideSign`. Returns [attempts, bodies that saw it].
   */
  async function race(
    count: number,
    swaps: Array<[entry: string, target: string]>,
    path: (i: number) => string,
    insideSign: string,
  ): Promise<[number, number]> {
    const swappers = [];
    for (const [entry, target] of swaps) {
      swappers.push(await startSwapper(join(scene.workspace, entry), target, scene.stash));
    }
    let leaks = 0;
    let inside = 0;
    let attempts: number;
    try {
      attempts = await boundedLoop(count, CONCURRENCY, MAX_SECONDS, async (i) => {
        const body = await get(path(i));
        if (leaked(body)) leaks++;
        else if (body.includes(insideSign)) inside++;
      });
    } finally {
      for (const swapper of swappers) assert.ok((await swapper.stop()) > 0, 'no swap happened');
    }
    assert.equal(leaks, 0, `${leaks} of ${attempts} answers held outside content`);
    assert.ok(inside > 0, 'no answer saw the inside: the race proves nothing');
    return [attempts, inside];
  }

  test('/api/file never serves an outside file when its folder is swapped', async (t) => {
    const [attempts, inside] = await race(
      FILE_REQUESTS,
      [['sub', scene.outside]],
      () => '/api/file?path=sub/file.txt',
      'inside content',
    );
    t.diagnostic(`${attempts} requests, 0 leaks, ${inside} served the inside file`);
  });

  test('/api/file never serves an outside file when the file is swapped', async (t) => {
    const [attempts, inside] = await race(
      FILE_REQUESTS,
      [['file.txt', join(scene.outside, 'secret.txt')]],
      () => '/api/file?path=file.txt',
      'inside content',
    );
    t.diagnostic(`${attempts} requests, 0 leaks, ${inside} served the inside file`);
  });

  test('/api/tree never lists the outside folder', async (t) => {
    const [attempts, inside] = await race(
      TREE_REQUESTS,
      [['sub', scene.outside]],
      (i) => (i % 2 === 0 ? '/api/tree?path=sub' : '/api/tree'),
      'file.txt',
    );
    t.diagnostic(`${attempts} requests, 0 leaks, ${inside} listed the inside folder`);
  });

  test('/api/download never puts an outside file into the zip', async (t) => {
    const [attempts, inside] = await race(
      DOWNLOADS,
      [
        ['sub', scene.outside],
        ['data.png', join(scene.outside, OUTSIDE_ONLY_NAME)],
      ],
      () => '/api/download',
      'inside content',
    );
    t.diagnostic(`${attempts} downloads, 0 leaks, ${inside} held the inside files`);
  });
});
