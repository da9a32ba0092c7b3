// The dashboard as the door into an agent's workspace, against the agent's pod reached straight:
// 1 GiB through a port-forward (direct loopback TCP, the sandbox's own tunnel, the tunnel through
// the dashboard), MCP tools/call Read with the SDK's client at 1 and 50 sessions, and a terminal's
// keystroke round trip. The whole platform runs here: embedded cluster, operator, local node with
// a real agent pod, and the dashboard in proxy mode, each its own process.
import { execFile } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { formatAddress, PROOF_HEADER, signIdentityProof } from '@paddock/common';
import {
  agentPodAudience,
  CORE_KINDS,
  podEndpoint,
  proofKeysOf,
  type KubeObject,
  type PodEndpoint,
} from '@paddock/kube';
import { startAgentPlatform, type AgentPlatform, type PlatformPod } from '@paddock/testing';
import { cpuDuring, descendantsMatching } from './lib/door-cpu.js';
import { median, percentile, printTable } from './lib/table.js';
import { sendUpTunnel } from './lib/tunnel-upload.js';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..');
const loadScript = join(import.meta.dirname, 'lib', 'door-mcp-load.ts');

const WS = 'bench';
const NAMESPACE = `ns-${WS}`;
const AGENT = 'coder';
const POD = `${AGENT}-0`;
const EDITOR = { 'x-forwarded-user': 'eddie', 'x-forwarded-groups': 'devs' };

const MiB = 1024 * 1024;
const TRANSFER = 1024 * MiB;
const CHUNK = Buffer.alloc(256 * 1024, 7);
const TUNNEL_RUNS = 3;
const MCP_RUNS = 3;
const MCP_SECONDS = 3;
const KEYSTROKES = 500;

// ---------------------------------------------------------------------------------------------
// Port-forward: a sink that counts what arrives, a source that sends TRANSFER bytes and ends.

interface Endpoint {
  server: Server;
  port: number;
}

async function listen(onConnection: (socket: Socket) => void): Promise<Endpoint> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

/** A TCP sink; `expect()` resolves once `TRANSFER` bytes have arrived after it was called. */
async function sink(): Promise<Endpoint & { expect: () => Promise<void> }> {
  let received = 0;
  let arrived: () => void = () => {};
  const endpoint = await listen((socket) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= TRANSFER) arrived();
    });
    socket.on('error', () => {});
  });
  return {
    ...endpoint,
    expect: () => {
      received = 0;
      return new Promise<void>((resolve) => (arrived = resolve));
    },
  };
}

/** A TCP source: each connection gets TRANSFER bytes, then FIN. */
function source(): Promise<Endpoint> {
  return listen((socket) => {
    socket.on('error', () => {});
    void (async () => {
      for (let sent = 0; sent < TRANSFER; sent += CHUNK.length) {
        if (!socket.write(CHUNK)) await new Promise((r) => socket.once('drain', r));
      }
      socket.end();
    })();
  });
}

async function directUpload(port: number, arrived: Promise<void>): Promise<number> {
  const socket = tcpConnect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const started = performance.now();
  for (let sent = 0; sent < TRANSFER; sent += CHUNK.length) {
    if (!socket.write(CHUNK)) await new Promise((r) => socket.once('drain', r));
  }
  await arrived;
  const ms = performance.now() - started;
  socket.destroy();
  return ms;
}

async function directDownload(port: number): Promise<number> {
  const started = performance.now();
  const socket = tcpConnect(port, '127.0.0.1');
  let received = 0;
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  await new Promise((r) => socket.once('end', r));
  const ms = performance.now() - started;
  socket.destroy();
  if (received !== TRANSFER) throw new Error(`received ${received} bytes of ${TRANSFER}`);
  return ms;
}

function openSocket(url: string, headers: Record<string, string>): Promise<WebSocket> {
  const ws = new WebSocket(url, { headers, perMessageDeflate: false });
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`${url} answered ${res.statusCode}`)),
    );
    ws.once('error', reject);
  });
}

