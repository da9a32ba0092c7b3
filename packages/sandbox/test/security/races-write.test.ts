import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startMcpRace, type McpRace } from '../support/race-sandbox.js';
import { textOf } from '../support/sandbox.js';
import {
  boundedLoop,
  OUTSIDE_MARKER,
  OUTSIDE_ONLY_NAME,
  whileSwapped,
  type RaceScene,
} from '../support/swapper.js';

/** Writes of new files per race, and the most seconds they may take on a loaded machine. */
const WRITES = 1000;
/** Read-then-Edit rounds, one after the other (an edit needs the read before it). */
const EDITS = 300;
const MAX_SECONDS = 120;
const CONCURRENCY = 4;

/** Every file below `folder`, relative to it. */
async function filesBelow(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => !entry.isDirectory())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}

describe('Write and Edit while their folder is swapped for a symlink to the outside', () => {
  let race: McpRace;
  let scene: RaceScene;
  before(async () => {
    race = await startMcpRace(CONCURRENCY);
    scene = race.scene;
  });
  after(async () => {
    await race?.stop();
  });

  test('creates nothing outside and leaves no temporary file anywhere', async (t) => {
    const outsideBefore = await filesBelow(scene.outside);
    const answers = new Map<string, number>();
    const attempts = await whileSwapped(scene, [['sub', scene.outside]], () =>
      boundedLoop(WRITES, CONCURRENCY, MAX_SECONDS, async (i, worker) => {
        const write = {
          name: 'Write',
          arguments: { file_path: `sub/new-${i}.txt`, content: `written ${i}\n` },
        };
        const text = textOf(await race.clients[worker]!.callTool(write));
        const kind = text.startsWith('Wrote') ? 'written' : text.replace(/new-\d+/, 'new-N');
        answers.set(kind, (answers.get(kind) ?? 0) + 1);
      }),
    );

    // Nothing new outside: no written file, no temporary file; and every secret unchanged.
    assert.deepEqual(await filesBelow(scene.outside), outsideBefore);
    for (const name of ['file.txt', 'secret.txt', OUTSIDE_ONLY_NAME]) {
      assert.equal(await readFile(join(scene.outside, name), 'utf8'), `${OUTSIDE_MARKER}\n`);
    }
    // No temporary file left inside or beside either, and every write reported as done is inside
    // (in sub, or in a folder the swapper moved aside after a Write had recreated sub).
    const inside = await filesBelow(scene.workspace);
    const leftovers = [...inside, ...(await filesBelow(scene.stash))].filter((path) =>
      path.endsWith('.tmp'),
    );
    assert.deepEqual(leftovers, [], 'orphaned temporary files');
    const written = inside.filter((path) => /(^|\/)new-\d+\.txt$/.test(path));
    assert.equal(written.length, answers.get('written') ?? 0);
    assert.ok(written.length > 0, 'no write got through at all: the race proves nothing');
    for (const path of written) {
      const i = /new-(\d+)/.exec(path)![1];
      assert.equal(await readFile(join(scene.workspace, path), 'utf8'), `written ${i}\n`);
    }
    t.diagnostic(
      `${attempts} writes, 0 files or temporary files outside, 0 orphaned inside; answers: ` +
        JSON.stringify(Object.fromEntries(answers)),
    );
  });

  test('Edit never reads or changes the outside file', async (t) => {
    await writeFile(join(scene.workspace, 'sub', 'file.txt'), 'inside content\n');
    const client = race.clients[0]!;
    let edited = 0;
    const leaks: string[] = [];
    const attempts = await whileSwapped(scene, [['sub', scene.outside]], () =>
      boundedLoop(EDITS, 1, MAX_SECONDS, async () => {
        const read = textOf(
          await client.callTool({ name: 'Read', arguments: { file_path: 'sub/file.txt' } }),
        );
        if (read.includes(OUTSIDE_MARKER)) leaks.push(read);
        const [from, to] = read.includes('inside kontent')
          ? ['inside kontent', 'inside content']
          : ['inside content', 'inside kontent'];
        const edit = {
          name: 'Edit',
          arguments: { file_path: 'sub/file.txt', old_string: from, new_string: to },
        };
        const text = textOf(await client.callTool(edit));
        if (text.includes(OUTSIDE_MARKER)) leaks.push(text);
        if (text.startsWith('Edited')) edited++;
      }),
    );
    assert.deepEqual(leaks, []);
    assert.equal(await readFile(join(scene.outside, 'file.txt'), 'utf8'), `${OUTSIDE_MARKER}\n`);
    assert.deepEqual(
      (await filesBelow(scene.outside)).filter((path) => path.endsWith('.tmp')),
      [],
    );
    assert.ok(edited > 0, 'no edit got through at all: the race proves nothing');
    t.diagnostic(`${attempts} Read+Edit rounds, 0 leaks, outside unchanged, ${edited} edits made`);
  });
});
