// The sandbox's MCP server under load, beside the MCP SDK's reference server in the same run:
// tools/call Read of a 4 KiB file (the reference: its echo tool) with 1 and 50 sessions over
// HTTP+SSE and Streamable HTTP; the Grep tool against ripgrep run directly on a 20,000-file tree;
// the sandbox's peak RSS. Beside calls/s it prints the CPU time per call of each server and of the
// load generator: on a machine with few cores they share the cores, and CPU per call is the figure
// that other work on the machine does not move. A third server, the official SDK alone with the
// same Read and nothing of Paddock (fixtures/mcp-sdk-floor.ts), runs in every round too: what the
// sandbox costs beyond it is Paddock's own work per call, which the ratio alone does not show.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { SANDBOX_NODE_FLAGS } from '@paddock/common';
import { freePort, SANDBOX_BIN, start, tempDir } from '@paddock/testing';
import { peakRssMiB, startServer } from './lib/processes.js';
import { median, printTable } from './lib/table.js';

const RUNS = 5;
const SECONDS = 3;
const GREP_RUNS = 5;
const root = join(import.meta.dirname, '..');
const referenceBin = join(
  root,
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
);
const loadScript = join(import.meta.dirname, 'fixtures', 'mcp-load.ts');
const floorScript = join(import.meta.dirname, 'fixtures', 'mcp-sdk-floor.ts');
const run = promisify(execFile);

interface Load {
  calls: number;
  callsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  /** CPU the load generator and the server under load used over the measured window. */
  loadCpuSeconds: number;
  serverCpuSeconds: number;
}

/** One closed-loop run against the server `pid` listens for at `url`. */
async function load(
  url: string,
  kind: string,
  sessions: number,
  tool: string,
  args: object,
  pid: number,
): Promise<Load> {
  const { stdout } = await run(
    process.execPath,
    [
      '--conditions=paddock-source',
      '--import',
      'tsx',
      loadScript,
      url,
      kind,
      String(sessions),
      String(SECONDS),
      tool,
      JSON.stringify(args),
      String(pid),
    ],
    { cwd: root, maxBuffer: 1 << 20 },
  );
  return JSON.parse(stdout) as Load;
}

/** Microseconds of CPU per call, of the server and of the load generator, over runs. */
const cpuPerCall = (runs: readonly Load[], of: 'serverCpuSeconds' | 'loadCpuSeconds') =>
  Math.round(median(runs.map((r) => (r[of] / r.calls) * 1e6)));

interface Target {
  url: string;
  pid: number;
  tool: string;
  args: object;
}

const loadOn = (target: Target, kind: string, sessions: number) =>
  load(target.url, kind, sessions, target.tool, target.args, target.pid);

/**
 * RUNS rounds of runs, ours, the SDK floor's, then the reference's, so that drift in the machine's
 * load over the minutes this takes does not favour one; each ratio is the median of the rounds'.
 */
