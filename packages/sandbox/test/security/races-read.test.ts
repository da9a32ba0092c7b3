import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, startSandbox, textOf, type RunningSandbox } from '../support/sandbox.js';
import {
  boundedLoop,
  OUTSIDE_MARKER,
  raceScene,
  startSwapper,
  type RaceScene,
} from '../support/swapper.js';

/** Reads per race, and the most seconds they may take on a loaded machine. */
const READS = 2000;
const MAX_SECONDS = 120;
/** Calls in flight at once: more chances to land inside a swap. */
const CONCURRENCY = 4;

describe('Read while a file or its folder is swapped for a symlink to the outside', () => {
  let scene: RaceScene;
  let sandbox: RunningSandbox;
  /** One client per worker: each keeps its calls in order, as an agent does. */
  let clients: Client[] = [];
  before(async () => {
    scene = await raceScene();
    sandbox = await startSandbox(scene.workspace);
    clients = await Promise.all(
      Array.from({ length: CONCURRENCY }, () => connect(sandbox.base, 'streamable')),
    );
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await sandbox?.stop();
    await scene?.remove();
  });

  /** Reads `path` in a bounded loop while `entry` is swapped; returns [attempts, inside reads]. */
  async function race(path: string, entry: string, target: string): Promise<[number, number]> {
    const swapper = await startSwapper(join(scene.workspace, entry), target, scene.stash);
    let inside = 0;
    const leaks: string[] = [];
    let attempts: number;
    try {
      attempts = await boundedLoop(READS, CONCURRENCY, MAX_SECONDS, async (_, worker) => {
        const read = { name: 'Read', arguments: { file_path: path } };
        const text = textOf(await clients[worker]!.callTool(read));
        if (text.includes(OUTSIDE_MARKER)) leaks.push(text);
        else if (text.includes('inside content')) inside++;
      });
    } finally {
      const swaps = await swapper.stop();
      assert.ok(swaps > 0, 'the swapper never swapped');
    }
    assert.deepEqual(leaks, [], `${leaks.length} of ${attempts} reads returned outside content`);
    assert.ok(inside > 0, 'no read got through at all: the race proves nothing');
    return [attempts, inside];
  }

  test('never returns the outside file when the file is swapped', async (t) => {
    const [attempts, inside] = await race(
      'file.txt',
      'file.txt',
      join(scene.outside, 'secret.txt'),
    );
    t.diagnostic(`${attempts} reads, 0 leaks, ${inside} read the inside file`);
  });

  test('never returns the outside file when its folder is swapped', async (t) => {
    const [attempts, inside] = await race('sub/file.txt', 'sub', scene.outside);
    t.diagnostic(`${attempts} reads, 0 leaks, ${inside} read the inside file`);
  });
});
