import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, tempDir } from '@paddock/testing';
import { connect, startSandbox, textOf, type RunningSandbox } from '../support/sandbox.js';
import { processesWith, uniqueMarker } from './process-scan.js';

/**
 * A Bash call's commands end with the call, the MCP session and the sandbox, even a job that
 * `set -m` moved to a process group of its own: the sandbox kills by session, not by group.
 */

/** A job under job control, in its own process group, that would live 302 s: named `marker`. */
function jobControlled(marker: string): string {
  return `set -m; (exec -a ${marker} sleep 302) & echo started`;
}

let folder: { path: string; remove: () => Promise<void> };
let sandbox: RunningSandbox;

before(async () => {
  folder = await tempDir('paddock-bash-jobs-');
  sandbox = await startSandbox(folder.path);
});

after(async () => {
  await sandbox.stop();
  await folder.remove();
});

describe('Bash jobs under set -m', () => {
  it('do not survive the call that started them', async () => {
    const client = await connect(sandbox.base, 'streamable');
    try {
      const marker = uniqueMarker('call');
      const result = await client.callTool({
        name: 'Bash',
        arguments: { command: jobControlled(marker) },
      });
      assert.match(textOf(result), /started/);
      assert.deepEqual(await processesWith(marker), [], 'the set -m job outlived its call');
    } finally {
      await client.close();
    }
  });

  it('do not survive the MCP session of a background shell', async () => {
    const client = await connect(sandbox.base, 'sse');
    const marker = uniqueMarker('session');
    await client.callTool({
      name: 'Bash',
      arguments: { command: `${jobControlled(marker)}; wait`, run_in_background: true },
    });
    await eventually('the job to run', async () =>
      (await processesWith(marker)).length > 0 ? true : undefined,
    );
    await client.close(); // the SSE stream drops: the session ends
    await eventually('the job to be gone with its session', async () =>
      (await processesWith(marker)).length === 0 ? true : undefined,
    );
  });

  it("do not survive the sandbox's shutdown", async () => {
    const own = await startSandbox(folder.path);
    const client = await connect(own.base, 'streamable');
    const marker = uniqueMarker('shutdown');
    await client.callTool({
      name: 'Bash',
      arguments: { command: `${jobControlled(marker)}; wait`, run_in_background: true },
    });
    await eventually('the job to run', async () =>
      (await processesWith(marker)).length > 0 ? true : undefined,
    );
    const exit = await own.stop('SIGTERM');
    await client.close().catch(() => {});
    assert.equal(exit.code, 0);
    assert.deepEqual(await processesWith(marker), [], 'the set -m job outlived the sandbox');
  });
});
