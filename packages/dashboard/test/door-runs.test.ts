import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CORE_KINDS, podEndpoint } from '@paddock/kube';
import {
  Client,
  errorOf,
  eventually,
  startAgentPlatform,
  startScriptedOpenAI,
  type AgentPlatform,
  type PlatformPod,
  type ScriptedModelServer,
} from '@paddock/testing';

/**
 * The agent loop's runs through the dashboard's door, end to end: the embedded cluster, the
 * operator, the local node running a real agent pod (the sandbox and the agent loop, which talks
 * to a scripted model), the compiled dashboard in proxy mode, and clients as people use them.
 */

const WS = 'runs-door';
const OTHER = 'runs-elsewhere';
const AGENT = 'thinker';
const PLAIN = 'plain';
const POD = `${AGENT}-0`;

let platform: AgentPlatform;
let model: ScriptedModelServer;
let base: string;

const identity = (name: string, groups: string[]) => ({
  'x-forwarded-user': name,
  'x-forwarded-groups': groups.join(','),
});
const user = (name: string, groups: string[]) =>
  new Client(platform.dashboard.base, identity(name, groups));
const viewer = () => user('vic', ['readers']);
const editor = () => user('eddie', ['devs']);
const owner = () => user('olga', ['devs', 'leads']);
const stranger = () => user('mallory', ['strangers']);

const runs = (agent = AGENT, pod = `${agent}-0`, ws = WS) =>
  `/api/workspaces/${ws}/agents/${agent}/pods/${pod}/runs`;

interface Run {
  id: string;
  task: string;
  startedBy?: string;
  outcome?: { status: string; reason?: string };
}
interface Frame {
  id: string;
  event: string;
  data: { type: string; seq: number; status?: string };
}

/** The frames of a server-sent event stream, read until `done` says so or the stream ends. */
async function readFrames(
  response: Response,
  done: (frames: Frame[]) => boolean = () => false,
): Promise<Frame[]> {
  const reader = response.body!.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  const frames: Frame[] = [];
  let text = '';
  for (;;) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += Buffer.from(value).toString('utf8');
    let at: number;
    while ((at = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, at);
      text = text.slice(at + 2);
      const fields = new Map(
        block
          .split('\n')
          .filter((line) => !line.startsWith(':') && line.includes(':'))
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      if (!fields.has('data')) continue;
      frames.push({
        id: fields.get('id')!,
        event: fields.get('event')!,
        data: JSON.parse(fields.get('data')!) as Frame['data'],
      });
    }
    if (done(frames)) {
      await reader.cancel();
      break;
    }
  }
  return frames;
}

const metrics = async () => (await viewer().get('/metrics')).body as string;

const events = (runId: string, name: string, groups: string[], headers = {}) =>
  fetch(`${base}${runs()}/${runId}/events`, {
    headers: { ...identity(name, groups), accept: 'text/event-stream', ...headers },
  });

