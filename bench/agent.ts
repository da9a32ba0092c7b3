// The agent loop's own overhead. A scripted model answers each request at once with one Read of a
// small file, 1,000 turns in one run. Measured:
// - tool calls per second through paddock-agent (model round trip, tool call over MCP, transcript
//   written and streamed), against straight MCP calls of the same tool on the same sandbox;
// - the median time per turn, and what it adds to a straight call;
// - the agent's resident memory along the run (is it flat?), and at rest after the runs, once V8's
//   memory reducer (which starts 8 s after activity ends) has shrunk the heap; with the anonymous
//   part (RssAnon: heap and malloc, not the binary's pages). BENCH_AGENT_NODE_OPTIONS is given to
//   the agent (e.g. --max-old-space-size=96, to tell what the collector leaves from what is kept);
//   its command line carries the agent container's AGENT_NODE_FLAGS, or BENCH_AGENT_NODE_FLAGS
//   when set (for the V8 flags NODE_OPTIONS refuses, e.g. --optimize-for-size; an empty value runs
//   it without).
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AGENT_NODE_FLAGS } from '@paddock/common';
import {
  API_VERSION,
  CORE_KINDS,
  installCrds,
  KINDS,
  type AgentRuntime,
  type KubeObject,
  type PromptPack,
} from '@paddock/kube';
import {
  start,
  startEmbeddedCluster,
  startSandbox,
  startScriptedOpenAI,
  tempDir,
  type ScriptedTurn,
} from '@paddock/testing';
import { median, printTable } from './lib/table.js';

/** Tool-calling turns; with the final answer, 1,000 model calls (the most runLimits.maxTurns allows). */
const TURNS = 999;
const STRAIGHT_CALLS = 1_000;
const NAMESPACE = 'bench-agent';
const AGENT_BIN = join(import.meta.dirname, '..', 'packages', 'agent', 'bin', 'paddock-agent.js');
const nodeFlags = process.env['BENCH_AGENT_NODE_FLAGS']?.split(/\s+/).filter(Boolean) ?? [
  ...AGENT_NODE_FLAGS,
];

/** How long the agent idles, after start and after the runs, before its memory is read. */
const REST_MS = 15_000;

/** Resident memory now (VmRSS), in MiB. */
function rssMiB(pid: number): number {
  return memoryMiB(pid).rss;
}

/** Resident memory now, in MiB: all of it (VmRSS) and its anonymous part (RssAnon). */
function memoryMiB(pid: number): { rss: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) / 1024;
  return { rss: field('VmRSS'), anon: field('RssAnon') };
}

const workspace = await tempDir('paddock-bench-agent-ws-');
const data = await tempDir('paddock-bench-agent-data-');
// Small, so that the conversation the model is sent stays far below its body limit at 1,000 turns.
await writeFile(join(workspace.path, 'notes.txt'), 'a line of notes\n'.repeat(8));
const sandbox = await startSandbox(workspace.path);
const mcpUrl = `${sandbox.base}/mcp`;
const cluster = await startEmbeddedCluster();
/** One run of `n` tool-calling turns and a final answer, as the scripted model plays it. */
const runOf = (n: number): ScriptedTurn[] => [
  ...Array.from({ length: n }, () => ({
    toolCalls: [{ name: 'Read', arguments: { file_path: 'notes.txt' } }],
    usage: { input: 10, output: 5 },
  })),
  { text: 'Done reading.', usage: { input: 10, output: 5 } },
];
/** Then short runs one after the other: what stays behind once a run is over. */
const SHORT_RUNS = 10;
const SHORT_TURNS = 100;
const turns: ScriptedTurn[] = [
  ...runOf(TURNS),
  ...Array.from({ length: SHORT_RUNS }, () => runOf(SHORT_TURNS)).flat(),
];
const model = await startScriptedOpenAI(turns);

