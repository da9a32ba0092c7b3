// The sandbox's human-facing API under load, each beside a baseline measured in the same run:
// the zip download of a 1 GB workspace against `zip -r -q` on the same tree (with the server's
// peak RSS); single-stream throughput through the port-forward tunnel against a direct loopback
// TCP transfer; scp of a 500 MB file through the SSH tunnel (paddock-forward as ProxyCommand).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, connect as tcpConnect, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { tempDir } from '@paddock/testing';
import { peakRssMiB } from './lib/processes.js';
import { startBenchApiSandbox } from './lib/sandbox.js';
import { median, printTable } from './lib/table.js';
import { sendUpTunnel } from './lib/tunnel-upload.js';

const run = promisify(execFile);
const RUNS = 3;
const root = join(import.meta.dirname, '..');
const forwardBin = join(root, 'packages', 'forward', 'bin', 'paddock-forward.js');
const MiB = 1024 * 1024;
const identity = { 'x-forwarded-sub': 'bench' };

/** 1 GiB in 64 folders of 16 files of 1 MiB: text that compresses like source code, made once. */
async function generateWorkspace(dir: string): Promise<void> {
  if (existsSync(join(dir, '.complete'))) return;
  const words = [
    'const',
    'value',
    'return',
    'function',
    'import',
    'export',
    'await',
    'if',
    'else',
    'for',
  ];
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines: string[] = [];
  for (let i = 0; i < 40_000; i++) {
    lines.push(
      Array.from({ length: 4 }, () => words[Math.floor(random() * words.length)]).join(' ') +
        ` ${i};`,
    );
  }
  const text = lines.join('\n');
  const block = Buffer.from(text.repeat(Math.ceil(MiB / text.length))).subarray(0, MiB);
  for (let d = 0; d < 64; d++) {
    await mkdir(join(dir, `module${d}`), { recursive: true });
    for (let f = 0; f < 16; f++) {
      const offset = (d * 16 + f) % 1000;
      await writeFile(
        join(dir, `module${d}`, `part${f}.txt`),
        Buffer.concat([Buffer.from(`${offset}\n`), block.subarray(offset)]),
      );
    }
  }
  await writeFile(join(dir, '.complete'), '');
}

async function measureDownload(workspace: string) {
  const rows = [];
  const downloads: number[] = [];
  const rss: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const sandbox = await startBenchApiSandbox(workspace, ['-enable-api']);
    try {
      const started = performance.now();
      const res = await fetch(`http://127.0.0.1:${sandbox.apiPort}/api/download`, {
        headers: identity,
      });
      bytes = 0;
      for await (const chunk of res.body!) bytes += (chunk as Uint8Array).length;
      downloads.push(performance.now() - started);
      rss.push(peakRssMiB(sandbox.child.pid!));
    } finally {
      await sandbox.stop();
    }
  }
  const zips: number[] = [];
  const out = join(tmpdir(), 'paddock-bench-zip.zip');
  for (let i = 0; i < RUNS; i++) {
    await rm(out, { force: true });
    const started = performance.now();
    await run('zip', ['-r', '-q', out, '.', '-x', '.complete'], { cwd: workspace });
    zips.push(performance.now() - started);
  }
  await rm(out, { force: true });
  const input = 1024 * MiB;
  rows.push({
    what: 'GET /api/download (yazl, deflate level 6)',
    'MB/s of workspace': (input / MiB / (median(downloads) / 1000)).toFixed(0),
    seconds: (median(downloads) / 1000).toFixed(2),
    'zip MB': (bytes / MiB).toFixed(0),
    'server peak RSS MiB': median(rss).toFixed(0),
  });
  rows.push({
    what: 'zip -r -q (baseline, level 6)',
    'MB/s of workspace': (input / MiB / (median(zips) / 1000)).toFixed(0),
    seconds: (median(zips) / 1000).toFixed(2),
  });
  printTable(
    `Download of a 1 GiB workspace, median of ${RUNS} (ratio download/zip speed: ${(median(zips) / median(downloads)).toFixed(2)})`,
    rows,
  );
}

/** A TCP sink that counts bytes and reports when `total` have arrived. */
async function sink(
  total: number,
): Promise<{ server: Server; port: number; done: () => Promise<void> }> {
  let resolveDone: () => void = () => {};
  let received = 0;
  const server = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received >= total) resolveDone();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    server,
    port,
    done: () => {
      received = 0;
      return new Promise<void>((resolve) => (resolveDone = resolve));
    },
  };
}

