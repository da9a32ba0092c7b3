import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ToolHandler } from '@paddock/kube';
import {
  eventually,
  freePort,
  SANDBOX_BIN as SANDBOX,
  start,
  tempDir,
  type Started,
} from '@paddock/testing';
import { discoverHandler } from '../src/toolregistry/index.js';

const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

let workspace: Awaited<ReturnType<typeof tempDir>>;
let sandbox: Started;
let base: string;

before(async () => {
  workspace = await tempDir('paddock-mcp-');
  sandbox = start('node', [SANDBOX, '-addr', '127.0.0.1:0', '-workspace', workspace.path]);
  const [, addr] = await sandbox.waitForOutput(/"addr":"(127\.0\.0\.1:\d+)"/);
  base = `http://${addr}`;
});

after(async () => {
  await sandbox?.stop();
  await workspace?.remove();
});

/** The command lines of this process's children still running. */
function childCommands(): string[] {
  try {
    return execFileSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], {
      encoding: 'utf8',
    }).split('\n');
  } catch {
    return []; // ps exits 1 when there are none
  }
}

const sseHandler = (endpoint: string, extra: Partial<ToolHandler> = {}): ToolHandler => ({
  name: 'sandbox',
  type: 'mcp',
  mcpConfig: { transport: 'sse', endpoint },
  timeout: '5s',
  ...extra,
});

const stdioHandler: ToolHandler = {
  name: 'everything',
  type: 'mcp',
  timeout: '20s',
  mcpConfig: { transport: 'stdio', command: process.execPath, args: [EVERYTHING, 'stdio'] },
};

describe('mcp tool discovery', () => {
  it('lists every tool of an MCP server over SSE', async () => {
    const found = await discoverHandler(sseHandler(`${base}/sse`), { namespace: 'team' });
    assert.ok(found.tools.length >= 2, JSON.stringify(found));
    assert.ok(found.tools.every((t) => t.status === 'Available' && t.endpoint === `${base}/sse`));
    assert.equal(new Set(found.tools.map((t) => t.name)).size, found.tools.length);
  });

  it('speaks streamable HTTP to an endpoint ending in /mcp, with the same tools', async () => {
    const sse = await discoverHandler(sseHandler(`${base}/sse`), { namespace: 'team' });
    const streamable = await discoverHandler(sseHandler(`${base}/mcp`), { namespace: 'team' });
    assert.deepEqual(
      streamable.tools.map((t) => t.name).sort(),
      sse.tools.map((t) => t.name).sort(),
    );
  });

  it('reaches the server through the handler endpoint when mcpConfig names none', async () => {
    const handler: ToolHandler = {
      name: 'sandbox',
      type: 'mcp',
      endpoint: { url: `${base}/sse` },
      mcpConfig: { transport: 'sse' },
    };
    const found = await discoverHandler(handler, { namespace: 'team' });
    assert.ok(found.tools.length >= 2);
    assert.equal(found.tools[0]?.status, 'Available');
  });

  it('reports an MCP server that is down as Unavailable', async () => {
    const url = `http://127.0.0.1:${await freePort()}/sse`;
    const found = await discoverHandler(sseHandler(url, { timeout: '2s' }), { namespace: 'team' });
    assert.equal(found.tools.length, 1);
    assert.equal(found.tools[0]?.name, 'sandbox');
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.equal(found.tools[0]?.endpoint, url);
    assert.ok((found.tools[0]?.error ?? '') !== '');
  });

  it('runs a stdio server when the operator allows it, lists its tools and stops it', async () => {
    const found = await discoverHandler(stdioHandler, { namespace: 'team', allowStdio: true });
    const names = found.tools.map((t) => t.name);
    assert.ok(names.includes('echo'), names.join(', '));
    assert.ok(found.tools.every((t) => t.status === 'Available'));
    assert.equal(found.tools[0]?.endpoint, `stdio:${process.execPath} ${EVERYTHING} stdio`);
    await eventually('the stdio server to stop', () =>
      childCommands().some((line) => line.includes(EVERYTHING)) ? undefined : true,
    );
  });

  it('does not run a stdio server when the operator option is off, and says so', async () => {
    const found = await discoverHandler(stdioHandler, { namespace: 'team' });
    assert.deepEqual(found.tools, [
      {
        handlerName: 'everything',
        name: 'everything',
        status: 'Unknown',
        error:
          'mcp stdio handlers are not run: the operator option that allows running their command is off',
      },
    ]);
  });

  it('reports a stdio command that cannot start as Unavailable', async () => {
    const found = await discoverHandler(
      {
        ...stdioHandler,
        mcpConfig: { transport: 'stdio', command: join(workspace.path, 'no-such-server') },
      },
      { namespace: 'team', allowStdio: true },
    );
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /ENOENT/);
  });
});
