import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listen, silentLogger } from '@paddock/common';
import { assertDies, eventually, isAlive, tempDir } from '@paddock/testing';
import { ToolSet } from '../src/mcp/dispatch.js';
import { createMcpListener, type McpListener } from '../src/mcp/listener.js';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { Workspace } from '../src/workspace/containment.js';
import { connect, textOf } from './support/sandbox.js';

/** One MCP listener with its own workspace and process-group registry, as main.ts builds it. */
interface Sandbox {
  listener: McpListener;
  groups: ProcessGroups;
  root: string;
  client: Client;
  remove: () => Promise<void>;
}

async function startSandbox(): Promise<Sandbox> {
  const folder = await tempDir('paddock-groups-');
  const workspace = await Workspace.open(folder.path);
  const groups = new ProcessGroups();
  const listener = createMcpListener(
    {
      version: '0.0.0',
      tools: new ToolSet(TOOLS),
      workspace,
      childEnv: { PATH: process.env.PATH },
      groups,
      scrub: (text) => text,
    },
    silentLogger(),
    { token: undefined, allowedOrigins: [], keepAliveMs: 60_000 },
  );
  const bound = await listen(listener.server, { host: '127.0.0.1', port: 0 });
  const client = await connect(`http://127.0.0.1:${bound.port}`, 'streamable');
  return { listener, groups, root: workspace.root, client, remove: folder.remove };
}

function pidIn(sandbox: Sandbox, name: string): Promise<number> {
  return eventually(`${name} to hold a pid`, async () => {
    const text = await readFile(join(sandbox.root, name), 'utf8').catch(() => '');
    return /^\d+\n$/.test(text) ? Number(text) : undefined;
  });
}

describe('two MCP listeners in one process', () => {
  let a: Sandbox;
  let b: Sandbox;

  before(async () => {
    a = await startSandbox();
    b = await startSandbox();
  });
  after(async () => {
    await b.client.close();
    await b.listener.close();
    await b.groups.terminateAll();
    await Promise.all([a.remove(), b.remove()]);
  });

  it("each end only their own commands: closing one leaves the other's running", async () => {
    const started = textOf(
      await b.client.callTool({
        name: 'Bash',
        arguments: { command: 'sleep 300 & echo $! > b.pid; wait', run_in_background: true },
      }),
    );
    assert.match(started, /shell_1/);
    const survivor = await pidIn(b, 'b.pid');

    // A foreground call still running when A's grace is spent: A's close kills its groups now.
    const inFlight = a.client
      .callTool({ name: 'Bash', arguments: { command: 'sleep 300 & echo $! > a.pid; wait' } })
      .catch((err: unknown) => err);
    const victim = await pidIn(a, 'a.pid');
    assert.equal(a.groups.size, 1);
    await a.listener.close({ forceAt: Date.now(), remainingMs: () => 0 });
    await assertDies(victim);
    await eventually('A to have no live group', () => (a.groups.size === 0 ? true : undefined));
    // The session ended under the call: closing the client settles it rather than its timeout.
    await a.client.close();
    await inFlight;

    assert.equal(await isAlive(survivor), true, "B's background command was killed by A's close");
    assert.equal(b.groups.size, 1);
    const output = textOf(
      await b.client.callTool({ name: 'BashOutput', arguments: { shell_id: 'shell_1' } }),
    );
    assert.match(output, /state: running$/);
  });
});
