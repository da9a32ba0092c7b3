import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { start, tempDir } from '@paddock/testing';
import { LOCK_FILE, lockDataDir } from '../src/data-lock.js';

describe('the data folder’s lock', () => {
  it('is taken once, refused to a second holder while the first runs, and released', async () => {
    const dir = await tempDir();
    // Another process holds the folder: a live one, as a second `paddock up` would find it.
    const other = start(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    try {
      await writeFile(join(dir.path, LOCK_FILE), `${other.child.pid}\n`);
      assert.deepEqual(await lockDataDir(dir.path), { heldBy: other.child.pid });
      await other.stop();
      // Its holder is gone: the lock is taken over.
      const taken = await lockDataDir(dir.path);
      assert.ok('release' in taken);
      assert.equal((await readFile(join(dir.path, LOCK_FILE), 'utf8')).trim(), String(process.pid));
      await taken.release();
      assert.ok(!existsSync(join(dir.path, LOCK_FILE)));
    } finally {
      await other.stop();
      await dir.remove();
    }
  });

  it('takes over a lock file that names no process', async () => {
    const dir = await tempDir();
    try {
      await writeFile(join(dir.path, LOCK_FILE), 'not a pid\n');
      const taken = await lockDataDir(dir.path);
      assert.ok('release' in taken);
      await taken.release();
    } finally {
      await dir.remove();
    }
  });
});
