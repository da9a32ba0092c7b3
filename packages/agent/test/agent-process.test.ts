import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
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
  eventually,
  PROOF,
  start,
  startEmbeddedCluster,
  startScriptedOpenAI,
  tempDir,
  TEST_PROXY_SECRET_SHA256,
  type EmbeddedCluster,
  type ScriptedModelServer,
  type ScriptedTurn,
  type Started,
} from '@paddock/testing';
import type { TranscriptEvent } from '../src/transcript.js';
import { startSandbox, type RunningSandbox } from './support/sandbox.js';

/**
 * The paddock-agent command as a pod runs it, against the embedded cluster, a real sandbox and a
 * scripted model: its configuration, its API behind the proof, its runs, its spend into the
 * AgentRuntime's status, the budget's block and a restart in the middle of a run.
 */

const AGENT_BIN = join(import.meta.dirname, '..', 'bin', 'paddock-agent.js');
const NAMESPACE = 'agent-process';
const NAME = 'coder';
const agentKind = KINDS.find((k) => k.kind === 'AgentRuntime')!;
const packKind = KINDS.find((k) => k.kind === 'PromptPack')!;
/** Who the proxy in front says is asking (the static-secret proof takes X-Forwarded-*). */
const ADA = { ...PROOF, 'x-forwarded-sub': 'ada', 'x-forwarded-user': 'ada' };

let cluster: EmbeddedCluster;
let sandbox: RunningSandbox;
let dataDir: { path: string; remove: () => Promise<void> };

interface RunningAgent {
  process: Started;
  base: string;
  model: ScriptedModelServer;
}

async function startAgent(
  model: ScriptedModelServer,
  extra: Record<string, string> = {},
): Promise<RunningAgent> {
  const agent = start(
    process.execPath,
    [AGENT_BIN, '--listen', '127.0.0.1:0', '--kubeconfig', cluster.kubeconfig],
    {
      env: {
        PATH: process.env['PATH'],
        SVC_LOG_FORMAT: 'json',
        SVC_AGENT_NAME: NAME,
        SVC_AGENT_NAMESPACE: NAMESPACE,
        SVC_AGENT_PROVIDER: 'openai',
        SVC_AGENT_PROVIDER_BASE_URL: model.baseURL,
        SVC_AGENT_PROVIDER_API_KEY: 'sk-test-0123456789abcdefghij',
        SVC_AGENT_SANDBOX_MCP_URL: sandbox.mcpUrl.toString(),
        SVC_AGENT_DATA_DIR: dataDir.path,
        SVC_API_PROXY_SECRET_SHA256: TEST_PROXY_SECRET_SHA256,
        ...extra,
      },
    },
  );
  const [, port] = await agent.waitForOutput(/"addr":"127\.0\.0\.1:(\d+)"/, 30_000);
  return { process: agent, base: `http://127.0.0.1:${port}`, model };
}

