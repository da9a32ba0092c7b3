import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  createLogger,
  createProofKeys,
  Health,
  PROOF_HEADER,
  signIdentityProof,
  type ProofVerifier,
} from '@paddock/common';
import { startScriptedOpenAI, tempDir, type ScriptedModelServer } from '@paddock/testing';
import type { FastifyInstance } from 'fastify';
import { createAgentApp } from '../src/api/app.js';
import { openAIChatClient } from '../src/providers/openai-chat.js';
import { RunStore } from '../src/runs/run-store.js';
import { Runner } from '../src/runs/runner.js';
import { connectSandboxTools } from '../src/sandbox-tools.js';
import type { RunSummary } from '../src/runs/run-store.js';
import type { TranscriptEvent } from '../src/transcript.js';
import { startSandbox, type RunningSandbox } from './support/sandbox.js';

/** The frames of an event stream, read to its end. */
async function frames(
  res: Response,
): Promise<Array<{ id: string; event: string; data: TranscriptEvent }>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const fields = Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return {
        id: fields.id!,
        event: fields.event!,
        data: JSON.parse(fields.data!) as TranscriptEvent,
      };
    });
}

/** The pod's stable DNS name, which the door signs its proofs for. */
const AUDIENCE = 'coder-0.coder.ns-team.svc';
const door = createProofKeys();
const proof: ProofVerifier = {
  mode: 'token',
  publicKey: createPublicKey(door.publicKeyPem),
  audience: AUDIENCE,
};

/** The headers the dashboard's door sends for a user: their identity and its signed proof. */
async function asUser(
  user: string,
  signed: { privateKey?: typeof door.privateKey; audience?: string; now?: Date } = {},
): Promise<Record<string, string>> {
  const token = await signIdentityProof({
    privateKey: signed.privateKey ?? door.privateKey,
    audience: signed.audience ?? AUDIENCE,
    identity: { sub: user, user, groups: ['devs'] },
    ...(signed.now ? { now: signed.now } : {}),
  });
  return { 'x-forwarded-sub': user, 'x-forwarded-user': user, [PROOF_HEADER]: token };
}

