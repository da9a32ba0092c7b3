import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { listen, silentLogger } from '@paddock/common';
import { MCP_INITIALIZE, tempDir } from '@paddock/testing';
import { ToolSet } from '../src/mcp/dispatch.js';
import { jsonReplyEntries } from '../src/mcp/json-replies.js';
import { createMcpListener, type McpListener } from '../src/mcp/listener.js';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { readTool } from '../src/mcp/tools/read.js';
import { Workspace } from '../src/workspace/containment.js';
import { textOf } from './support/sandbox.js';

/** Calls made over one session, in rounds of CONCURRENT calls in flight at once. */
const CALLS = 400;
const CONCURRENT = 8;

describe('Streamable HTTP answers each request with one JSON reply', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let listener: McpListener;
  let base: string;

  before(async () => {
    folder = await tempDir('paddock-mcp-json-');
    await writeFile(join(folder.path, 'a.txt'), 'one\ntwo\n');
    listener = createMcpListener(
      {
        version: '0.0.0',
        tools: new ToolSet([readTool]),
        workspace: await Workspace.open(folder.path),
        childEnv: {},
        groups: new ProcessGroups(),
        scrub: (text) => text,
      },
      silentLogger(),
      { token: undefined, allowedOrigins: [], keepAliveMs: 60_000 },
    );
    base = `http://127.0.0.1:${(await listen(listener.server, { host: '127.0.0.1', port: 0 })).port}`;
  });
  after(async () => {
    await listener.close();
    await folder.remove();
  });

  it('as application/json, with the session header', async () => {
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const init = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify(MCP_INITIALIZE),
    });
    assert.equal(init.status, 200);
    assert.match(init.headers.get('content-type') ?? '', /^application\/json/);
    const session = init.headers.get('mcp-session-id');
    assert.ok(session);
    const result = (await init.json()) as { id: number; result: { serverInfo: unknown } };
    assert.equal(result.id, 1);
    assert.ok(result.result.serverInfo);
    await fetch(`${base}/mcp`, {
      method: 'DELETE',
      headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
    });
  });

  it(`keeps no entry per request: none left after ${CALLS} calls, ${CONCURRENT} at a time`, async () => {
    const clientTransport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    const client = new Client({ name: 'json-replies', version: '1' });
    await client.connect(clientTransport);
    try {
      const session = listener.sessions.get(clientTransport.sessionId!, 'streamable');
      assert.ok(session);
      const entries = jsonReplyEntries(session.transport as StreamableHTTPServerTransport);
      // The SDK still keeps its table where the fix looks for it; if not, this fails first.
      assert.ok(entries, 'the SDK transport has no table of pending replies where expected');
      // Beside them the table holds the session's own event stream (GET /mcp), if one is open.
      const pending = () => [...entries.values()].filter((e) => e.resolveJson).length;
      let highest = 0;
      for (let done = 0; done < CALLS; done += CONCURRENT) {
        const replies = await Promise.all(
          Array.from({ length: CONCURRENT }, () =>
            client.callTool({ name: 'Read', arguments: { file_path: 'a.txt' } }),
          ),
        );
        for (const reply of replies) assert.equal(textOf(reply), '1\tone\n2\ttwo');
        highest = Math.max(highest, pending());
      }
      assert.ok(entries.size <= 1, `${entries.size} entries`);
      assert.equal(highest, 0, 'an answered request left its entry behind');
    } finally {
      await client.close();
    }
  });
});
