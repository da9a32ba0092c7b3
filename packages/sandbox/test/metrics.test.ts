import assert from 'node:assert/strict';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listen, silentLogger } from '@paddock/common';
import { eventually, tempDir } from '@paddock/testing';
import WebSocket from 'ws';
import { execFeature } from '../src/api/exec.js';
import { createApiListener, type ApiListener } from '../src/api/listener.js';
import { portForwardFeature } from '../src/api/port-forward.js';
import { METRIC_NAMES, SandboxMetrics } from '../src/metrics.js';
import { ToolSet } from '../src/mcp/dispatch.js';
import { createMcpListener, type McpListener } from '../src/mcp/listener.js';
import { ProcessGroups } from '../src/mcp/process-group.js';
import { TOOLS } from '../src/mcp/tools/index.js';
import { Workspace } from '../src/workspace/containment.js';
import { connect } from './support/sandbox.js';

const TOKEN = 'metrics-test-token';
const FILE_TEXT = 'the workspace content no scrape may show';
const TUNNEL_BYTES = 1000;

/** One sample's value from a text exposition, or undefined when the series is absent. */
function sample(
  text: string,
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    const match = /^([a-z_:]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const given = match[2] === undefined || match[2] === '' ? [] : match[2].split(',');
    if (wanted.every((w) => given.includes(w)) && given.length === wanted.length)
      return Number(match[3]);
  }
  return undefined;
}

describe('the sandbox metrics, scraped after real work', () => {
  let folder: Awaited<ReturnType<typeof tempDir>>;
  let groups: ProcessGroups;
  let mcp: McpListener;
  let api: ApiListener;
  let target: Server;
  let mcpBase: string;
  let apiBase: string;
  let client: Client;

  before(async () => {
    folder = await tempDir('paddock-metrics-');
    await writeFile(join(folder.path, 'notes.txt'), FILE_TEXT);
    const workspace = await Workspace.open(folder.path);
    const metrics = new SandboxMetrics();
    groups = new ProcessGroups();
    mcp = createMcpListener(
      {
        version: '0.0.0',
        tools: new ToolSet(TOOLS),
        workspace,
        childEnv: { PATH: process.env.PATH },
        groups,
        metrics,
        scrub: (text) => text,
      },
      silentLogger(),
      { token: TOKEN, allowedOrigins: [], keepAliveMs: 60_000 },
    );
    mcpBase = `http://127.0.0.1:${(await listen(mcp.server, { host: '127.0.0.1', port: 0 })).port}`;
    api = await createApiListener({
      workspace,
      features: { api: false, exec: true, portForward: true, ssh: false },
      devMode: true,
      logger: silentLogger(),
      audit: () => {},
      childEnv: { PATH: process.env.PATH },
      metrics,
      modules: [execFeature, portForwardFeature],
    });
    apiBase = `ws://127.0.0.1:${(await listen(api.app, { host: '127.0.0.1', port: 0 })).port}`;
    target = createServer((socket) => socket.pipe(socket)).listen(0, '127.0.0.1');
    await once(target, 'listening');
    client = await connect(mcpBase, 'streamable', { authorization: `Bearer ${TOKEN}` });
  });
  after(async () => {
    await client.close();
    await Promise.all([mcp.close(), api.close()]);
    await groups.terminateAll();
    target.close();
    await folder.remove();
  });

  /** GET /metrics on the MCP listener, without the MCP token: as Prometheus scrapes it. */
  async function scrape(): Promise<string> {
    const res = await fetch(`${mcpBase}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return res.text();
  }

  it('counts tool calls by tool and result, times them, and counts open sessions', async () => {
    await client.callTool({ name: 'Read', arguments: { file_path: 'notes.txt' } });
    const missing = await client.callTool({ name: 'Read', arguments: { file_path: 'gone.txt' } });
    assert.equal(missing.isError, true);
    await assert.rejects(client.callTool({ name: 'NoSuchTool', arguments: {} }));

    const text = await scrape();
    const calls = METRIC_NAMES.toolCalls;
    assert.equal(sample(text, calls, { tool: 'Read', result: 'ok' }), 1);
    assert.equal(sample(text, calls, { tool: 'Read', result: 'error' }), 1);
    assert.equal(sample(text, calls, { tool: 'unknown', result: 'failed' }), 1);
    assert.equal(sample(text, `${METRIC_NAMES.toolDuration}_count`, { tool: 'Read' }), 2);
    assert.ok(sample(text, `${METRIC_NAMES.toolDuration}_sum`, { tool: 'Read' })! > 0);
    assert.equal(sample(text, METRIC_NAMES.sessions), 1);
    assert.ok(sample(text, 'paddock_sandbox_process_cpu_seconds_total')! > 0);
    // Counts and durations only: no path, no content, no name a caller made up.
    for (const secret of ['notes.txt', 'gone.txt', FILE_TEXT, 'NoSuchTool'])
      assert.ok(!text.includes(secret), secret);
  });

  it('counts open terminals and tunnels, and the bytes through the tunnels', async () => {
    const terminal = new WebSocket(`${apiBase}/api/exec?command=cat`);
    await once(terminal, 'open');
    const port = (target.address() as AddressInfo).port;
    const tunnel = new WebSocket(`${apiBase}/api/port-forward?port=${port}`);
    await once(tunnel, 'open');
    let echoed = 0;
    tunnel.on('message', (data: Buffer) => (echoed += data.length));
    tunnel.send(Buffer.alloc(TUNNEL_BYTES, 7), { binary: true });
    await eventually('the echo', () => (echoed === TUNNEL_BYTES ? true : undefined));

    const open = await scrape();
    assert.equal(sample(open, METRIC_NAMES.terminals), 1);
    assert.equal(sample(open, METRIC_NAMES.tunnels), 1);
    assert.equal(sample(open, METRIC_NAMES.tunnelBytes, { direction: 'in' }), TUNNEL_BYTES);
    assert.equal(sample(open, METRIC_NAMES.tunnelBytes, { direction: 'out' }), TUNNEL_BYTES);

    terminal.close();
    tunnel.close();
    await eventually('the terminal and the tunnel to be counted closed', async () => {
      const text = await scrape();
      const closed =
        sample(text, METRIC_NAMES.terminals) === 0 && sample(text, METRIC_NAMES.tunnels) === 0;
      return closed ? true : undefined;
    });
  });

  it('names every metric by Prometheus rules: counters end in _total, nothing else does', async () => {
    const types = [...(await scrape()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => ({
      name: m[1]!,
      type: m[2]!,
    }));
    assert.ok(types.length > 10);
    for (const { name, type } of types) {
      assert.ok(name.startsWith('paddock_sandbox_'), name);
      assert.equal(name.endsWith('_total'), type === 'counter', `${name} is a ${type}`);
      assert.doesNotMatch(name, /_(milliseconds|ms|kilobytes|minutes)(_|$)/, name);
    }
  });
});