describe('the runs API', () => {
  let sandbox: RunningSandbox;
  let model: ScriptedModelServer;
  let app: FastifyInstance;
  let base: string;
  let budget: string | undefined;
  let store: RunStore;
  let runner: Runner;
  before(async () => {
    sandbox = await startSandbox();
    model = await startScriptedOpenAI([
      {
        text: 'Listing.',
        toolCalls: [{ name: 'Bash', arguments: { command: 'echo api-run' } }],
        usage: { input: 10, output: 5 },
      },
      { text: 'It printed api-run.', usage: { input: 20, output: 5 } },
      { text: 'Waiting', hold: true },
    ]);
    const dir = await tempDir('paddock-agent-api-');
    store = await RunStore.open(dir.path);
    runner = new Runner({
      store,
      client: openAIChatClient({ apiKey: 'k', baseURL: model.baseURL, maxRetries: 0 }),
      settings: () => ({
        model: 'gpt-4o-mini',
        system: 'You are a test agent.',
        prompts: [{ name: 'echo', content: 'Print {{word}}.' }],
        limits: { maxTurns: 5, maxTokens: 10_000, maxWallMs: 600_000 },
        price: () => 0.001,
      }),
      tools: () => connectSandboxTools(sandbox.mcpUrl),
      blocked: () => budget,
      now: () => Date.now(),
      onError: () => {},
    });
    app = createAgentApp({
      runner,
      store,
      health: new Health(),
      logger: createLogger({ name: 'paddock-agent-test', level: 'warn' }),
      proof,
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address() as { port: number };
    base = `http://127.0.0.1:${address.port}`;
  });
  after(async () => {
    await runner.stop();
    await app.close();
    await store.close();
    await model.close();
    await sandbox.stop();
  });

  /** A request as the user `ada`, through the door (with its proof). */
  const get = async (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { ...(await asUser('ada')), ...headers } });
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await asUser('ada')), ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('starts a run, streams its transcript to the end, and resumes it after an event', async () => {
    const started = await post('/api/runs', {
      prompt: { name: 'echo', variables: { word: 'api-run' } },
    });
    assert.equal(started.status, 202);
    const { run, position } = (await started.json()) as { run: RunSummary; position: number };
    assert.equal(position, 0);
    assert.equal(run.task, 'Print api-run.');
    assert.equal(run.startedBy, 'ada');

    const stream = await get(`/api/runs/${run.id}/events`);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    const all = await frames(stream);
    assert.equal(all.at(-1)?.event, 'outcome');
    assert.deepEqual(all.at(-1)?.data, { type: 'outcome', status: 'completed', seq: all.length });
    const result = all.find((f) => f.data.type === 'tool_result')?.data;
    assert.match(result?.type === 'tool_result' ? result.text : '', /api-run/);
    assert.deepEqual(
      all.map((f) => f.id),
      all.map((_f, i) => String(i + 1)),
    );

    const resumed = await frames(await get(`/api/runs/${run.id}/events`, { 'last-event-id': '3' }));
    assert.deepEqual(resumed, all.slice(3));
    const byQuery = await frames(await get(`/api/runs/${run.id}/events?after=${all.length}`));
    assert.deepEqual(byQuery, []);

    const one = (await (await get(`/api/runs/${run.id}`)).json()) as { run: RunSummary };
    assert.deepEqual(one.run.outcome, { status: 'completed' });
    assert.deepEqual(one.run.usage, { input: 30, output: 10, usd: 0.002 });
    const list = (await (await get('/api/runs')).json()) as { runs: RunSummary[] };
    assert.equal(list.runs[0]?.id, run.id);
  });

  it('cancels a run in progress, and its stream ends with the outcome', async () => {
    const started = (await (await post('/api/runs', { task: 'wait' })).json()) as {
      run: RunSummary;
    };
    await model.waitForRequests(3);
    const streaming = get(`/api/runs/${started.run.id}/events`).then(frames);
    const cancelled = await post(`/api/runs/${started.run.id}/cancel`, {});
    assert.equal(cancelled.status, 200);
    const all = await streaming;
    assert.deepEqual(all.at(-1)?.data, {
      type: 'outcome',
      status: 'cancelled',
      reason: 'cancelled',
      seq: all.length,
    });
    await runner.idle();
  });

  it('answers bad input with a clear 400, and unknown runs with 404', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ prompt: { name: 'deploy' } }, /no prompt "deploy"/],
      [{ prompt: { name: 'echo' } }, /missing variables of echo: word/],
      [
        { prompt: { name: 'echo', variables: { word: 'x', extra: 'y' } } },
        /echo has no variables extra/,
      ],
      [{ task: 'x'.repeat(100_001) }, /body.task must be at most 100000 characters long/],
      [{ task: 'x', model: 'other' }, /body has an unknown field "model"/],
      [{}, /give either task/],
      ['{"task": ', /JSON/i],
    ];
    for (const [body, message] of cases) {
      const res = await post('/api/runs', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 80));
      const answer = (await res.json()) as { error: string; message: string };
      assert.equal(answer.error, 'invalid_request');
      assert.match(answer.message, message);
    }
    const unknown = '00000000-0000-4000-8000-000000000000';
    assert.equal((await get(`/api/runs/${unknown}`)).status, 404);
    assert.equal((await post(`/api/runs/${unknown}/cancel`, {})).status, 404);
    assert.equal((await get('/api/runs/not-a-run')).status, 400);
    const runs = (await (await get('/api/runs')).json()) as { runs: RunSummary[] };
    const badId = await get(`/api/runs/${runs.runs[0]!.id}/events`, { 'last-event-id': 'abc' });
    assert.equal(badId.status, 400);
  });

  it('refuses runs while the budget blocks them', async () => {
    budget = 'budget exceeded: the daily budget of $0.01 is spent';
    try {
      const res = await post('/api/runs', { task: 'anything' });
      assert.equal(res.status, 403);
      assert.deepEqual(await res.json(), { error: 'budget_exceeded', message: budget });
    } finally {
      budget = undefined;
    }
  });

  it('refuses every request without a valid proof of the door (401), health checks aside', async () => {
    const stranger = createProofKeys();
    const refusals: Array<[string, Record<string, string>, RegExp]> = [
      ['no proof', { 'x-forwarded-user': 'ada' }, /a valid X-Paddock-Proof header is required/],
      [
        'a proof signed by another key',
        await asUser('ada', { privateKey: stranger.privateKey }),
        /the proof is not valid; reach the agent through its proxy/,
      ],
      [
        'an expired proof',
        await asUser('ada', { now: new Date(Date.now() - 10 * 60_000) }),
        /the proof has expired/,
      ],
      [
        'a proof for another pod',
        await asUser('ada', { audience: 'coder-1.coder.ns-team.svc' }),
        /not valid here \(aud\)/,
      ],
      [
        "a valid proof carrying another user's X-Forwarded-User",
        { ...(await asUser('ada')), 'x-forwarded-user': 'root' },
        /X-Forwarded-User does not match the proof/,
      ],
      ['a forged token', { [PROOF_HEADER]: 'e30.e30.forged' }, /the proof is not valid/],
    ];
    const before = store.list().length;
    for (const [what, headers, message] of refusals) {
      for (const [method, path] of [
        ['POST', '/api/runs'],
        ['GET', '/api/runs'],
        ['GET', '/api/no-such-route'],
      ] as const) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...headers },
          ...(method === 'POST' ? { body: JSON.stringify({ task: 'not for you' }) } : {}),
        });
        assert.equal(res.status, 401, `${what}: ${method} ${path}`);
        const answer = (await res.json()) as { error: string; message: string };
        assert.equal(answer.error, 'unauthorized');
        assert.match(answer.message, message, what);
      }
    }
    assert.equal(store.list().length, before, 'no refused request started a run');
    assert.equal((await fetch(`${base}/healthz`)).status, 200);
  });

  it("records as who started a run the proof's user, never a bare header", async () => {
    const started = await fetch(`${base}/api/runs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(await asUser('grace')) },
      body: JSON.stringify({ task: 'who am I' }),
    });
    assert.equal(started.status, 202);
    const { run } = (await started.json()) as { run: RunSummary };
    assert.equal(run.startedBy, 'grace');
    await post(`/api/runs/${run.id}/cancel`, {});
    await runner.idle();
  });

  it('in dev mode (no proof) lets requests in, the caller without headers being the dev identity', async () => {
    const dev = createAgentApp({
      runner,
      store,
      health: new Health(),
      logger: createLogger({ name: 'paddock-agent-test', level: 'warn' }),
    });
    try {
      const listed = await dev.inject({ method: 'GET', url: '/api/runs' });
      assert.equal(listed.statusCode, 200);
      const started = await dev.inject({
        method: 'POST',
        url: '/api/runs',
        payload: { task: 'x' },
      });
      assert.equal(started.statusCode, 202);
      const { run } = started.json<{ run: RunSummary }>();
      assert.equal(run.startedBy, 'dev');
      await runner.cancel(run.id);
      await runner.idle();
    } finally {
      await dev.close();
    }
  });
});
