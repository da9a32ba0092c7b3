// The sandbox under a folder-rename loop in its workspace (a real bash loop, `mv a b; mv b a`):
// /healthz latency and the sandbox's CPU while nobody listens to /api/events and while a client
// does, beside the same figures with no loop (the baseline), measured in the same run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeRenameTree, startRenameLoop, tempDir } from '@paddock/testing';
import { startBenchApiSandbox } from './lib/sandbox.js';
import { median, percentile, printTable } from './lib/table.js';

const RUNS = 3;
const PROBES = 300;
const FOLDERS = 200;
const FILES_PER_FOLDER = 5;
const LOOP_MAX_SECONDS = 120;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

async function probe(base: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < PROBES; i++) {
    const started = performance.now();
    const res = await fetch(`${base}/healthz`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`/healthz answered ${res.status}`);
    times.push(performance.now() - started);
  }
  return times;
}

const dir = await tempDir('paddock-bench-churn-');
const workspace = join(dir.path, 'ws');
await makeRenameTree(workspace, FOLDERS, FILES_PER_FOLDER);
const sandbox = await startBenchApiSandbox(workspace, ['-enable-api'], {
  SVC_API_WATCH_LINGER_SECONDS: '0',
});
const { apiPort } = sandbox;
const base = `http://127.0.0.1:${sandbox.port}`;
const pid = sandbox.child.pid!;

async function scenario(loop: boolean, subscriber: boolean) {
  const p50: number[] = [];
  const p99: number[] = [];
  const max: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const controller = new AbortController();
    if (subscriber) {
      const res = await fetch(`http://127.0.0.1:${apiPort}/api/events`, {
        signal: controller.signal,
      });
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      // Read until `ready` (the watcher is up), then keep reading in the background.
      let text = '';
      while (!text.includes('event: ready'))
        text += new TextDecoder().decode((await reader.read()).value);
      void (async () => {
        try {
          while (!(await reader.read()).done);
        } catch {
          // aborted
        }
      })();
    }
    const renameLoop = loop
      ? await startRenameLoop(workspace, { maxSeconds: LOOP_MAX_SECONDS })
      : undefined;
    const ticks = cpuTicks(pid);
    const started = performance.now();
    const times = await probe(base);
    const seconds = (performance.now() - started) / 1000;
    cpu.push(((cpuTicks(pid) - ticks) / TICKS_PER_SECOND / seconds) * 100);
    await renameLoop?.finish();
    controller.abort();
    p50.push(percentile(times, 0.5));
    p99.push(percentile(times, 0.99));
    max.push(Math.max(...times));
  }
  return { p50: median(p50), p99: median(p99), max: median(max), cpu: median(cpu) };
}

try {
  const baseline = await scenario(false, false);
  const rows = [];
  for (const [name, loop, subscriber] of [
    ['no loop (baseline)', false, false],
    ['rename loop, nobody listening', true, false],
    ['rename loop, one /api/events client', true, true],
  ] as const) {
    const r = name.startsWith('no loop') ? baseline : await scenario(loop, subscriber);
    rows.push({
      scenario: name,
      'healthz p50 ms': r.p50,
      'healthz p99 ms': r.p99,
      'healthz max ms': r.max,
      'p99 / baseline': r.p99 / baseline.p99,
      'sandbox CPU %': r.cpu,
    });
  }
  printTable(
    `/healthz during a folder-rename loop (${FOLDERS} folders, ${FOLDERS * FILES_PER_FOLDER} files; ${PROBES} probes, median of ${RUNS} runs)`,
    rows,
  );
} finally {
  await sandbox.stop();
  await dir.remove();
}