/** 1 GiB up the tunnel, 4 MiB kept queued, woken by the send callbacks rather than polling. */
async function tunnelUpload(ws: WebSocket, arrived: Promise<void>): Promise<number> {
  const started = performance.now();
  await sendUpTunnel(ws, CHUNK, TRANSFER);
  ws.send('eof');
  await arrived;
  const ms = performance.now() - started;
  ws.close();
  return ms;
}

/** 1 GiB down the tunnel, until the target's end-of-stream frame. */
async function tunnelDownload(ws: WebSocket, opened: number): Promise<number> {
  let received = 0;
  await new Promise<void>((resolve) =>
    ws.on('message', (data: Buffer, isBinary) => {
      if (isBinary) received += data.length;
      else if (data.toString() === 'eof') resolve();
    }),
  );
  const ms = performance.now() - opened;
  ws.send('eof');
  ws.close();
  if (received !== TRANSFER) throw new Error(`received ${received} bytes of ${TRANSFER}`);
  return ms;
}

interface TunnelWay {
  name: string;
  /** The tunnel to `port`, open. */
  open?: (port: number) => Promise<WebSocket>;
}

async function measureTunnels(ways: TunnelWay[], pids: Record<string, number>) {
  const target = await sink();
  const origin = await source();
  const times = new Map<string, number[]>();
  const cpu = new Map<string, Record<string, number>>();
  const record = (key: string, ms: number, used: Record<string, number>) => {
    times.set(key, [...(times.get(key) ?? []), ms]);
    const sum = cpu.get(key) ?? {};
    for (const [k, v] of Object.entries(used)) sum[k] = (sum[k] ?? 0) + v / TUNNEL_RUNS;
    cpu.set(key, sum);
  };
  try {
    for (let i = 0; i < TUNNEL_RUNS; i++) {
      for (const way of ways) {
        const up = await cpuDuring(pids, async () => {
          const arrived = target.expect();
          return way.open
            ? tunnelUpload(await way.open(target.port), arrived)
            : directUpload(target.port, arrived);
        });
        record(`${way.name} up`, up.result, up.cpu);
        const down = await cpuDuring(pids, async () => {
          if (!way.open) return directDownload(origin.port);
          const opened = performance.now();
          return tunnelDownload(await way.open(origin.port), opened);
        });
        record(`${way.name} down`, down.result, down.cpu);
      }
    }
  } finally {
    target.server.close();
    origin.server.close();
  }
  const mibps = (key: string) => TRANSFER / MiB / (median(times.get(key)!) / 1000);
  const rows = ways.flatMap((way) =>
    (['up', 'down'] as const).map((direction) => {
      const key = `${way.name} ${direction}`;
      const used = cpu.get(key)!;
      return {
        path: way.name,
        direction: direction === 'up' ? 'upload' : 'download',
        'MiB/s': mibps(key).toFixed(0),
        'CPU s: bench': used.self!.toFixed(2),
        'bench user': used.selfUser!.toFixed(2),
        ...Object.fromEntries(Object.keys(pids).map((k) => [k, used[k]!.toFixed(2)])),
      };
    }),
  );
  printTable(
    `Port-forward of 1 GiB to 127.0.0.1 in the pod, median of ${TUNNEL_RUNS} (CPU seconds per GiB by process, mean)`,
    rows,
  );
  const [direct, own, dashboard] = ways.map((w) => w.name);
  const ratio = (a: string, b: string, d: string) =>
    (mibps(`${a} ${d}`) / mibps(`${b} ${d}`)).toFixed(2);
  // Throughput ratios (MiB/s over MiB/s): 1.00 is as fast as the reference, higher is better.
  console.log(
    `throughput ratios: sandbox-own/direct up ${ratio(own!, direct!, 'up')}, down ${ratio(own!, direct!, 'down')} (goal >= 0.7); ` +
      `dashboard/direct up ${ratio(dashboard!, direct!, 'up')}, down ${ratio(dashboard!, direct!, 'down')} (goal >= 0.5); ` +
      `dashboard/sandbox-own up ${ratio(dashboard!, own!, 'up')}, down ${ratio(dashboard!, own!, 'down')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// MCP: the SDK's client in another process, through the dashboard and straight to the pod.

interface Load {
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

async function mcpLoad(url: string, sessions: number, headers: Record<string, string>) {
  const runs: Load[] = [];
  for (let i = 0; i < MCP_RUNS; i++) {
    const { stdout } = await run(
      process.execPath,
      [
        '--conditions=paddock-source',
        '--import',
        'tsx',
        loadScript,
        url,
        String(sessions),
        String(MCP_SECONDS),
        JSON.stringify(headers),
        'Read',
        JSON.stringify({ file_path: 'four-k.txt' }),
      ],
      { cwd: root, maxBuffer: 1 << 20 },
    );
    runs.push(JSON.parse(stdout) as Load);
  }
  return {
    callsPerSecond: median(runs.map((r) => r.callsPerSecond)),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
  };
}

async function measureMcp(dashboardUrl: string, apiKey: string, directUrl: string) {
  const rows = [];
  for (const sessions of [1, 50]) {
    const direct = await mcpLoad(directUrl, sessions, {});
    const door = await mcpLoad(dashboardUrl, sessions, { 'x-api-key': apiKey });
    for (const [path, load] of [
      ['straight to the pod', direct],
      ['through the dashboard', door],
    ] as const) {
      rows.push({
        sessions,
        path,
        'calls/s': Math.round(load.callsPerSecond),
        'p50 ms': load.p50Ms,
        'p99 ms': load.p99Ms,
        errors: load.errors,
        'ratio dashboard/direct':
          load === door ? (door.callsPerSecond / direct.callsPerSecond).toFixed(2) : '',
      });
    }
  }
  printTable(
    `MCP tools/call Read of a 4 KiB file, SDK client over Streamable HTTP, median of ${MCP_RUNS} runs of ${MCP_SECONDS} s (goal >= 0.7)`,
    rows,
  );
}

// ---------------------------------------------------------------------------------------------
// Terminal: one byte to `cat` on a raw terminal and back, one at a time.

async function keystrokes(url: string, headers: Record<string, string>): Promise<number[]> {
  const command = encodeURIComponent('stty raw -echo && echo READY && exec cat');
  const ws = await openSocket(`${url}?command=${command}`, headers);
  let output = '';
  let waiting: { byte: string; resolve: () => void } | undefined;
  let ready: () => void = () => {};
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  ws.on('message', (data: Buffer, isBinary) => {
    if (!isBinary) return;
    output += data.toString('latin1');
    if (output.includes('READY')) ready();
    if (waiting && output.endsWith(waiting.byte)) {
      const { resolve } = waiting;
      waiting = undefined;
      resolve();
    }
  });
  await isReady;
  const samples: number[] = [];
  for (let i = 0; i < KEYSTROKES + 20; i++) {
    const byte = String.fromCharCode(97 + (i % 26));
    const echoed = new Promise<void>((resolve) => (waiting = { byte, resolve }));
    const started = performance.now();
    ws.send(Buffer.from(byte, 'latin1'));
    await echoed;
    if (i >= 20) samples.push(performance.now() - started); // the first ones warm up
  }
  ws.close();
  return samples;
}

async function measureTerminal(
  dashboardUrl: string,
  dashboardHeaders: Record<string, string>,
  podUrl: string,
  podHeaders: () => Promise<Record<string, string>>,
) {
  const direct = await keystrokes(podUrl, await podHeaders());
  const door = await keystrokes(dashboardUrl, dashboardHeaders);
  const row = (path: string, samples: number[]) => ({
    path,
    samples: samples.length,
    'p50 ms': percentile(samples, 0.5),
    'p99 ms': percentile(samples, 0.99),
  });
  printTable(`Terminal keystroke round trip (one byte to cat on a raw terminal and back)`, [
    row('straight to the pod', direct),
    row('through the dashboard', door),
  ]);
}

// ---------------------------------------------------------------------------------------------

async function proofHeaders(platform: AgentPlatform): Promise<Record<string, string>> {
  const secret = await platform.kube
    .resource<KubeObject & { data?: Record<string, string> }>(CORE_KINDS.secret)
    .get('paddock-sandbox-proof', 'paddock-system');
  const keys = proofKeysOf(secret.data);
  if (keys === undefined) throw new Error('the proof Secret holds no signing key');
  const proof = await signIdentityProof({
    privateKey: createPrivateKey(keys.privateKey),
    audience: agentPodAudience(POD, AGENT, NAMESPACE),
    identity: { sub: 'bench' },
  });
  return { [PROOF_HEADER]: proof };
}

// DASHBOARD_NODE_OPTIONS reaches the dashboard's NODE_OPTIONS: to profile it, or to try a flag.
const dashboardOptions = process.env.DASHBOARD_NODE_OPTIONS;
const platform = await startAgentPlatform(
  dashboardOptions === undefined ? {} : { dashboardEnv: { NODE_OPTIONS: dashboardOptions } },
);
try {
  await platform.workspace(WS, { roleBindings: [{ groups: ['devs'], role: 'editor' }] });
  await platform.agent(WS, AGENT, { sandbox: { exec: true, portForward: true } });
  const pod = await platform.kube.resource<PlatformPod>(CORE_KINDS.pod).get(POD, NAMESPACE);
  const at = (name: string): PodEndpoint => {
    const endpoint = podEndpoint(pod, name);
    if (endpoint === undefined) throw new Error(`the pod has no ${name} port`);
    return endpoint;
  };
  const api = at('api');
  const mcp = at('mcp');
  const dashboard = platform.dashboard.base;
  const dashboardWs = dashboard.replace('http', 'ws');
  const door = `/api/workspaces/${WS}/agents/${AGENT}/pods/${POD}/sandbox`;

  const created = await fetch(`${dashboard}/api/settings/api-keys`, {
    method: 'POST',
    headers: { ...EDITOR, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`API key: ${created.status} ${await created.text()}`);
  const { key } = (await created.json()) as { key: string };
  const keyHeader = { 'x-api-key': key };

  await writeFile(
    join(platform.workspaceFolder(WS, POD), 'four-k.txt'),
    Array.from(
      { length: 64 },
      (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(54)}`,
    ).join('\n'),
  );

  const only = process.argv[3];
  if (only === undefined || only === 'tunnel') {
    const [sandboxPid] = descendantsMatching(platform.node.child.pid!, /paddock-sandbox/);
    if (sandboxPid === undefined) throw new Error("the pod's sandbox process was not found");
    const pids = { sandbox: sandboxPid, dashboard: platform.dashboard.process.child.pid! };
    await measureTunnels(
      [
        { name: 'direct loopback TCP' },
        {
          name: 'sandbox tunnel, straight to the pod',
          open: async (port) =>
            openSocket(
              `ws://${formatAddress(api)}/api/port-forward?port=${port}`,
              await proofHeaders(platform),
            ),
        },
        {
          name: 'sandbox tunnel through the dashboard',
          open: (port) =>
            openSocket(`${dashboardWs}${door}/api/port-forward?port=${port}`, keyHeader),
        },
      ],
      pids,
    );
  }
  if (only === undefined || only === 'mcp') {
    await measureMcp(
      `${dashboard}/api/workspaces/${WS}/agents/${AGENT}/mcp`,
      key,
      `http://${formatAddress(mcp)}/mcp`,
    );
  }
  if (only === undefined || only === 'terminal') {
    await measureTerminal(
      `${dashboardWs}${door}/api/exec`,
      keyHeader,
      `ws://${formatAddress(api)}/api/exec`,
      () => proofHeaders(platform),
    );
  }
} finally {
  await platform.stop();
}
