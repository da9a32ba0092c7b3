import assert from 'node:assert/strict';
import { readdir, readlink } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { eventually, makeRenameTree, startRenameLoop, tempDir } from '@paddock/testing';
import { ChangeBatcher, type WatcherMessage } from '../../src/workspace/watcher-thread.js';
import { EventRing, type Change } from '../../src/workspace/watcher.js';
import {
  as,
  connect,
  openEventStream,
  startApiSandbox,
  textOf,
  type RunningApiSandbox,
} from '../support/sandbox.js';

/** Renames the loop may do at most, and seconds it may run at most, whatever happens. */
const LOOP_MAX_RENAMES = 200_000;
const LOOP_MAX_SECONDS = 60;
/** /healthz probes sent one after another while the loop runs. */
const HEALTH_PROBES = 50;
/** Folders, and files in each, of the tree the loop renames back and forth. */
const TREE_FOLDERS = 200;
const FILES_PER_FOLDER = 5;
/**
 * The bound of each churn test: with the watcher on the main thread, /healthz took tens of seconds
 * per probe during the loop, and the test ends here instead of running on.
 */
const CHURN_TEST_TIMEOUT_MS = 120_000;

const change = (path: string): Change => ({
  type: 'create',
  kind: 'file',
  path,
  time: '2026-11-26T00:00:00.000Z',
});

describe('the watcher thread’s batches', () => {
  it('hands changes on in one batch per interval', () => {
    const sent: WatcherMessage[] = [];
    const batcher = new ChangeBatcher((m) => sent.push(m), 3, 60_000);
    batcher.add(change('a'));
    batcher.add(change('b'));
    batcher.flush();
    batcher.flush();
    assert.deepEqual(sent, [{ type: 'changes', changes: [change('a'), change('b')] }]);
  });

  it('turns a burst beyond its bound into one overflow, holding no more than the bound', () => {
    const sent: WatcherMessage[] = [];
    const batcher = new ChangeBatcher((m) => sent.push(m), 3, 60_000);
    for (let i = 0; i < 10_000; i++) batcher.add(change(`f${i}`));
    batcher.flush();
    batcher.add(change('after'));
    batcher.flush();
    assert.deepEqual(sent, [{ type: 'overflow' }, { type: 'changes', changes: [change('after')] }]);
  });
});

describe('the event ring across a gap', () => {
  it('sends resuming clients a reset for ids before the gap, and tells subscribers', () => {
    const ring = new EventRing(10, 100);
    const before = ring.push(change('a'));
    const gaps: number[] = [];
    ring.subscribe(
      () => {},
      (id) => gaps.push(id),
    );
    ring.gap();
    assert.deepEqual(gaps, [ring.lastId]);
    assert.equal(ring.since(before.id), 'reset');
    const afterGap = ring.push(change('b'));
    assert.deepEqual(ring.since(ring.lastId - 1), [afterGap]);
  });
});

/** inotify instances the process holds: the watcher's cost in the kernel. */
async function inotifyInstances(pid: number): Promise<number> {
  const fds = await readdir(`/proc/${pid}/fd`);
  const targets = await Promise.all(
    fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')),
  );
  return targets.filter((t) => t === 'anon_inode:inotify').length;
}

describe('a sandbox under a folder-rename loop', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let sandbox: RunningApiSandbox;

  before(async () => {
    folder = await tempDir('paddock-watcher-churn-');
    await makeRenameTree(folder.path, TREE_FOLDERS, FILES_PER_FOLDER);
    sandbox = await startApiSandbox(folder.path, ['-enable-api'], {
      SVC_API_WATCH_LINGER_SECONDS: '0',
    });
  });
  after(async () => {
    await sandbox.stop();
    await folder.remove();
  });

  it('watches nothing while nobody listens to /api/events, and stops after the last leaves', async () => {
    const pid = sandbox.child.pid!;
    assert.equal(await inotifyInstances(pid), 0);
    const stream = await openEventStream(`${sandbox.apiBase}/api/events`, as('alice'));
    await stream.next((f) => f.includes('event: ready'));
    assert.ok((await inotifyInstances(pid)) >= 1);
    stream.close();
    await eventually('the watcher stopped', async () =>
      (await inotifyInstances(pid)) === 0 ? true : undefined,
    );
  });

  for (const subscribed of [true, false]) {
    it(
      `answers every /healthz and completes a Write during the loop, ${subscribed ? 'with' : 'without'} a subscriber`,
      { timeout: CHURN_TEST_TIMEOUT_MS },
      async () => {
        const stream = subscribed
          ? await openEventStream(`${sandbox.apiBase}/api/events`, as('alice'))
          : undefined;
        if (stream) await stream.next((f) => f.includes('event: ready'));
        const loop = await startRenameLoop(folder.path, {
          maxRenames: LOOP_MAX_RENAMES,
          maxSeconds: LOOP_MAX_SECONDS,
        });
        try {
          // The loop is under way once the subscriber sees a rename (without one: the folder moved).
          if (stream)
            await stream.next((f) => f.includes('"type":"rename"') || f.includes('event: reset'));
          for (let i = 0; i < HEALTH_PROBES; i++) {
            const res = await fetch(`${sandbox.base}/healthz`);
            assert.equal(res.status, 200);
            await res.body?.cancel();
          }
          const client = await connect(sandbox.base, 'streamable');
          try {
            const wrote = await client.callTool({
              name: 'Write',
              arguments: { file_path: `during-${subscribed}.txt`, content: 'x\n' },
            });
            assert.match(textOf(wrote), /Wrote/);
          } finally {
            await client.close();
          }
          assert.ok(loop.running(), 'the probes and the Write ran while the loop was renaming');
        } finally {
          const renames = await loop.finish();
          stream?.close();
          assert.ok(renames > 0, 'the loop renamed');
        }
      },
    );
  }
});