async function post(agent: RunningAgent, path: string, body: unknown, headers = ADA) {
  const response = await fetch(`${agent.base}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A run's events as server-sent events, up to its outcome. */
async function transcript(agent: RunningAgent, id: string): Promise<TranscriptEvent[]> {
  const response = await fetch(`${agent.base}/api/runs/${id}/events`, { headers: ADA });
  assert.equal(response.status, 200);
  const text = await response.text();
  return text
    .split('\n\n')
    .map((frame) => frame.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)) as TranscriptEvent);
}

const agents = () => cluster.kube.resource<AgentRuntime>(agentKind);

before(async () => {
  cluster = await startEmbeddedCluster();
  await installCrds(cluster.kube);
  await cluster.kube
    .resource<KubeObject>(CORE_KINDS.namespace)
    .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
  await cluster.kube.resource<PromptPack>(packKind).create({
    apiVersion: API_VERSION,
    kind: 'PromptPack',
    metadata: { name: 'pack', namespace: NAMESPACE },
    spec: {
      systemPrompt: 'You are the coder of the process test.',
      prompts: [{ name: 'script', content: 'Write {{file}} and run it.' }],
    },
  });
  await agents().create({
    apiVersion: API_VERSION,
    kind: 'AgentRuntime',
    metadata: { name: NAME, namespace: NAMESPACE },
    spec: {
      promptPackRef: { name: 'pack' },
      model: 'house-model',
      provider: { type: 'openai' },
      pricing: { 'house-model': { input: '2', output: '8' } },
    },
  });
  sandbox = await startSandbox();
  dataDir = await tempDir('paddock-agent-data-');
});

after(async () => {
  await sandbox?.stop();
  await cluster?.stop();
  await dataDir?.remove();
});

describe('paddock-agent', () => {
  it('refuses to start without its AgentRuntime or a proof, saying what to set', async () => {
    const model = await startScriptedOpenAI([]);
    try {
      const missing = start(process.execPath, [AGENT_BIN, '--kubeconfig', cluster.kubeconfig], {
        env: { PATH: process.env['PATH'] },
      });
      assert.equal((await missing.exited).code, 2);
      assert.match(missing.output(), /SVC_AGENT_NAME is required/);
      const unproven = start(process.execPath, [AGENT_BIN, '--kubeconfig', cluster.kubeconfig], {
        env: { PATH: process.env['PATH'], SVC_AGENT_NAME: NAME, SVC_AGENT_NAMESPACE: NAMESPACE },
      });
      assert.equal((await unproven.exited).code, 2);
      assert.match(unproven.output(), /requires the proof of the dashboard/);
    } finally {
      await model.close();
    }
  });

  it('writes a file, runs it, answers; the transcript, the model’s inputs and the spend are right', async () => {
    const turns: ScriptedTurn[] = [
      {
        text: 'Writing the script.',
        toolCalls: [
          {
            name: 'Write',
            arguments: { file_path: 'hello.sh', content: 'echo "hello from the agent"\n' },
          },
        ],
        usage: { input: 100_000, output: 1_000 },
      },
      {
        toolCalls: [{ name: 'Bash', arguments: { command: 'sh hello.sh' } }],
        usage: { input: 120_000, output: 500 },
      },
      { text: 'It printed the greeting.', usage: { input: 130_000, output: 200 } },
    ];
    const agent = await startAgent(await startScriptedOpenAI(turns));
    try {
      assert.equal((await fetch(`${agent.base}/api/runs`)).status, 401);
      const started = await post(agent, '/api/runs', {
        prompt: { name: 'script', variables: { file: 'hello.sh' } },
      });
      assert.equal(started.status, 202);
      const run = started.body['run'] as { id: string; task: string; startedBy: string };
      assert.equal(run.task, 'Write hello.sh and run it.');
      assert.equal(run.startedBy, 'ada');

      const events = await transcript(agent, run.id);
      const steps = events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');
      assert.deepEqual(
        steps.map((e) => (e.type === 'tool_call' ? `call ${e.name}` : `result ${e.isError}`)),
        ['call Write', 'result false', 'call Bash', 'result false'],
      );
      const bash = steps[3];
      assert.ok(bash?.type === 'tool_result' && bash.text.includes('hello from the agent'));
      assert.deepEqual(events.at(-1), { type: 'outcome', status: 'completed', seq: events.length });
      assert.equal(
        await readFile(join(sandbox.workspace, 'hello.sh'), 'utf8'),
        'echo "hello from the agent"\n',
      );

      // What the model was sent: the pack's system prompt and the sandbox's tools.
      const first = agent.model.requests[0]!.body as {
        model: string;
        messages: { role: string; content: unknown }[];
        tools: { function: { name: string; parameters: unknown } }[];
      };
      assert.equal(first.model, 'house-model');
      assert.deepEqual(first.messages[0], {
        role: 'system',
        content: 'You are the coder of the process test.',
      });
      const tools = first.tools.map((t) => t.function.name);
      for (const name of ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob']) {
        assert.ok(tools.includes(name), `${name} is offered`);
      }

      // 350,000 input tokens at 2 USD and 1,700 output at 8 USD per million: 0.7136 USD.
      const reported = await eventually('the spend in the status', async () => {
        const usage = (await agents().get(NAME, NAMESPACE)).status?.costUsage;
        return usage?.dailySpend === '0.72' ? usage : undefined;
      });
      assert.equal(reported.monthlySpend, '0.72');
    } finally {
      await agent.process.stop();
      await agent.model.close();
    }
  });

  it('refuses runs while the budget blocks them, and ends the current one at its next model call', async () => {
    const model = await startScriptedOpenAI([
      {
        text: 'Looking around.',
        toolCalls: [{ name: 'Bash', arguments: { command: 'ls' } }],
        hold: true,
      },
      { text: 'never reached' },
    ]);
    const agent = await startAgent(model);
    const setBlocked = async (status: 'True' | 'False') => {
      await agents().patch(
        NAME,
        {
          status: {
            conditions: [
              {
                type: 'RunsBlocked',
                status,
                reason: status === 'True' ? 'BudgetExceeded' : 'WithinBudget',
                message:
                  status === 'True'
                    ? 'Budget exceeded: the daily budget of 0.01 USD is spent.'
                    : '',
                lastTransitionTime: new Date().toISOString(),
              },
            ],
          },
        },
        { namespace: NAMESPACE, subresource: 'status' },
      );
    };
    try {
      const started = await post(agent, '/api/runs', { task: 'List the files.' });
      assert.equal(started.status, 202);
      const id = (started.body['run'] as { id: string }).id;
      await model.waitForRequests(1);
      await setBlocked('True');
      const refused = await eventually('the block is seen', async () => {
        const answer = await post(agent, '/api/runs', { task: 'Another one.' });
        return answer.status === 403 ? answer : undefined;
      });
      assert.deepEqual(refused.body, {
        error: 'budget_exceeded',
        message: 'Budget exceeded: the daily budget of 0.01 USD is spent.',
      });
      model.release();
      const events = await transcript(agent, id);
      assert.deepEqual(events.at(-1), {
        type: 'outcome',
        status: 'blocked',
        reason: 'Budget exceeded: the daily budget of 0.01 USD is spent.',
        seq: events.length,
      });
      assert.equal(model.remaining(), 1, 'no model call after the block');
      await setBlocked('False');
      await eventually('runs are taken again', async () => {
        const answer = await post(agent, '/api/runs', { task: 'Now?' });
        return answer.status === 202 ? true : undefined;
      });
    } finally {
      await agent.process.stop();
      await model.close();
    }
  });

  it('marks a run cut by a restart as interrupted, stopped or killed, and resumes nothing', async () => {
    const model = await startScriptedOpenAI([
      { text: 'Thinking hard', hold: true },
      { text: 'Thinking again', hold: true },
    ]);
    /** Starts a run on a fresh agent process, ends the process with the signal mid-stream. */
    const cut = async (signal: NodeJS.Signals, requestsBefore: number) => {
      const agent = await startAgent(model);
      try {
        const started = await post(agent, '/api/runs', { task: 'Think.' });
        await model.waitForRequests(requestsBefore + 1);
        return (started.body['run'] as { id: string }).id;
      } finally {
        await agent.process.stop(signal);
      }
    };
    const stopped = await cut('SIGTERM', 0);
    const killed = await cut('SIGKILL', 1);
    const again = await startAgent(model);
    try {
      const outcomes = await Promise.all(
        [stopped, killed].map(async (id) => (await transcript(again, id)).at(-1)),
      );
      assert.deepEqual(
        outcomes.map((e) => e?.type === 'outcome' && [e.status, e.reason]),
        [
          ['interrupted', 'the agent stopped during the run'],
          ['interrupted', 'the agent restarted during the run'],
        ],
      );
      assert.equal(model.requests.length, 2, 'neither run was played again');
    } finally {
      await again.process.stop();
      await model.close();
    }
  });
});
