import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startDashboard, tempDir, type RunningDashboard } from '@paddock/testing';
import { openStore } from '../../src/store/open.js';

/** The permission bits of a file, as `ls -l` would show them in octal. */
const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8).padStart(4, '0');

/** The database and the files SQLite keeps beside it in WAL mode. */
const databaseFiles = (path: string) => [path, `${path}-wal`, `${path}-shm`];

describe('the users database is readable by its owner only', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    dir = await tempDir('paddock-file-modes-');
  });
  after(() => dir?.remove());

  it('creates users.db and its -wal and -shm files 0600 in a folder that exists', async () => {
    // The folder exists already, made as an operator would, with the usual umask.
    const folder = join(dir.path, 'existing');
    mkdirSync(folder, { mode: 0o755 });
    const path = join(folder, 'users.db');
    const dashboard: RunningDashboard = await startDashboard({
      SVC_AUTH_MODE: 'builtin',
      SVC_BUILTIN_SQLITE_PATH: path,
    });
    try {
      for (const file of databaseFiles(path)) {
        assert.ok(existsSync(file), `${file} exists while the dashboard runs`);
        assert.equal(modeOf(file), '0600', file);
      }
    } finally {
      await dashboard.stop();
    }
  });

  it('creates a missing folder 0700 and the files in it 0600', async () => {
    const folder = join(dir.path, 'made', 'here');
    const path = join(folder, 'users.db');
    const store = await openStore({ kind: 'sqlite', path });
    try {
      assert.equal(modeOf(folder), '0700');
      for (const file of databaseFiles(path)) assert.equal(modeOf(file), '0600', file);
    } finally {
      await store.close();
    }
  });

  it('takes the group and world bits off files an earlier version left 0644', async () => {
    const folder = join(dir.path, 'older');
    mkdirSync(folder);
    const path = join(folder, 'users.db');
    const first = await openStore({ kind: 'sqlite', path });
    await first.close();
    for (const file of databaseFiles(path)) {
      if (!existsSync(file)) writeFileSync(file, '');
      chmodSync(file, 0o644);
    }
    const store = await openStore({ kind: 'sqlite', path });
    try {
      for (const file of databaseFiles(path)) assert.equal(modeOf(file), '0600', file);
      // The store still opens and reads.
      assert.equal(typeof (await store.users.count()), 'number');
    } finally {
      await store.close();
    }
  });
});
