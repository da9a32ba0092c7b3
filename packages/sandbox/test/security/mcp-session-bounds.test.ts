import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { listen, silentLogger } from '@paddock/common';
import { tempDir } from '@paddock/testing';
import { ToolSet } from '../../src/mcp/dispatch.js';
import { createMcpListener, type McpListener } from '../../src/mcp/listener.js';
import { ProcessGroups } from '../../src/mcp/process-group.js';
import {
  MAX_SESSIONS,
  MAX_SESSIONS_PER_CLIENT,
  SESSION_IDLE_MS,
  sessionsToEvict,
  type SessionSlot,
} from '../../src/mcp/sessions.js';
import { Workspace } from '../../src/workspace/containment.js';
import { connect } from '../support/sandbox.js';

/** Sessions the careless client opens and never closes: more than the process-wide bound. */
const ABANDONED_SESSIONS = MAX_SESSIONS + 20;
/**
 * Initializations in flight at once while it does: well under MAX_SESSIONS_PER_CLIENT, or the
 * client's own newest sessions would make room for each other before it finished initializing them.
 */
const CONCURRENCY = 4;

describe('which sessions make room for a new one', () => {
  const slot = (id: string, client: string, lastSeen: number): SessionSlot => ({
    id,
    client,
    lastSeen,
  });
  const limits = { perClient: 3, total: 5 };
  const table: Array<[string, SessionSlot[], string, string[]]> = [
    ['nothing while under both bounds', [slot('a', 'x', 1)], 'x', []],
    [
      'the client’s least recently used session at its own bound',
      [slot('a', 'x', 5), slot('b', 'x', 1), slot('c', 'x', 9), slot('d', 'y', 0)],
      'x',
      ['b'],
    ],
    [
      'at the process bound, the oldest session of the biggest holder, not the newcomer’s peers',
      [
        slot('h1', 'hog', 8),
        slot('h2', 'hog', 7),
        slot('h3', 'hog', 9),
        slot('p', 'polite', 0),
        slot('q', 'quiet', 1),
      ],
      'new',
      ['h2'],
    ],
    [
      'both: the own bound first, then the biggest holder when still full',
      [
        slot('x1', 'x', 1),
        slot('x2', 'x', 2),
        slot('x3', 'x', 3),
        slot('y1', 'y', 0),
        slot('y2', 'y', 4),
      ],
      'x',
      ['x1'],
    ],
  ];
  for (const [what, slots, client, expected] of table) {
    it(`ends ${what}`, () => {
      assert.deepEqual(sessionsToEvict(slots, client, limits).sort(), expected.sort());
    });
  }
  it('are named bounds: idle sessions end within minutes, not half an hour', () => {
    assert.ok(SESSION_IDLE_MS <= 5 * 60_000);
    assert.ok(MAX_SESSIONS_PER_CLIENT < MAX_SESSIONS);
  });
});

describe('an MCP listener with clients that never close their sessions', () => {
  let folder: { path: string; remove: () => Promise<void> };
  let listener: McpListener;
  let base: string;
  let now = 1_000_000;

  before(async () => {
    folder = await tempDir('paddock-mcp-sessions-');
    listener = createMcpListener(
      {
        version: '0.0.0',
        tools: new ToolSet([]),
        workspace: await Workspace.open(folder.path),
        childEnv: {},
        groups: new ProcessGroups(),
        scrub: (text) => text,
      },
      silentLogger(),
      { token: undefined, allowedOrigins: [], keepAliveMs: 60_000, clock: () => now },
    );
    const bound = await listen(listener.server, { host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${bound.port}`;
  });
  after(async () => {
    await listener.close();
    await folder.remove();
  });

  /** Opens a Streamable HTTP session with the SDK client and leaves it open, as a careless client does. */
  async function abandon(): Promise<string> {
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    const client = new Client({ name: 'careless', version: '1.0.0' });
    await client.connect(transport);
    return transport.sessionId!;
  }

  it(`lets a new client in after ${ABANDONED_SESSIONS} abandoned sessions, holding at most ${MAX_SESSIONS_PER_CLIENT} of them`, async () => {
    const opened: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < ABANDONED_SESSIONS) {
          next++;
          opened.push(await abandon());
        }
      }),
    );
    assert.equal(opened.length, ABANDONED_SESSIONS);
    assert.ok(listener.sessions.size <= MAX_SESSIONS_PER_CLIENT, `${listener.sessions.size}`);

    const fresh = await connect(base, 'streamable');
    try {
      assert.deepEqual((await fresh.listTools()).tools, []);
    } finally {
      await fresh.close();
    }
    // The first abandoned session was given up for the later ones.
    const stale = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': opened[0]!,
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    assert.equal(stale.status, 404);
    await stale.body?.cancel();
  });

  it('ends a session idle for SESSION_IDLE_MS and keeps one used meanwhile', async () => {
    const idle = await connect(base, 'streamable');
    const busy = await connect(base, 'streamable');
    try {
      now += SESSION_IDLE_MS - 1_000;
      await busy.listTools(); // seen just now
      now += 2_000; // idle is past the bound, busy is not
      await listener.sessions.endIdle();
      await assert.rejects(idle.listTools(), /Session not found|404/);
      assert.deepEqual((await busy.listTools()).tools, []);
    } finally {
      await idle.close().catch(() => {});
      await busy.close();
    }
  });
});
