// What one more agent costs: the whole local platform (`paddock up`: the embedded cluster, the
// operator, the node, the door, the dashboard, and each agent pod's sandbox and agent processes)
// with N = 1, 10 and 50 agent pods, idle. Each agent names a model provider, so its pods run both
// containers, as agents do; the model (a scripted server) is never called while they idle.
// Printed: the platform's total resident memory at each N (the sum of every process's VmRSS, so
// shared pages count once per process, as a container's memory does), the increment per agent,
// and the average sandbox and agent process.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  API_VERSION,
  CORE_KINDS,
  KINDS,
  Kube,
  type AgentRuntime,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import { freePort, start, startScriptedOpenAI, tempDir } from '@paddock/testing';
import { memoryMiB } from './lib/operator-metrics.js';
import { printTable, type Row } from './lib/table.js';

const STEPS = [1, 10, 50] as const;
const LAST = STEPS[STEPS.length - 1] as number;
const NAMESPACE = 'bench-cost';
const POLL_MS = 500;
/** After the pods are Ready, how long memory must stay within SETTLED_MIB to be read as idle. */
const SETTLE_MS = 5_000;
const SETTLED_MIB = 8;
const READY_TIMEOUT_MS = 10 * 60_000;
/** How often the wait for pods says how far it is. */
const PROGRESS_MS = 30_000;
const root = join(import.meta.dirname, '..');
const paddockBin = join(root, 'packages', 'platform', 'bin', 'paddock.js');
const kind = (name: string) => KINDS.find((k) => k.kind === name)!;

interface Proc {
  pid: number;
  command: string;
}

/** Every process under `pid` (children, grandchildren, …), with its command line. */
function descendants(pid: number): Proc[] {
  const out = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const rows = out
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), command: m[3]! }));
  const found: Proc[] = [];
  const walk = (parent: number) => {
    for (const row of rows.filter((r) => r.ppid === parent)) {
      found.push({ pid: row.pid, command: row.command });
      walk(row.pid);
    }
  };
  walk(pid);
  return found;
}

/** VmRSS in MiB, 0 for a process that ended meanwhile. */
function rss(pid: number): number {
  try {
    return memoryMiB(pid).rss;
  } catch {
    return 0;
  }
}

interface Reading {
  total: number;
  sandboxes: number[];
  agents: number[];
}

function read(platformPid: number): Reading {
  const procs = [{ pid: platformPid, command: 'paddock up' }, ...descendants(platformPid)];
  const of = (word: string) => procs.filter((p) => p.command.includes(word)).map((p) => rss(p.pid));
  return {
    total: procs.reduce((sum, p) => sum + rss(p.pid), 0),
    sandboxes: of('paddock-sandbox.js'),
    agents: of('paddock-agent.js'),
  };
}

/** The reading once memory has stopped moving (idle), or the last one after a minute. */
async function settled(platformPid: number): Promise<Reading> {
  let last = read(platformPid);
  let since = Date.now();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    await sleep(POLL_MS);
    const now = read(platformPid);
    if (Math.abs(now.total - last.total) > SETTLED_MIB) since = Date.now();
    last = now;
    if (Date.now() - since >= SETTLE_MS) break;
  }
  return last;
}

interface AgentPod extends KubeObject {
  status?: {
    conditions?: { type: string; status: string }[];
    containerStatuses?: {
      name: string;
      ready: boolean;
      restartCount: number;
      state?: Record<string, { reason?: string }>;
      lastState?: Record<string, { reason?: string; exitCode?: number }>;
    }[];
  };
}

const isReady = (p: AgentPod) =>
  p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** One line per pod that is not Ready: each container's state, restarts and last end. */
function podSummary(p: AgentPod): string {
  const containers = (p.status?.containerStatuses ?? []).map((c) => {
    const [state, detail] = Object.entries(c.state ?? {})[0] ?? ['?', {}];
    const [last, lastDetail] = Object.entries(c.lastState ?? {})[0] ?? ['', {}];
    const ended = last === '' ? '' : `, last ${last} ${lastDetail.reason ?? ''}`;
    return `${c.name}: ${state} ${detail.reason ?? ''} ready=${c.ready} restarts=${c.restartCount}${ended}`;
  });
  return `${p.metadata?.name ?? '?'}: ${containers.join('; ')}`;
}

const secondsSince = (t: number) => ((Date.now() - t) / 1000).toFixed(0);

const average = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
const mib = (n: number) => `${n.toFixed(0)} MiB`;

