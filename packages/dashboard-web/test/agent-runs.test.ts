import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import {
  API_VERSION,
  CORE_KINDS,
  KINDS,
  type AgentRuntime,
  type KubeObject,
  type ToolRegistry,
  type Workspace,
} from '@paddock/kube';
import {
  eventually,
  eventuallyOk,
  launchBrowser,
  screenshot,
  startAgentPlatform,
  startEchoHttpTool,
  startGreeterMcp,
  startScriptedOpenAI,
  type AgentPlatform,
  type ScriptedModelServer,
  type ToolServer,
} from '@paddock/testing';
import { onProxyPage, PEOPLE, type Person } from './support/journey.js';

/**
 * The agent loop end to end: the embedded cluster, the operator, the local node running the
 * agent's real pod (its sandbox and its agent container), the dashboard's door, a scripted model
 * (the one stand-in: no model can be reached from here) and the workspace's tool servers; then the
 * Runs tab in Chromium.
 */

const WS = 'runs';
const NAMESPACE = `ns-${WS}`;
const AGENT = 'coder';
const POD = `${AGENT}-0`;
const kind = (name: string) => KINDS.find((k) => k.kind === name)!;

let platform: AgentPlatform;
let model: ScriptedModelServer;
let browser: Browser;
let mcpTools: ToolServer;
let httpTool: ToolServer;
const greeted: unknown[] = [];
const looked: string[] = [];
const runsUrl = (path = '') =>
  `${platform.dashboard.base}/api/workspaces/${WS}/agents/${AGENT}/pods/${POD}/runs${path}`;

function headersOf(person: Person): Record<string, string> {
  const { user, groups } = PEOPLE[person];
  return { 'x-forwarded-user': user, 'x-forwarded-groups': groups };
}

