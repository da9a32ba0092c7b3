import assert from 'node:assert/strict';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CoreV1Api } from '@kubernetes/client-node';
import { tempDir } from '@paddock/testing';
import { DATA_FILES } from '../../src/data-dir.js';
import { startTestCluster } from '../support/cluster.js';

/**
 * The data folder holds the database (every Secret), the admin token, the signing key and the TLS
 * key: whatever its state before, after a start its files are the owner's only (0600) and so is the
 * folder (0700).
 */

const OWNER_ONLY_FILE = 0o600;
const OWNER_ONLY_FOLDER = 0o700;

let folder: Awaited<ReturnType<typeof tempDir>>;

before(async () => {
  folder = await tempDir('paddock-data-modes-');
});

after(() => folder.remove());

async function modeOf(path: string): Promise<number> {
  return (await stat(path)).mode & 0o777;
}

/** Every file and folder under `dir` whose mode is not the owner's only. */
async function exposed(dir: string): Promise<string[]> {
  const found: string[] = [];
  if ((await modeOf(dir)) !== OWNER_ONLY_FOLDER)
    found.push(`${dir} ${(await modeOf(dir)).toString(8)}`);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await exposed(path)));
    else if ((await modeOf(path)) !== OWNER_ONLY_FILE) {
      found.push(`${entry.name} ${(await modeOf(path)).toString(8)}`);
    }
  }
  return found;
}

/**
 * Starts a cluster on `dataDir`, stores a Secret so the database writes, and stops it; answers with
 * what was exposed while it ran, and the files there were then.
 */
async function runOnce(dataDir: string): Promise<{ exposed: string[]; files: string[] }> {
  const cluster = await startTestCluster({
    dataDir,
    kubeconfigPath: join(dataDir, 'kubeconfig'),
  });
  try {
    const core = cluster.admin.makeApiClient(CoreV1Api);
    const name = `s${Date.now().toString(36)}`;
    await core.createNamespacedSecret({
      namespace: 'default',
      body: { metadata: { name }, stringData: { password: 'hunter2' } },
    });
    // While the server runs, the write-ahead log and shared-memory files exist too.
    return { exposed: await exposed(dataDir), files: await readdir(dataDir) };
  } finally {
    await cluster.close();
  }
}

describe('the data folder', () => {
  it('keeps every file 0600 and the folder 0700 when the folder already existed', async () => {
    const dataDir = join(folder.path, 'existing');
    await mkdir(dataDir, { mode: 0o755 });
    const running = await runOnce(dataDir);
    assert.deepEqual(running.exposed, []);
    for (const file of [
      DATA_FILES.database,
      `${DATA_FILES.database}-wal`,
      `${DATA_FILES.database}-shm`,
      DATA_FILES.adminToken,
      DATA_FILES.signingKey,
      DATA_FILES.certificate,
      'kubeconfig',
    ]) {
      assert.ok(running.files.includes(file), `${file} in ${running.files.join(', ')}`);
    }
    assert.deepEqual(await exposed(dataDir), []);
  });

  it('takes away what others could read from files left by an earlier run', async () => {
    const dataDir = join(folder.path, 'earlier');
    await mkdir(dataDir, { mode: 0o755 });
    // A first run makes the files; then they are opened up as an older version left them.
    await runOnce(dataDir);
    for (const name of await readdir(dataDir)) await chmod(join(dataDir, name), 0o644);
    await chmod(dataDir, 0o755);
    assert.deepEqual((await runOnce(dataDir)).exposed, []);
    assert.deepEqual(await exposed(dataDir), []);
  });

  it('creates a missing folder 0700 with its files 0600', async () => {
    const dataDir = join(folder.path, 'new', 'cluster');
    assert.deepEqual((await runOnce(dataDir)).exposed, []);
  });

  it('replaces a secret file whole: a token file that was empty is rewritten 0600', async () => {
    const dataDir = join(folder.path, 'empty-token');
    await mkdir(dataDir, { mode: 0o755 });
    await writeFile(join(dataDir, DATA_FILES.adminToken), '', { mode: 0o644 });
    assert.deepEqual((await runOnce(dataDir)).exposed, []);
  });
});