async function compare(
  kind: string,
  sessions: number,
  ours: Target,
  floor: Target,
  theirs: Target,
) {
  const runs: { ours: Load; floor: Load; theirs: Load }[] = [];
  for (let i = 0; i < RUNS; i++) {
    const a = await loadOn(ours, kind, sessions);
    const f = await loadOn(floor, kind, sessions);
    const b = await loadOn(theirs, kind, sessions);
    runs.push({ ours: a, floor: f, theirs: b });
  }
  const mine = runs.map((r) => r.ours);
  const ref = runs.map((r) => r.theirs);
  const floors = runs.map((r) => r.floor);
  return {
    'paddock Read calls/s': Math.round(median(mine.map((r) => r.callsPerSecond))),
    'p50 ms': median(mine.map((r) => r.p50Ms)),
    'p99 ms': median(mine.map((r) => r.p99Ms)),
    'server µs/call': cpuPerCall(mine, 'serverCpuSeconds'),
    'reference echo calls/s': Math.round(median(ref.map((r) => r.callsPerSecond))),
    'ref p50 ms': median(ref.map((r) => r.p50Ms)),
    'ref p99 ms': median(ref.map((r) => r.p99Ms)),
    'ref server µs/call': cpuPerCall(ref, 'serverCpuSeconds'),
    ratio: median(runs.map((r) => r.ours.callsPerSecond / r.theirs.callsPerSecond)).toFixed(2),
    'CPU ratio': median(
      runs.map(
        (r) =>
          r.theirs.serverCpuSeconds / r.theirs.calls / (r.ours.serverCpuSeconds / r.ours.calls),
      ),
    ).toFixed(2),
    'load µs/call': `${cpuPerCall(mine, 'loadCpuSeconds')} / ${cpuPerCall(ref, 'loadCpuSeconds')}`,
    'SDK floor calls/s': Math.round(median(floors.map((r) => r.callsPerSecond))),
    'floor µs/call': cpuPerCall(floors, 'serverCpuSeconds'),
    'floor ratio': median(
      runs.map((r) => r.floor.callsPerSecond / r.theirs.callsPerSecond),
    ).toFixed(2),
    errors: [...mine, ...floors, ...ref].reduce((n, r) => n + r.errors, 0),
  };
}

const workspace = await tempDir('paddock-bench-ws-');
await writeFile(
  join(workspace.path, 'four-k.txt'),
  Array.from({ length: 64 }, (_, i) => `line ${String(i).padStart(3, '0')} ${'x'.repeat(54)}`).join(
    '\n',
  ),
);

/**
 * Node.js flags to try beside the pod's (BENCH_SANDBOX_NODE_FLAGS, space-separated), so that a
 * candidate flag is measured in the same benchmark before the pods take it.
 */
const extraFlags = (process.env.BENCH_SANDBOX_NODE_FLAGS ?? '').split(' ').filter(Boolean);
if (extraFlags.length > 0)
  console.log(`sandbox node flags: ${[...SANDBOX_NODE_FLAGS, ...extraFlags].join(' ')}`);
