import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ssh2, { type SFTPWrapper } from 'ssh2';
import { ed25519KeyPair } from '../../src/ssh/key-pair.js';
import { startApiRace, type ApiRace } from '../support/race-sandbox.js';
import { as } from '../support/sandbox.js';
import { OUTSIDE_MARKER, raceWhileSwapped, type RaceScene } from '../support/swapper.js';

/** SFTP requests per race, and the most seconds each race may take on a loaded machine. */
const READS = 1000;
const LISTINGS = 500;
const WRITES = 500;
const MAX_SECONDS = 150;
/** SFTP sessions at once (the sandbox answers one session's requests in order). */
const CONCURRENCY = 2;

/** The SFTP call's result, or the error's message (a refusal is an answer too). */
function settle<T>(call: (done: (err: Error | null | undefined, value?: T) => void) => void) {
  return new Promise<T | string>((resolve) =>
    call((err, value) => resolve(err ? String(err.message) : (value as T))),
  );
}

describe('SFTP while a folder is swapped for a symlink to the outside', () => {
  let race: ApiRace;
  let scene: RaceScene;
  const clients: ssh2.Client[] = [];
  const sessions: SFTPWrapper[] = [];
  before(async () => {
    race = await startApiRace(['-enable-ssh']);
    scene = race.scene;
    const { sandbox } = race;
    const headers = { ...as('alice'), 'content-type': 'application/json' };
    const key = ed25519KeyPair();
    const registered = await fetch(`${sandbox.apiBase}/api/ssh-authorized-keys`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ publicKey: key.public }),
    });
    assert.equal(registered.status, 201);
    const { port } = (await (
      await fetch(`${sandbox.apiBase}/api/ssh-port`, { headers })
    ).json()) as { port: number };
    for (let i = 0; i < CONCURRENCY; i++) {
      const client = new ssh2.Client();
      clients.push(client);
      await new Promise<void>((resolve, reject) => {
        client.once('ready', resolve).once('error', reject);
        client.connect({
          host: '127.0.0.1',
          port,
          username: 'alice',
          privateKey: key.private,
          hostVerifier: () => true,
        });
      });
      sessions.push(
        await new Promise<SFTPWrapper>((resolve, reject) =>
          client.sftp((err, sftp) => (err ? reject(err) : resolve(sftp))),
        ),
      );
    }
  });
  after(async () => {
    for (const client of clients) client.end();
    await race?.stop();
  });

  /** Runs `attempt` in a bounded loop while sub is swapped; returns [attempts, inside answers]. */
  function raceRequests(
    count: number,
    attempt: (sftp: SFTPWrapper, i: number) => Promise<string>,
    insideSign: string,
  ): Promise<[number, number]> {
    return raceWhileSwapped(scene, {
      swaps: [['sub', scene.outside]],
      count,
      concurrency: CONCURRENCY,
      maxSeconds: MAX_SECONDS,
      attempt: (i, worker) => attempt(sessions[worker]!, i),
      insideSign,
    });
  }

  test('reading never returns the outside file', async (t) => {
    const [attempts, inside] = await raceRequests(
      READS,
      async (sftp) => {
        const read = await settle<Buffer>((done) => sftp.readFile('sub/file.txt', done));
        return typeof read === 'string' ? read : read.toString();
      },
      'inside content',
    );
    t.diagnostic(`${attempts} reads, 0 leaks, ${inside} read the inside file`);
  });

  test('listing never shows the outside folder', async (t) => {
    const [attempts, inside] = await raceRequests(
      LISTINGS,
      async (sftp) => {
        const list = await settle<ssh2.FileEntry[]>((done) => sftp.readdir('sub', done));
        return typeof list === 'string' ? list : list.map((entry) => entry.filename).join('\n');
      },
      'file.txt',
    );
    t.diagnostic(`${attempts} listings, 0 leaks, ${inside} listed the inside folder`);
  });

  test('writing creates nothing outside', async (t) => {
    const outsideBefore = (await readdir(scene.outside)).sort();
    const [attempts, inside] = await raceRequests(
      WRITES,
      async (sftp, i) => {
        const wrote = await settle<void>((done) =>
          sftp.writeFile(`sub/new-${i}.txt`, `written ${i}\n`, done),
        );
        return wrote === undefined ? 'written' : wrote;
      },
      'written',
    );
    assert.deepEqual((await readdir(scene.outside)).sort(), outsideBefore);
    assert.equal(await readFile(join(scene.outside, 'file.txt'), 'utf8'), `${OUTSIDE_MARKER}\n`);
    t.diagnostic(`${attempts} writes, 0 files outside, ${inside} written inside`);
  });
});