try {
  // Straight MCP calls, one at a time, as the agent makes them.
  const client = new Client({ name: 'bench', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl));
  await client.connect(transport);
  const straight: number[] = [];
  const straightStart = performance.now();
  for (let i = 0; i < STRAIGHT_CALLS; i++) {
    const t0 = performance.now();
    await client.callTool({ name: 'Read', arguments: { file_path: 'notes.txt' } });
    straight.push(performance.now() - t0);
  }
  const straightSeconds = (performance.now() - straightStart) / 1000;
  await transport.terminateSession();
  await client.close();

  await installCrds(cluster.kube);
  await cluster.kube
    .resource<KubeObject>(CORE_KINDS.namespace)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await cluster.kube.resource<PromptPack>(KINDS.find((k) => k.kind === 'PromptPack')!).create({
    apiVersion: API_VERSION,
    kind: 'PromptPack',
    metadata: { name: 'pack', namespace: NAMESPACE },
    spec: { systemPrompt: 'Read the notes.' },
  });
  await cluster.kube.resource<AgentRuntime>(KINDS.find((k) => k.kind === 'AgentRuntime')!).create({
    apiVersion: API_VERSION,
    kind: 'AgentRuntime',
    metadata: { name: 'bench', namespace: NAMESPACE },
    spec: {
      promptPackRef: { name: 'pack' },
      model: 'gpt-4.1-mini',
      runLimits: { maxTurns: TURNS + 1, maxTokens: 10_000_000, maxWallTime: '1h' },
    },
  });
  const agent = start(
    process.execPath,
    [
      ...nodeFlags,
      AGENT_BIN,
      '--listen',
      '127.0.0.1:0',
      '--kubeconfig',
      cluster.kubeconfig,
      '--dev',
    ],
    {
      env: {
        PATH: process.env['PATH'],
        SVC_LOG_FORMAT: 'json',
        SVC_AGENT_NAME: 'bench',
        SVC_AGENT_NAMESPACE: NAMESPACE,
        SVC_AGENT_PROVIDER_BASE_URL: model.baseURL,
        SVC_AGENT_SANDBOX_MCP_URL: mcpUrl,
        SVC_AGENT_DATA_DIR: data.path,
        NODE_OPTIONS: process.env['BENCH_AGENT_NODE_OPTIONS'] ?? '',
      },
    },
  );
  const [, port] = await agent.waitForOutput(/"addr":"127\.0\.0\.1:(\d+)"/, 30_000);
  const base = `http://127.0.0.1:${port}`;
  const pid = agent.child.pid!;
  const atStart = memoryMiB(pid);
  // Idle as a pod that waits for its first run: once V8 has settled its start-up heap.
  await sleep(REST_MS);
  const idle = memoryMiB(pid);

  /** Plays one run to its end; the time each tool result arrived, and the outcome's frame. */
  async function play(task: string, onResult: (count: number) => void) {
    const started = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ task }),
    });
    const { run } = (await started.json()) as { run: { id: string } };
    const times: number[] = [];
    let outcome = '';
    const events = await fetch(`${base}/api/runs/${run.id}/events`);
    const decoder = new TextDecoder();
    let buffered = '';
    for await (const chunk of events.body!) {
      buffered += decoder.decode(chunk as Uint8Array, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const frame = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (frame.includes('event: tool_result')) {
          times.push(performance.now());
          onResult(times.length);
        } else if (frame.includes('event: outcome')) {
          outcome = /"status":"(\w+)"/.exec(frame)?.[1] ?? '';
        }
      }
    }
    return { times, outcome };
  }

  const rssAt = new Map<number, number>();
  const runStart = performance.now();
  const { times: results, outcome } = await play('Read notes.txt many times.', (count) => {
    if ([100, 250, 500, 750, 999].includes(count)) rssAt.set(count, rssMiB(pid));
  });
  const runSeconds = (performance.now() - runStart) / 1000;
  const perTurn = results.slice(1).map((t, i) => t - results[i]!);
  const afterRuns: number[] = [];
  const outcomes: string[] = [];
  for (let i = 0; i < SHORT_RUNS; i++) {
    const short = await play(`Read notes.txt, run ${i + 1}.`, () => undefined);
    outcomes.push(short.outcome);
    afterRuns.push(rssMiB(pid));
  }
  await sleep(REST_MS);
  const atRest = memoryMiB(pid);
  await agent.stop();

  const straightP50 = median(straight);
  const turnP50 = median(perTurn);
  printTable(
    'paddock-agent: one run of 1,000 tool-calling turns against a model that answers at once',
    [
      {
        path: 'straight MCP calls (Read)',
        'calls/s': STRAIGHT_CALLS / straightSeconds,
        'p50 ms': straightP50,
      },
      {
        path: 'through the agent (turn: model + Read)',
        'calls/s': results.length / runSeconds,
        'p50 ms': turnP50,
      },
      { path: 'overhead per turn', 'calls/s': '', 'p50 ms': turnP50 - straightP50 },
    ],
  );
  printTable('paddock-agent resident memory (MiB) along the long run, then after each short run', [
    { at: 'started', rss: atStart.rss, anon: atStart.anon },
    { at: `idle, ${REST_MS / 1000} s after start, before any run`, rss: idle.rss, anon: idle.anon },
    ...[...rssAt].map(([n, rss]) => ({ at: `after ${n} turns`, rss })),
    ...afterRuns.map((rss, i) => ({ at: `after short run ${i + 1} (${SHORT_TURNS} turns)`, rss })),
    { at: `at rest, ${REST_MS / 1000} s after the last run`, rss: atRest.rss, anon: atRest.anon },
  ]);
  console.log(
    `\noutcomes: long run ${outcome} with ${results.length} tool results; short runs ${outcomes.join(', ')}`,
  );
} finally {
  await sandbox.stop();
  await model.close();
  await cluster.stop();
  await workspace.remove();
  await data.remove();
}
