import assert from 'node:assert/strict';
import { closeSync, constants, readFileSync, readdirSync } from 'node:fs';
import { mkdir, readdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, beforeEach, describe, test } from 'node:test';
import { tempDir } from '@paddock/testing';
import { atomicWrite } from '../../src/mcp/tools/atomic-write.js';
import { ChangedMeanwhile, viaDescriptor, Workspace } from '../../src/workspace/containment.js';
import { walk } from '../../src/workspace/walk.js';

// Each race window, held open on purpose: the path is checked (resolve), then a folder or the file
// is swapped for a symlink to the outside, then the path is used. What is used must be what was
// checked, or nothing.

const READ = constants.O_RDONLY | constants.O_NONBLOCK;

describe('opening what was checked', () => {
  const removals: Array<() => Promise<void>> = [];
  after(() => Promise.all(removals.map((remove) => remove())));
  let ws: Workspace;
  let outside: string;

  beforeEach(async () => {
    const temp = await tempDir('paddock-open-inside-');
    removals.push(temp.remove);
    await mkdir(join(temp.path, 'ws', 'sub', 'deep'), { recursive: true });
    await mkdir(join(temp.path, 'outside', 'deep'), { recursive: true });
    await writeFile(join(temp.path, 'ws', 'sub', 'deep', 'file.txt'), 'inside\n');
    await writeFile(join(temp.path, 'outside', 'deep', 'file.txt'), 'outside\n');
    ws = await Workspace.open(join(temp.path, 'ws'));
    outside = join(temp.path, 'outside');
  });

  /** Swaps the workspace entry `rel` for a symlink to `target`, keeping the real one aside. */
  async function swap(rel: string, target: string): Promise<void> {
    await rename(join(ws.root, rel), join(ws.root, `${rel}.aside`));
    await symlink(target, join(ws.root, rel));
  }

  test('reads the checked file, and refuses once a folder on its path became a symlink', async () => {
    const checked = await ws.resolve('sub/deep/file.txt');
    const fd = ws.openInside(checked, READ);
    try {
      assert.equal(readFileSync(fd, 'utf8'), 'inside\n');
    } finally {
      closeSync(fd);
    }
    await swap('sub', outside);
    assert.throws(() => ws.openInside(checked, READ), ChangedMeanwhile);
  });

  test('refuses once the file itself became a symlink', async () => {
    const checked = await ws.resolve('sub/deep/file.txt');
    await swap('sub/deep/file.txt', join(outside, 'deep', 'file.txt'));
    assert.throws(() => ws.openInside(checked, READ), ChangedMeanwhile);
  });

  test('never lists a folder that became a symlink', async () => {
    const checked = await ws.resolve('sub/deep');
    await swap('sub/deep', join(outside, 'deep'));
    assert.throws(() => ws.openFolder(checked, false), ChangedMeanwhile);
  });

  test('creates missing folders inside only, never through a symlink', async () => {
    const checked = await ws.resolve('sub/new/newer/file.txt');
    await swap('sub', outside);
    assert.throws(() => ws.openFolder(join(checked, '..'), true), ChangedMeanwhile);
    assert.deepEqual(await readdir(outside), ['deep']);
  });

  test('a write whose folder became a symlink writes nothing anywhere', async () => {
    const checked = await ws.resolve('sub/deep/new.txt');
    await swap('sub', outside);
    assert.throws(() => atomicWrite(ws, checked, 'data'), ChangedMeanwhile);
    assert.deepEqual(await readdir(join(outside, 'deep')), ['file.txt']);
    assert.deepEqual(await readdir(join(ws.root, 'sub.aside', 'deep')), ['file.txt']);
  });

  test('a write refuses a target that became a symlink, and leaves no temporary file', async () => {
    const checked = await ws.resolve('sub/deep/file.txt');
    await swap('sub/deep/file.txt', join(outside, 'deep', 'file.txt'));
    assert.throws(() => atomicWrite(ws, checked, 'data'), ChangedMeanwhile);
    assert.equal(readFileSync(join(outside, 'deep', 'file.txt'), 'utf8'), 'outside\n');
    assert.deepEqual((await readdir(join(ws.root, 'sub', 'deep'))).sort(), [
      'file.txt',
      'file.txt.aside',
    ]);
  });

  test('the walk skips a folder that became a symlink after it was listed', async () => {
    const seen: string[] = [];
    const unreadable: string[] = [];
    for await (const entry of walk(ws.root, {
      order: 'breadth-first',
      onUnreadable: (path) => unreadable.push(path),
    })) {
      seen.push(entry.relative);
      // The root is listed; sub is swapped before the walk enters it.
      if (entry.relative === 'sub') await swap('sub', outside);
    }
    assert.deepEqual(unreadable, [join(ws.root, 'sub')]);
    assert.ok(!seen.some((path) => path.startsWith('sub/')), seen.join(', '));
  });

  test('an entry path through a folder descriptor reaches that folder, whatever its path does', async () => {
    const fd = ws.openFolder(await ws.resolve('sub/deep'), false);
    try {
      await swap('sub', outside);
      assert.deepEqual(readdirSync(viaDescriptor(fd)), ['file.txt']);
      assert.equal(readFileSync(viaDescriptor(fd, 'file.txt'), 'utf8'), 'inside\n');
    } finally {
      closeSync(fd);
    }
  });
});
