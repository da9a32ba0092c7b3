import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import WebSocket from 'ws';
import { forceMoment } from '@paddock/common';
import { eventually, tempDir } from '@paddock/testing';
import { escalationTime } from '../../src/process/stop-deadline.js';
import { as, connect, startApiSandbox } from '../support/sandbox.js';
import { processesWith, uniqueMarker } from './process-scan.js';

/**
 * A shutdown spends one grace budget for the whole process: a terminal whose job ignores SIGHUP
 * and SIGTERM and a Bash call that ignores SIGTERM, both in flight, are forced within it, and the
 * sandbox exits 0 with nothing left behind. The grace is shortened through SVC_SHUTDOWN_GRACE_MS;
 * before, each listener took its own share of the grace and the process exited 1 past it.
 */

/** The grace the sandbox runs with here: room for the forcing on a loaded machine. */
const TEST_GRACE_MS = 4_000;

/** A command that ignores SIGHUP and SIGTERM and would live 303 s, named `marker`. */
function stubborn(marker: string): string {
  return `bash -c "trap '' HUP TERM; exec -a ${marker} sleep 303"`;
}

let folder: { path: string; remove: () => Promise<void> };

before(async () => {
  folder = await tempDir('paddock-shutdown-grace-');
});

after(async () => {
  await folder.remove();
});

describe('shutdown with a stubborn terminal job and a Bash call in flight', () => {
  it('exits 0 within one grace budget and leaves no process behind', async () => {
    const sandbox = await startApiSandbox(folder.path, ['-enable-exec'], {
      SVC_SHUTDOWN_GRACE_MS: String(TEST_GRACE_MS),
    });
    const terminalJob = uniqueMarker('terminal-job');
    const bashCall = uniqueMarker('bash-call');
    try {
      const url = new URL('/api/exec', sandbox.apiBase.replace(/^http/, 'ws'));
      const ws = new WebSocket(url, { headers: as('alice') });
      ws.on('error', () => {}); // the shutdown cuts it
      await once(ws, 'open');
      ws.send(Buffer.from(`${stubborn(terminalJob)}\n`), { binary: true });

      const client = await connect(sandbox.base, 'streamable');
      const call = client
        .callTool({ name: 'Bash', arguments: { command: stubborn(bashCall) } })
        .catch((err: unknown) => err);
      for (const marker of [terminalJob, bashCall]) {
        await eventually(`${marker} to run`, async () =>
          (await processesWith(marker)).length > 0 ? true : undefined,
        );
      }

      const exit = await sandbox.stop('SIGTERM', 30_000);
      await client.close().catch(() => {});
      await call; // settled: answered before the exit, or failed by the close
      assert.deepEqual(exit, { code: 0, signal: null }, sandbox.output().slice(-2000));
      assert.deepEqual(await processesWith(terminalJob), [], 'the terminal job survived');
      assert.deepEqual(await processesWith(bashCall), [], 'the Bash call survived');
    } finally {
      await sandbox.stop('SIGKILL');
    }
  });
});

describe('the grace budget', () => {
  it('ends waiting a reserve before the grace, at most a quarter of it', () => {
    const table: Array<[startedAt: number, graceMs: number, forceAt: number]> = [
      [0, 10_000, 9_000],
      [1_000, 10_000, 10_000],
      [0, 4_000, 3_000],
      [0, 2_000, 1_500],
      [0, 100, 75],
    ];
    for (const [startedAt, graceMs, forceAt] of table) {
      assert.equal(forceMoment(startedAt, graceMs), forceAt, `${startedAt} + ${graceMs}`);
    }
  });

  it('escalates a kill after its grace, or at the forcing moment of a shutdown if sooner', () => {
    const table: Array<[now: number, graceMs: number, stopAt: number | undefined, at: number]> = [
      [0, 2_000, undefined, 2_000],
      [0, 2_000, 5_000, 2_000],
      [4_000, 2_000, 5_000, 5_000],
      [6_000, 2_000, 5_000, 5_000],
    ];
    for (const [now, graceMs, stopAt, at] of table) {
      assert.equal(escalationTime(now, graceMs, stopAt), at, `${now} ${graceMs} ${stopAt}`);
    }
  });
});
