import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CORE_KINDS } from '@paddock/kube';
import { Client, startAgentPlatform, type AgentPlatform } from '@paddock/testing';

/**
 * An agent's MCP server through the dashboard, with two replicas: both transports, sessions that
 * stay on their replica whatever the dashboard does in between, and a session whose replica is
 * gone.
 */

const WS = 'mcp-door';
const AGENT = 'duo';

let platform: AgentPlatform;
let key: string;

const base = () => `${platform.dashboard.base}/api/workspaces/${WS}/agents/${AGENT}`;
const text = (result: unknown) =>
  ((result as { content: { text?: string }[] }).content ?? []).map((c) => c.text ?? '').join('');

async function connect(transport: Transport): Promise<McpClient> {
  const client = new McpClient({ name: 'door-mcp-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

const streamable = () =>
  new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), {
    requestInit: { headers: { 'x-api-key': key } },
  });
const sse = () =>
  new SSEClientTransport(new URL(`${base()}/sse`), {
    requestInit: { headers: { 'x-api-key': key } },
    eventSourceInit: {
      fetch: (url, init) =>
        fetch(url, { ...init, headers: { ...(init?.headers ?? {}), 'x-api-key': key } }),
    },
  });

/** Which replica answers: each writes its own pod name into its own workspace first. */
async function replicaOf(client: McpClient): Promise<string> {
  return text(await client.callTool({ name: 'Read', arguments: { file_path: 'whoami.txt' } }))
    .replace(/^\s*1\t/, '')
    .trim();
}

describe('MCP through the dashboard, with two replicas', () => {
  before(async () => {
    platform = await startAgentPlatform();
    await platform.workspace(WS, { roleBindings: [{ groups: ['devs'], role: 'editor' }] });
    const pods = await platform.agent(WS, AGENT, {}, 2);
    for (const pod of pods) {
      await writeFile(join(platform.workspaceFolder(WS, pod), 'whoami.txt'), `${pod}\n`);
    }
    const editor = new Client(platform.dashboard.base, {
      'x-forwarded-user': 'eddie',
      'x-forwarded-groups': 'devs',
    });
    key = ((await editor.post('/api/settings/api-keys', { name: 'mcp' })).body as { key: string })
      .key;
  });

  after(async () => {
    await platform?.stop();
  });

  it('spreads new sessions over the replicas, and each stays on its own (Streamable HTTP and SSE)', async () => {
    const clients = await Promise.all([
      connect(streamable()),
      connect(streamable()),
      connect(sse()),
      connect(sse()),
    ]);
    try {
      const first = await Promise.all(clients.map(replicaOf));
      assert.deepEqual(new Set(first), new Set([`${AGENT}-0`, `${AGENT}-1`]));
      for (let round = 0; round < 5; round++) {
        assert.deepEqual(await Promise.all(clients.map(replicaOf)), first, `round ${round}`);
      }
      const { tools } = await clients[2].listTools();
      assert.ok(tools.some((t) => t.name === 'Write'));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });

  it('ends a session whose replica is gone with 404, so that the client starts a new one', async () => {
    const client = await connect(streamable());
    const transport = client.transport as StreamableHTTPClientTransport;
    const replica = await replicaOf(client);
    const session = transport.sessionId;
    assert.match(session ?? '', /^[01]\./);
    await platform.kube.resource(CORE_KINDS.pod).delete(replica, `ns-${WS}`);
    await platform.readyPods(WS, AGENT, 2);
    const answer = await fetch(`${base()}/mcp`, {
      method: 'POST',
      headers: {
        'x-api-key': key,
        'mcp-session-id': session!,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
    });
    assert.equal(answer.status, 404);
    await client.close().catch(() => undefined);
    const fresh = await connect(streamable());
    try {
      assert.match(await replicaOf(fresh), /^duo-[01]$/);
    } finally {
      await fresh.close();
    }
  });
});