const TRANSFER = 1024 * MiB;
const CHUNK = Buffer.alloc(256 * 1024, 7);

async function directTransfer(port: number, done: () => Promise<void>): Promise<number> {
  const finished = done();
  const socket = tcpConnect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  const started = performance.now();
  for (let sent = 0; sent < TRANSFER; sent += CHUNK.length) {
    if (!socket.write(CHUNK)) await new Promise((r) => socket.once('drain', r));
  }
  await finished;
  const ms = performance.now() - started;
  socket.destroy();
  return ms;
}

async function tunnelTransfer(
  apiPort: number,
  port: number,
  done: () => Promise<void>,
): Promise<number> {
  const finished = done();
  const ws = new WebSocket(`ws://127.0.0.1:${apiPort}/api/port-forward?port=${port}`, {
    headers: identity,
  });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const started = performance.now();
  await sendUpTunnel(ws, CHUNK, TRANSFER);
  await finished;
  const ms = performance.now() - started;
  ws.close();
  return ms;
}

async function measureTunnel(workspace: string) {
  const target = await sink(TRANSFER);
  const sandbox = await startBenchApiSandbox(workspace, ['-enable-port-forward']);
  try {
    const direct: number[] = [];
    const tunnel: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      direct.push(await directTransfer(target.port, target.done));
      tunnel.push(await tunnelTransfer(sandbox.apiPort, target.port, target.done));
    }
    const mbps = (ms: number) => TRANSFER / MiB / (ms / 1000);
    printTable(`Single-stream transfer of 1 GiB, median of ${RUNS}`, [
      {
        path: 'direct loopback TCP (baseline)',
        'MB/s': mbps(median(direct)).toFixed(0),
        'throughput ratio tunnel/direct': '1.00',
      },
      {
        path: 'through /api/port-forward',
        'MB/s': mbps(median(tunnel)).toFixed(0),
        // Time of the direct transfer over the tunnel's: the tunnel's share of direct throughput.
        'throughput ratio tunnel/direct': (median(direct) / median(tunnel)).toFixed(2),
      },
    ]);
  } finally {
    await sandbox.stop();
    target.server.close();
  }
}

async function measureScp(workspace: string) {
  const home = await tempDir('paddock-bench-home-');
  const sandbox = await startBenchApiSandbox(workspace, ['-enable-ssh', '-enable-port-forward']);
  try {
    const url = `http://127.0.0.1:${sandbox.apiPort}`;
    await run(
      process.execPath,
      [forwardBin, 'ssh-setup', 'bench', '--url', url, '--header', 'X-Forwarded-Sub: bench'],
      {
        env: { ...process.env, HOME: home.path },
      },
    );
    const file = join(home.path, 'big.bin');
    await run('bash', ['-c', `head -c ${500 * MiB} /dev/urandom > '${file}'`]);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      await new Promise<void>((resolve, reject) => {
        const child = spawn(
          'scp',
          ['-q', '-F', join(home.path, '.ssh', 'config'), file, 'bench:big.bin'],
          {
            env: { ...process.env, HOME: home.path },
            stdio: 'ignore',
          },
        );
        child.on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error(`scp exited ${code}`)),
        );
      });
      times.push(performance.now() - started);
    }
    printTable(
      `scp of a 500 MiB file through paddock-forward --ssh and the port-forward tunnel, median of ${RUNS}`,
      [
        {
          what: 'scp upload',
          'MB/s': (500 / (median(times) / 1000)).toFixed(0),
          seconds: (median(times) / 1000).toFixed(2),
        },
      ],
    );
  } finally {
    await sandbox.stop();
    await home.remove();
    await rm(join(workspace, 'big.bin'), { force: true });
  }
}

// `npm run bench -- sandbox-api [download|tunnel|scp]` runs one part; all three by default.
const only = process.argv[3];
if (only === undefined || only === 'download') {
  const workspace = join(tmpdir(), 'paddock-bench-1g-workspace');
  await generateWorkspace(workspace);
  await measureDownload(workspace);
}
const scratch = await tempDir('paddock-bench-api-');
try {
  if (only === undefined || only === 'tunnel') await measureTunnel(scratch.path);
  if (only === undefined || only === 'scp') await measureScp(scratch.path);
} finally {
  await scratch.remove();
}
