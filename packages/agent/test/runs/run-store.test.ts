import assert from 'node:assert/strict';
import { appendFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '@paddock/testing';
import { INTERRUPTED_REASON, MAX_RUNS_KEPT, RunStore } from '../../src/runs/run-store.js';
import type { TranscriptEvent } from '../../src/transcript.js';

const at = (iso: string) => () => new Date(iso);

describe('the run store', () => {
  it('keeps each run as its lines, in order, and sums its usage', async () => {
    const dir = await tempDir('paddock-runs-');
    const store = await RunStore.open(dir.path, at('2026-11-26T10:00:00Z'));
    const run = await store.create({ task: 'write hello.sh', startedBy: 'ada' });
    // Appended without waiting for one another, as the loop emits them.
    await Promise.all([
      store.append(run.id, { type: 'task', text: 'write hello.sh' }),
      store.append(run.id, { type: 'text', delta: 'On it.' }),
      store.append(run.id, { type: 'usage', input: 100, output: 20, usd: 0.001 }),
      store.append(run.id, { type: 'usage', input: 50, output: 5, usd: 0.0005 }),
      store.append(run.id, { type: 'outcome', status: 'completed' }),
    ]);
    const events = await store.events(run.id);
    assert.deepEqual(
      events.map((e) => [e.seq, e.type]),
      [
        [1, 'task'],
        [2, 'text'],
        [3, 'usage'],
        [4, 'usage'],
        [5, 'outcome'],
      ],
    );
    const summary = store.get(run.id)!;
    assert.deepEqual(summary.usage, { input: 150, output: 25, usd: 0.0015 });
    assert.deepEqual(summary.outcome, { status: 'completed' });
    assert.equal(summary.startedBy, 'ada');
    assert.equal(summary.createdAt, '2026-11-26T10:00:00.000Z');
    await assert.rejects(store.append(run.id, { type: 'text', delta: 'late' }), /not open/);
    await store.close();

    const reopened = await RunStore.open(dir.path);
    assert.deepEqual(reopened.get(run.id), summary);
    assert.deepEqual(await reopened.events(run.id, 3), events.slice(3));
    await reopened.close();
  });

  it('marks a run cut short by a restart interrupted, a torn last line left out', async () => {
    const dir = await tempDir('paddock-runs-');
    const store = await RunStore.open(dir.path);
    const run = await store.create({ task: 'long job' });
    await store.append(run.id, { type: 'task', text: 'long job' });
    await store.close();
    // The process died while writing its next line.
    await appendFile(join(dir.path, `${run.id}.jsonl`), '{"type":"text","de');

    const reopened = await RunStore.open(dir.path);
    assert.deepEqual(reopened.get(run.id)?.outcome, {
      status: 'interrupted',
      reason: INTERRUPTED_REASON,
    });
    const events = await reopened.events(run.id);
    assert.deepEqual(
      events.map((e) => [e.seq, e.type]),
      [
        [1, 'task'],
        [2, 'outcome'],
      ],
    );
    await reopened.close();
    // Opened again, it stays as it was: nothing is marked twice.
    const again = await RunStore.open(dir.path);
    assert.equal((await again.events(run.id)).length, 2);
    await again.close();
  });

  it('ignores files that are not runs', async () => {
    const dir = await tempDir('paddock-runs-');
    await writeFile(join(dir.path, 'notes.txt'), 'hello');
    await writeFile(join(dir.path, '00000000-0000-0000-0000-000000000000.jsonl'), 'not json\n');
    const store = await RunStore.open(dir.path);
    assert.deepEqual(store.list(), []);
    await store.close();
  });

  it('hands a follower the past events, then the live ones, each once', async () => {
    const dir = await tempDir('paddock-runs-');
    const store = await RunStore.open(dir.path);
    const run = await store.create({ task: 't' });
    await store.append(run.id, { type: 'task', text: 't' });
    await store.append(run.id, { type: 'text', delta: 'a' });
    const seen: TranscriptEvent[] = [];
    const following = store.follow(run.id, 1, (event) => seen.push(event));
    // Written while the follower reads the file: delivered once, in order.
    const racing = store.append(run.id, { type: 'text', delta: 'b' });
    await following;
    await racing;
    await store.append(run.id, { type: 'outcome', status: 'completed' });
    assert.deepEqual(
      seen.map((e) => e.seq),
      [2, 3, 4],
    );
    (await following).stop();
    await store.close();
  });

  it('lists the newest first and keeps at most MAX_RUNS_KEPT runs, deleting the oldest finished', async () => {
    const dir = await tempDir('paddock-runs-');
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const store = await RunStore.open(dir.path, () => new Date((clock += 1000)));
    const first = await store.create({ task: 'first' });
    await store.append(first.id, { type: 'outcome', status: 'completed' });
    for (let i = 1; i < MAX_RUNS_KEPT; i++) {
      const run = await store.create({ task: `run ${i}` });
      await store.append(run.id, { type: 'outcome', status: 'completed' });
    }
    assert.equal(store.list().length, MAX_RUNS_KEPT);
    const newest = await store.create({ task: 'newest' });
    const listed = store.list();
    assert.equal(listed.length, MAX_RUNS_KEPT);
    assert.equal(listed[0]?.id, newest.id);
    assert.equal(store.get(first.id), undefined);
    assert.equal((await readdir(dir.path)).length, MAX_RUNS_KEPT);
    await store.close();
    assert.match(await readFile(join(dir.path, `${newest.id}.jsonl`), 'utf8'), /"task":"newest"/);
  });
});
