import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connect, startSandbox, textOf, type RunningSandbox } from '../support/sandbox.js';
import {
  boundedLoop,
  OUTSIDE_MARKER,
  OUTSIDE_ONLY_NAME,
  raceScene,
  startSwapper,
  type RaceScene,
} from '../support/swapper.js';

/** Calls per race, and the most seconds each race may take on a loaded machine. */
const LS_CALLS = 1000;
const GLOB_CALLS = 500;
const GREP_CALLS = 500;
const MAX_SECONDS = 150;
const CONCURRENCY = 4;

/** Outside content or names in an answer: the marker, or the name only the outside folder has. */
const leaked = (text: string) => text.includes(OUTSIDE_MARKER) || text.includes(OUTSIDE_ONLY_NAME);

describe('LS, Glob and Grep while a folder is swapped for a symlink to the outside', () => {
  let scene: RaceScene;
  let sandbox: RunningSandbox;
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

  /**
   * Calls a tool in a bounded loop while sub is swapped; asserts that no answer leaked and that
   * some answers saw the inside sub/file.txt. Returns [attempts, answers that saw it].
   */
  async function race(
    count: number,
    call: (i: number) => { name: string; arguments: Record<string, unknown> },
  ): Promise<[number, number]> {
    const swapper = await startSwapper(join(scene.workspace, 'sub'), scene.outside, scene.stash);
    const leaks: string[] = [];
    let inside = 0;
    let attempts: number;
    try {
      attempts = await boundedLoop(count, CONCURRENCY, MAX_SECONDS, async (i, worker) => {
        const text = textOf(await clients[worker]!.callTool(call(i)));
        if (leaked(text)) leaks.push(text);
        else if (text.includes('file.txt')) inside++;
      });
    } finally {
      assert.ok((await swapper.stop()) > 0, 'the swapper never swapped');
    }
    assert.deepEqual(leaks, [], `${leaks.length} of ${attempts} answers showed outside content`);
    assert.ok(inside > 0, 'no call saw the inside folder: the race proves nothing');
    return [attempts, inside];
  }

  test('LS never lists the outside folder', async (t) => {
    const [attempts, inside] = await race(LS_CALLS, () => ({
      name: 'LS',
      arguments: { path: 'sub' },
    }));
    t.diagnostic(`${attempts} LS calls, 0 leaks, ${inside} listed the inside folder`);
  });

  test('Glob never lists a file of the outside folder', async (t) => {
    const [attempts, inside] = await race(GLOB_CALLS, (i) => ({
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
    const [attempts, inside] = await race(GREP_CALLS, (i) => ({
      name: 'Grep',
      arguments: shapes[i % shapes.length]!,
    }));
    t.diagnostic(`${attempts} Grep calls, 0 leaks, ${inside} found the inside file`);
  });
});