const sandbox = await startServer(
  process.execPath,
  // As a pod runs it: with the sandbox's node flags.
  [
    ...SANDBOX_NODE_FLAGS,
    ...extraFlags,
    SANDBOX_BIN,
    '-addr',
    '127.0.0.1:0',
    '-workspace',
    workspace.path,
  ],
  /"addr":"127\.0\.0\.1:(\d+)"/,
);
const rows = [];
let floor: Awaited<ReturnType<typeof startServer>> | undefined;
try {
  floor = await startServer(
    process.execPath,
    // With the sandbox's node flags, so that only the code differs.
    [
      ...SANDBOX_NODE_FLAGS,
      '--conditions=paddock-source',
      '--import',
      'tsx',
      floorScript,
      workspace.path,
    ],
    /"addr":"127\.0\.0\.1:(\d+)"/,
  );
  for (const kind of ['sse', 'streamable'] as const) {
    const refPort = await freePort();
    const reference = start(
      process.execPath,
      [referenceBin, kind === 'sse' ? 'sse' : 'streamableHttp'],
      {
        env: { ...process.env, PORT: String(refPort) },
      },
    );
    await reference.waitForOutput(/port/i, 30_000);
    try {
      for (const sessions of [1, 50]) {
        const path = kind === 'sse' ? '/sse' : '/mcp';
        // The sandbox and the SDK floor answer the same Read of the same file.
        const read = (port: number, pid: number): Target => ({
          url: `http://127.0.0.1:${port}${path}`,
          pid,
          tool: 'Read',
          args: { file_path: 'four-k.txt' },
        });
        rows.push({
          transport: kind === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP',
          sessions,
          ...(await compare(
            kind,
            sessions,
            read(sandbox.port, sandbox.child.pid!),
            read(floor.port, floor.child.pid!),
            {
              url: `http://127.0.0.1:${refPort}${path}`,
              pid: reference.child.pid!,
              tool: 'echo',
              args: { message: 'hello' },
            },
          )),
        });
      }
    } finally {
      await reference.stop();
    }
  }
  printTable(
    `MCP tools/call, median of ${RUNS} runs of ${SECONDS} s, ours, the SDK floor and the ` +
      'reference in turn (reference: @modelcontextprotocol/server-everything; SDK floor: the ' +
      "official SDK alone with the same Read, nothing of Paddock's; µs/call: CPU time per call " +
      'over the measured window; load: the load generator, ours / the reference)',
    rows,
  );
  console.log(
    `sandbox peak RSS over the load runs: ${peakRssMiB(sandbox.child.pid!).toFixed(0)} MiB`,
  );

  // Grep against ripgrep on the same tree.
  const tree = join(tmpdir(), 'paddock-bench-grep-tree');
  await generateTree(tree);
  const grepSandbox = await startServer(
    process.execPath,
    [SANDBOX_BIN, '-addr', '127.0.0.1:0', '-workspace', tree],
    /"addr":"127\.0\.0\.1:(\d+)"/,
  );
  try {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(
      new SSEClientTransport(new URL(`http://127.0.0.1:${grepSandbox.port}/sse`)),
    );
    const grepRows = [];
    for (const mode of ['content', 'files_with_matches'] as const) {
      const rgArgs =
        mode === 'content'
          ? ['-n', '--no-heading', '--color', 'never', 'needle_[0-9]+']
          : ['-l', 'needle_[0-9]+'];
      await run('rg', [...rgArgs, '.'], { cwd: tree, maxBuffer: 64 << 20 }); // warm the page cache
      const direct: number[] = [];
      const viaMcp: number[] = [];
      let lines = 0;
      for (let i = 0; i < GREP_RUNS; i++) {
        let t = performance.now();
        const { stdout } = await run('rg', [...rgArgs, '.'], { cwd: tree, maxBuffer: 64 << 20 });
        direct.push(performance.now() - t);
        lines = stdout.split('\n').length - 1;
        t = performance.now();
        const result = await client.callTool({
          name: 'Grep',
          arguments: { pattern: 'needle_[0-9]+', output_mode: mode },
        });
        viaMcp.push(performance.now() - t);
        if (result.isError) throw new Error(JSON.stringify(result.content));
      }
      grepRows.push({
        mode,
        'result lines': lines,
        'rg direct ms': median(direct),
        'Grep via MCP ms': median(viaMcp),
        ratio: (median(viaMcp) / median(direct)).toFixed(2),
      });
    }
    await client.close();
    printTable(
      `Grep over 20,000 files (~200 MB), median of ${GREP_RUNS} runs, warm page cache`,
      grepRows,
    );
  } finally {
    await grepSandbox.stop();
  }
} finally {
  await floor?.stop();
  await sandbox.stop();
  await workspace.remove();
}

/** 20,000 files of ~10 KB in 200 folders; one file in 50 holds a needle. Made once and reused. */
async function generateTree(dir: string): Promise<void> {
  const marker = join(dir, '.complete');
  if (existsSync(marker)) return;
  const words = [
    'alpha',
    'bravo',
    'charlie',
    'delta',
    'echo',
    'foxtrot',
    'golf',
    'hotel',
    'india',
    'juliet',
  ];
  let seed = 42;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let d = 0; d < 200; d++) {
    const folder = join(dir, `pkg${d}`, 'src');
    await mkdir(folder, { recursive: true });
    for (let f = 0; f < 100; f++) {
      const index = d * 100 + f;
      const lines: string[] = [];
      for (let l = 0; l < 160; l++) {
        lines.push(
          Array.from({ length: 10 }, () => words[Math.floor(random() * words.length)]).join(' '),
        );
      }
      if (index % 50 === 0) lines[80] = `const found = "needle_${index}";`;
      await writeFile(join(folder, `file${f}.ts`), `${lines.join('\n')}\n`);
    }
  }
  await writeFile(marker, '');
}