describe("the agent's runs through the dashboard's door", () => {
  before(async () => {
    model = await startScriptedOpenAI([
      { text: 'Hello through the door.', usage: { input: 12, output: 6 } },
      { text: 'Thinking', hold: true },
    ]);
    platform = await startAgentPlatform();
    base = platform.dashboard.base;
    await platform.workspace(WS, {
      roleBindings: [
        { groups: ['readers'], role: 'viewer' },
        { groups: ['devs'], role: 'editor' },
        { groups: ['leads'], role: 'owner' },
      ],
    });
    await platform.workspace(OTHER, { roleBindings: [{ groups: ['strangers'], role: 'owner' }] });
    await platform.agent(WS, AGENT, {
      model: 'gpt-4o-mini',
      provider: { type: 'openai', baseURL: model.baseURL },
    });
    await platform.agent(WS, PLAIN);
  });

  after(async () => {
    await platform?.stop();
    await model?.close();
  });

  it('starts a run as an editor, lists it, and streams its transcript, resumable', async () => {
    const started = await editor().post(runs(), { task: 'Say hello.' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { run } = started.body as { run: Run; position: number };
    assert.equal(run.task, 'Say hello.');
    assert.equal(run.startedBy, 'eddie', 'the run names the user the door vouched for');

    const listed = await viewer().get(runs());
    assert.equal(listed.status, 200, JSON.stringify(listed.body));
    assert.ok((listed.body as { runs: Run[] }).runs.some((r) => r.id === run.id));

    const all = await readFrames(await events(run.id, 'vic', ['readers']));
    assert.equal(all.at(-1)?.event, 'outcome');
    assert.equal(all.at(-1)?.data.status, 'completed');
    assert.equal(all[0]?.data.type, 'task');
    assert.deepEqual(
      all.map((f) => f.id),
      all.map((_f, i) => String(i + 1)),
    );

    const resumed = await readFrames(
      await events(run.id, 'vic', ['readers'], { 'last-event-id': '2' }),
    );
    assert.deepEqual(resumed, all.slice(2), 'Last-Event-ID reaches the pod');

    const one = await viewer().get(`${runs()}/${run.id}`);
    assert.equal(one.status, 200);
    assert.equal((one.body as { run: Run }).run.outcome?.status, 'completed');
  });

  it('follows a run live and cancels it; viewers read but may not start or cancel', async () => {
    const started = await owner().post(runs(), { task: 'Think for a while.' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { run } = started.body as { run: Run };
    const live = await events(run.id, 'vic', ['readers']);
    assert.equal(live.status, 200);
    assert.match(live.headers.get('content-type') ?? '', /text\/event-stream/);
    const following = readFrames(live, (frames) => frames.some((f) => f.event === 'outcome'));
    await model.waitForRequests(2);

    const refusedStart = await viewer().post(runs(), { task: 'Not mine to ask.' });
    assert.equal(refusedStart.status, 403);
    assert.equal(errorOf(refusedStart), 'forbidden');
    assert.match((refusedStart.body as { message: string }).message, /editor role or higher/);
    const refusedCancel = await viewer().post(`${runs()}/${run.id}/cancel`, {});
    assert.equal(refusedCancel.status, 403);

    // Counted as the door's other event streams are, while it is open.
    assert.match(await metrics(), /paddock_dashboard_door_open_streams\{kind="sse"\} 1\b/);

    const cancelled = await editor().post(`${runs()}/${run.id}/cancel`, {});
    assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
    const frames = await following;
    assert.equal(frames.at(-1)?.data.status, 'cancelled');
    const listed = await viewer().get(runs());
    const kept = (listed.body as { runs: Run[] }).runs.find((r) => r.id === run.id);
    assert.equal(kept?.outcome?.status, 'cancelled');
    assert.equal(kept?.startedBy, 'olga');
    await eventually('the stream closed in the dashboard', async () =>
      /paddock_dashboard_door_open_streams\{kind="sse"\} 0\b/.test(await metrics())
        ? true
        : undefined,
    );
  });

  it('tells the page whether runs are possible and who may start them', async () => {
    const thinker = await viewer().get(`/api/workspaces/${WS}/agents/${AGENT}`);
    assert.equal(thinker.status, 200, JSON.stringify(thinker.body));
    const agent = (thinker.body as { agent: { provider: unknown; runLimits: unknown } }).agent;
    assert.deepEqual(agent.provider, { type: 'openai', model: 'gpt-4o-mini' });
    assert.equal(agent.runLimits, null);
    assert.doesNotMatch(JSON.stringify(thinker.body), /baseURL|apiKeySecretRef/);
    const plain = await viewer().get(`/api/workspaces/${WS}/agents/${PLAIN}`);
    assert.equal((plain.body as { agent: { provider: unknown } }).agent.provider, null);

    const permissions = async (client: Client) =>
      (
        (await client.get(`/api/workspaces/${WS}`)).body as {
          workspace: { permissions: Record<string, boolean> };
        }
      ).workspace.permissions;
    const asViewer = await permissions(viewer());
    const asEditor = await permissions(editor());
    assert.deepEqual([asViewer.viewRuns, asViewer.startRuns], [true, false]);
    assert.deepEqual([asEditor.viewRuns, asEditor.startRuns], [true, true]);
  });

  it('says clearly that an agent without a provider runs no tasks', async () => {
    for (const answer of [await editor().get(runs(PLAIN)), await editor().post(runs(PLAIN), {})]) {
      assert.equal(answer.status, 409, JSON.stringify(answer.body));
      assert.deepEqual(answer.body, {
        error: 'conflict',
        message: 'this agent names no model provider: set spec.provider to run tasks',
      });
    }
  });

  it('answers 404 for an unknown pod, agent or run, and for a workspace not yours', async () => {
    assert.equal(errorOf(await editor().get(runs(AGENT, `${AGENT}-7`))), 'not_found');
    assert.equal(errorOf(await editor().get(runs('nobody'))), 'not_found');
    const unknownRun = await viewer().get(`${runs()}/00000000-0000-4000-8000-000000000000`);
    assert.equal(unknownRun.status, 404);
    assert.equal(errorOf(await stranger().get(runs())), 'not_found');
    assert.equal(errorOf(await editor().get(runs(AGENT, POD, OTHER))), 'not_found');
    assert.equal((await editor().get(`${runs()}/not-a-run`)).status, 400);
  });

  it('is the only way in: the agent refuses a request without the dashboard proof (401)', async () => {
    const pod = await platform.kube.resource<PlatformPod>(CORE_KINDS.pod).get(POD, `ns-${WS}`);
    const endpoint = podEndpoint(pod, 'runs');
    assert.ok(endpoint, 'the pod has the agent loop’s runs port');
    const direct = await fetch(`http://${endpoint.host}:${endpoint.port}/api/runs`, {
      headers: { 'x-forwarded-sub': 'eddie', 'x-forwarded-user': 'eddie' },
    });
    assert.equal(direct.status, 401);
  });
});
