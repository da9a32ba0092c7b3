import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tempDir } from '@paddock/testing';
import {
  as,
  connect,
  startApiSandbox,
  textOf,
  type RunningApiSandbox,
} from '../support/sandbox.js';

/**
 * The longest one call may take: far below the 45 s a FIFO held Grep before, far above what a
 * refusal takes on a loaded machine.
 */
const CALL_TIMEOUT_MS = 10_000;

describe('FIFOs and sockets in the workspace', () => {
  let ws: { path: string; remove: () => Promise<void> };
  let sandbox: RunningApiSandbox;
  let client: Client;
  let socketServer: Server;
  before(async () => {
    ws = await tempDir('paddock-special-');
    await mkdir(join(ws.path, 'sub'));
    await writeFile(join(ws.path, 'sub', 'file.txt'), 'findme here\n');
    execFileSync('mkfifo', [join(ws.path, 'sub', 'fifo')]);
    socketServer = createServer();
    await new Promise<void>((resolve) =>
      socketServer.listen(join(ws.path, 'sub', 'sock'), resolve),
    );
    sandbox = await startApiSandbox(ws.path, ['-enable-api']);
    client = await connect(sandbox.base, 'streamable');
  });
  after(async () => {
    await client?.close();
    await sandbox?.stop();
    socketServer?.close();
    await ws?.remove();
  });

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args }, undefined, {
      timeout: CALL_TIMEOUT_MS,
    })) as CallToolResult;
  }

  for (const special of ['fifo', 'sock']) {
    test(`Grep refuses the ${special} named as its path at once`, async () => {
      const result = await call('Grep', { pattern: 'x', path: `sub/${special}` });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /is not a regular file/);
    });

    test(`Read refuses the ${special}`, async () => {
      const result = await call('Read', { file_path: `sub/${special}` });
      assert.equal(result.isError, true);
      assert.match(textOf(result), /is not a regular file/);
    });

    test(`/api/file refuses the ${special} with 400`, async () => {
      const response = await fetch(`${sandbox.apiBase}/api/file?path=sub/${special}`, {
        headers: as('alice'),
        signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
      });
      assert.equal(response.status, 400);
      assert.match(((await response.json()) as { message: string }).message, /not a regular file/);
    });
  }

  test('Grep searches a folder holding them, in every mode, and finds only the file', async () => {
    for (const output_mode of ['files_with_matches', 'content', 'count']) {
      const result = await call('Grep', { pattern: 'findme', path: 'sub', output_mode });
      assert.notEqual(result.isError, true);
      assert.match(textOf(result), /^sub\/file\.txt/);
      assert.doesNotMatch(textOf(result), /fifo|sock/);
    }
  });

  test('Glob lists only the file; LS shows them as other entries', async () => {
    assert.equal(textOf(await call('Glob', { pattern: '**/*' })), 'sub/file.txt');
    const listing = textOf(await call('LS', { path: 'sub' }));
    assert.match(listing, /^other +fifo$/m);
    assert.match(listing, /^other +sock$/m);
  });

  test('/api/download sends the zip whole, leaving them out', async () => {
    const response = await fetch(`${sandbox.apiBase}/api/download`, {
      headers: as('alice'),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
    assert.equal(response.status, 200);
    const out = await tempDir('paddock-special-zip-');
    try {
      const zip = join(out.path, 'workspace.zip');
      await writeFile(zip, Buffer.from(await response.arrayBuffer()));
      const names = execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n');
      assert.deepEqual(names.sort(), ['sub/', 'sub/file.txt']);
    } finally {
      await out.remove();
    }
  });
});