async function startRun(person: Person, body: unknown) {
  const response = await fetch(runsUrl(), {
    method: 'POST',
    headers: { ...headersOf(person), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

interface Event {
  type: string;
  seq: number;
  [key: string]: unknown;
}

/** A run's transcript through the door, as server-sent events, up to its outcome. */
async function transcript(id: string, person: Person = 'editor'): Promise<Event[]> {
  const response = await fetch(runsUrl(`/${id}/events`), { headers: headersOf(person) });
  assert.equal(response.status, 200);
  return (await response.text())
    .split('\n\n')
    .map((frame) => frame.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice('data: '.length)) as Event);
}

const runId = (answer: { body: Record<string, unknown> }) =>
  (answer.body['run'] as { id: string }).id;

before(async () => {
  // Every model call of this file, in the order the tests below make them.
  model = await startScriptedOpenAI([
    // Writes a script, runs it, answers.
    {
      text: 'Writing the script.',
      toolCalls: [
        { name: 'Write', arguments: { file_path: 'hello.sh', content: 'echo "hello, runs"\n' } },
      ],
      usage: { input: 1_000, output: 100 },
    },
    {
      toolCalls: [{ name: 'Bash', arguments: { command: 'sh hello.sh' } }],
      usage: { input: 1_200, output: 50 },
    },
    { text: 'It printed the greeting.', usage: { input: 1_300, output: 20 } },
    // The workspace's tools.
    {
      toolCalls: [
        { name: 'team-tools__greet', arguments: { name: 'Ada' } },
        { name: 'team-tools__lookup', arguments: { term: 'paddock' } },
      ],
      usage: { input: 10, output: 10 },
    },
    { text: 'Both answered.', usage: { input: 10, output: 10 } },
    // Rate limited once, then fine.
    { error: { status: 429, message: 'slow down', retryAfterSeconds: 0 } },
    { text: 'Fine now.', usage: { input: 10, output: 10 } },
    // Cut by a pod restart.
    { text: 'A long thought', hold: true },
    // The browser's run.
    {
      text: 'Writing the plan.',
      toolCalls: [
        {
          name: 'Write',
          arguments: { file_path: 'notes/plan.md', content: '# Plan\n\n1. Write the tests.\n' },
        },
      ],
      usage: { input: 10, output: 10 },
    },
    { text: 'The plan is in notes/plan.md.', usage: { input: 10, output: 10 } },
  ]);
  [mcpTools, httpTool] = await Promise.all([startGreeterMcp(greeted), startEchoHttpTool(looked)]);
  platform = await startAgentPlatform();
  browser = await launchBrowser();
  await platform.workspace(WS, {
    roleBindings: [
      { groups: ['readers'], role: 'viewer' },
      { groups: ['devs'], role: 'editor' },
    ],
  });
  await platform.kube.resource<ToolRegistry>(kind('ToolRegistry')).create({
    apiVersion: API_VERSION,
    kind: 'ToolRegistry',
    metadata: { name: 'team-tools', namespace: NAMESPACE },
    spec: {
      handlers: [
        {
          name: 'greeter',
          type: 'mcp',
          timeout: '5s',
          mcpConfig: { transport: 'sse', endpoint: `${mcpTools.url}/mcp` },
        },
        {
          name: 'lookup',
          type: 'http',
          endpoint: { url: `${httpTool.url}/lookup` },
          tool: {
            name: 'lookup',
            description: 'Looks a term up',
            inputSchema: { type: 'object', properties: { term: { type: 'string' } } },
          },
        },
      ],
    },
  });
  await platform.agent(WS, AGENT, {
    model: 'test-model',
    provider: { type: 'openai', baseURL: model.baseURL },
    pricing: { 'test-model': { input: '100', output: '100' } },
  });
});

after(async () => {
  await browser?.close();
  await platform?.stop();
  await model?.close();
  await Promise.all([mcpTools?.close(), httpTool?.close()]);
});

/** Runs `steps` on a page of the person, then checks nothing went wrong on it. */
async function onPage(person: Person, path: string, steps: (page: Page) => Promise<void>) {
  const at = { base: platform.dashboard.base, person: PEOPLE[person], path, timeoutMs: 20_000 };
  await onProxyPage(browser, at, steps);
}

describe("the agent's runs, end to end", () => {
  it('writes a file and runs it: the file, the transcript in order, the spend, what the model got', async () => {
    const started = await startRun('editor', { task: 'Write hello.sh and run it.' });
    assert.equal(started.status, 202);
    const events = await transcript(runId(started));
    const steps = events.filter((e) => e.type === 'tool_call' || e.type === 'tool_result');
    assert.deepEqual(
      steps.map((e) => (e.type === 'tool_call' ? `call ${String(e['name'])}` : 'result')),
      ['call Write', 'result', 'call Bash', 'result'],
    );
    assert.match(String(steps[3]?.['text']), /hello, runs/);
    assert.deepEqual(events.at(-1), { type: 'outcome', status: 'completed', seq: events.length });
    assert.equal(
      await readFile(join(platform.workspaceFolder(WS, POD), 'hello.sh'), 'utf8'),
      'echo "hello, runs"\n',
    );
    // The pack's system prompt and the sandbox's tools with their schemas.
    const sent = model.requests[0]!.body as {
      messages: { role: string; content: unknown }[];
      tools: { function: { name: string; parameters: { properties?: object } } }[];
    };
    assert.deepEqual(sent.messages[0], { role: 'system', content: 'Be brief.' });
    const write = sent.tools.find((t) => t.function.name === 'Write');
    assert.ok(write && 'file_path' in (write.function.parameters.properties ?? {}));
    // 3,500 input and 170 output tokens at 100 USD per million: 0.367 USD, written up to the cent.
    const agents = platform.kube.resource<AgentRuntime>(kind('AgentRuntime'));
    await eventually('the spend in the AgentRuntime', async () => {
      const usage = (await agents.get(AGENT, NAMESPACE)).status?.costUsage;
      return usage?.dailySpend === '0.37' ? usage : undefined;
    });
  });

  it("calls the workspace's ToolRegistry tools: an MCP tool and an http tool", async () => {
    const registries = platform.kube.resource<ToolRegistry>(kind('ToolRegistry'));
    await eventually(
      'the registry tools Available',
      async () => {
        const tools = (await registries.get('team-tools', NAMESPACE)).status?.discoveredTools ?? [];
        return tools.length === 2 && tools.every((t) => t.status === 'Available')
          ? true
          : undefined;
      },
      60_000,
    );
    const started = await startRun('editor', { task: 'Greet Ada and look paddock up.' });
    const events = await transcript(runId(started));
    const results = events.filter((e) => e.type === 'tool_result');
    assert.deepEqual(
      results.map((e) => [e['text'], e['isError']]),
      [
        ['hello, Ada', false],
        ['found {"term":"paddock"}', false],
      ],
    );
    assert.deepEqual(greeted, [{ name: 'Ada' }]);
    // The operator's health checks send no body: the model's call is the one that does.
    assert.deepEqual(
      looked.filter((body) => body !== ''),
      ['{"term":"paddock"}'],
    );
    const offered = (
      model.requests.at(-1)!.body as { tools: { function: { name: string } }[] }
    ).tools.map((t) => t.function.name);
    assert.ok(offered.includes('team-tools__greet') && offered.includes('team-tools__lookup'));
  });

  it('waits out a 429 from the model and goes on', async () => {
    const before = model.requests.length;
    const started = await startRun('editor', { task: 'Say something.' });
    const events = await transcript(runId(started));
    assert.deepEqual(events.at(-1), { type: 'outcome', status: 'completed', seq: events.length });
    assert.equal(model.requests.length - before, 2, 'the 429, then the call that answered');
  });

  it('marks the run a pod restart cut as interrupted, and the new pod resumes nothing', async () => {
    const before = model.requests.length;
    const started = await startRun('editor', { task: 'Think for a long time.' });
    await model.waitForRequests(before + 1);
    await platform.kube.resource<KubeObject>(CORE_KINDS.pod).delete(POD, NAMESPACE);
    await model.waitForDisconnect();
    await platform.readyPods(WS, AGENT, 1);
    const events = await eventuallyOk('the run through the new pod', () =>
      transcript(runId(started)),
    );
    assert.deepEqual(events.at(-1), {
      type: 'outcome',
      status: 'interrupted',
      reason: 'the agent stopped during the run',
      seq: events.length,
    });
    // A viewer reads it too, and may not start one.
    assert.deepEqual((await transcript(runId(started), 'viewer')).at(-1), events.at(-1));
    assert.equal((await startRun('viewer', { task: 'No.' })).status, 403);
    assert.equal(model.requests.length, before + 1, 'the run was not played again');
  });

  it('Runs tab: starts a run, streams its transcript, opens the file it wrote', async () => {
    await onPage('editor', `/workspaces/${WS}/agents/${AGENT}?tab=runs`, async (page) => {
      await page.getByRole('tab', { name: 'Runs', selected: true }).waitFor();
      const form = page.getByRole('form', { name: 'Start a run' });
      await form.getByRole('textbox', { name: 'Task' }).fill('Write a plan into notes/plan.md.');
      await form.getByRole('button', { name: 'Start the run' }).click();
      const run = page.getByRole('region', { name: 'Run' });
      const log = run.getByRole('log', { name: 'Transcript' });
      await log.getByText('The plan is in notes/plan.md.').waitFor();
      await run.getByRole('status').filter({ hasText: 'Completed.' }).waitFor();
      await log.locator('summary', { hasText: 'Write notes/plan.md' }).waitFor();
      await screenshot(page, 'agent-runs', { docs: true });
      await log.getByRole('link', { name: 'notes/plan.md' }).click();
      await page.getByRole('tab', { name: 'Files', selected: true }).waitFor();
      const viewer = page.getByRole('region', { name: 'File viewer' });
      await viewer.getByText('1. Write the tests.').waitFor();
      assert.equal(
        await readFile(join(platform.workspaceFolder(WS, POD), 'notes', 'plan.md'), 'utf8'),
        '# Plan\n\n1. Write the tests.\n',
      );
    });
  });

  it('refuses runs once a tiny daily budget under block is spent, and the Runs tab says why', async () => {
    const workspaces = platform.kube.resource<Workspace>(kind('Workspace'));
    await eventually('the budget set', async () => {
      const found = await workspaces.get(WS);
      await workspaces.replace({
        ...found,
        spec: {
          ...found.spec,
          costControls: { dailyBudget: '0.01', budgetExceededAction: 'block' },
        },
      });
      return true;
    });
    const refused = await eventually(
      'the run refused',
      async () => {
        const answer = await startRun('editor', { task: 'One more.' });
        return answer.status === 403 ? answer : undefined;
      },
      60_000,
    );
    assert.equal(refused.body['error'], 'budget_exceeded');
    assert.match(String(refused.body['message']), /^Budget exceeded: /);
    // The pod keeps running: the workspace stays open.
    assert.equal((await platform.readyPods(WS, AGENT, 1)).length, 1);
    await onPage('editor', `/workspaces/${WS}/agents/${AGENT}?tab=runs`, async (page) => {
      const form = page.getByRole('form', { name: 'Start a run' });
      await form.getByRole('textbox', { name: 'Task' }).fill('And another.');
      await form.getByRole('button', { name: 'Start the run' }).click();
      await page.getByRole('alert').filter({ hasText: 'Budget exceeded' }).waitFor();
      await screenshot(page, 'agent-runs-blocked');
    });
  });
});