const dir = await tempDir('paddock-bench-cost-');
const model = await startScriptedOpenAI([]);
const sandboxPort = await freePort(2);
const clusterPort = await freePort(2);
const dashboardPort = await freePort();
const platform = start(
  process.execPath,
  [
    paddockBin,
    'up',
    '--data',
    join(dir.path, 'data'),
    '--sandbox-port',
    String(sandboxPort),
    '--dashboard-port',
    String(dashboardPort),
    '--cluster-port',
    String(clusterPort),
  ],
  {
    env: {
      ...process.env,
      KUBECONFIG: '',
      SVC_LOG_LEVEL: 'warn',
      PADDOCK_MODEL_BASE_URL: model.baseURL,
      PADDOCK_MODEL: 'bench-model',
    },
  },
);
try {
  await platform.waitForOutput(/Paddock is running/, 120_000);
  const kube = Kube.connect({ kubeconfig: join(dir.path, 'data', 'cluster', 'kubeconfig') });
  try {
    const pods = kube.resource<AgentPod>(CORE_KINDS.pod);
    const events = kube.resource<KubeObject & { reason?: string; message?: string }>(
      CORE_KINDS.event,
    );
    const agentPods = async () =>
      (await pods.listAll({ labelSelector: 'app.kubernetes.io/name=paddock-agent' })).items;
    const waitForPods = async (n: number) => {
      const started = Date.now();
      let lastProgress = started;
      for (;;) {
        const all = await agentPods();
        const ready = all.filter(isReady).length;
        if (ready >= n) return;
        if (Date.now() - lastProgress >= PROGRESS_MS) {
          lastProgress = Date.now();
          console.error(`${ready} of ${n} agent pods Ready after ${secondsSince(started)} s`);
        }
        if (Date.now() - started > READY_TIMEOUT_MS) {
          const byReason = new Map<string, number>();
          for (const e of (await events.listAll({ namespace: NAMESPACE })).items) {
            byReason.set(e.reason ?? '?', (byReason.get(e.reason ?? '?') ?? 0) + 1);
          }
          console.error(`events in ${NAMESPACE}:`, Object.fromEntries(byReason));
          for (const p of all.filter((p) => !isReady(p))) console.error(podSummary(p));
          throw new Error(`fewer than ${n} agent pods Ready after ${secondsSince(started)} s`);
        }
        await sleep(POLL_MS);
      }
    };

    // The sample agent is the first; the others live in a workspace of their own, without quotas.
    await kube.resource<Workspace>(kind('Workspace')).create({
      apiVersion: API_VERSION,
      kind: 'Workspace',
      metadata: { name: NAMESPACE },
      spec: { displayName: 'Bench cost', namespace: { name: NAMESPACE, create: true } },
    });
    for (;;) {
      const ws = await kube.resource<Workspace>(kind('Workspace')).get(NAMESPACE);
      if (ws.status?.phase === 'Ready') break;
      await sleep(POLL_MS);
    }
    await kube.resource<KubeObject>(kind('PromptPack')).create({
      apiVersion: API_VERSION,
      kind: 'PromptPack',
      metadata: { name: 'prompts', namespace: NAMESPACE },
      spec: { systemPrompt: 'Be brief.' },
    } as KubeObject);
    const agents = kube.resource<AgentRuntime>(kind('AgentRuntime'));
    let made = 1;
    const readings = new Map<number, Reading>();
    for (const n of STEPS) {
      for (; made < n; made++) {
        await agents.create({
          apiVersion: API_VERSION,
          kind: 'AgentRuntime',
          metadata: { name: `agent-${made}`, namespace: NAMESPACE },
          spec: {
            promptPackRef: { name: 'prompts' },
            replicas: 1,
            model: 'bench-model',
            provider: { type: 'openai', baseURL: model.baseURL },
          },
        });
      }
      await waitForPods(n);
      readings.set(n, await settled(platform.child.pid!));
    }

    const first = readings.get(STEPS[0])!;
    const rows: Row[] = STEPS.map((n) => {
      const r = readings.get(n)!;
      const perAgent =
        n === STEPS[0] ? '' : `, +${mib((r.total - first.total) / (n - STEPS[0]))} per agent`;
      return {
        what: `${n} agent pod${n === 1 ? '' : 's'}: the platform's RSS`,
        figure: mib(r.total),
        detail: `sandbox ${mib(average(r.sandboxes))} each (${r.sandboxes.length}), agent ${mib(average(r.agents))} each (${r.agents.length})${perAgent}`,
      };
    });
    const last = readings.get(LAST)!;
    rows.push({
      what: `one more agent (from ${STEPS[0]} to ${LAST})`,
      figure: mib((last.total - first.total) / (LAST - STEPS[0])),
      detail: 'the increment of the total per agent pod, sandbox and agent containers',
    });
    printTable('Cost per agent: the local platform, idle, with N agent pods', rows);
  } finally {
    kube.close();
  }
} finally {
  await platform.stop('SIGINT', 120_000);
  await model.close();
  await dir.remove();
}
