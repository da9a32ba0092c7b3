import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, freePort } from '@paddock/testing';
import {
  callTool,
  cutMarker,
  MAX_RESPONSE_BYTES,
  ToolCaller,
  type GrpcTarget,
  type HttpTarget,
  type McpTarget,
  type OpenApiTarget,
} from '../src/index.js';
import {
  startGrpc,
  startHttp,
  startMcp,
  type RunningGrpc,
  type RunningHttp,
  type RunningMcp,
} from './support/servers.js';

let mcp: RunningMcp;
let http: RunningHttp;
let grpc: RunningGrpc;

before(async () => {
  [mcp, http, grpc] = await Promise.all([startMcp(), startHttp(), startGrpc()]);
});

after(async () => {
  await Promise.all([mcp.stop(), http.stop(), grpc.stop()]);
});

const CUT_LENGTH = MAX_RESPONSE_BYTES + cutMarker(MAX_RESPONSE_BYTES).length;

const mcpTarget = (tool: string, path = '/sse'): McpTarget => ({
  type: 'mcp',
  connection: { transport: path === '/sse' ? 'sse' : 'streamable-http', url: `${mcp.base}${path}` },
  tool,
  timeoutMs: 5000,
});

const httpTarget = (path: string, extra: Partial<HttpTarget> = {}): HttpTarget => ({
  type: 'http',
  url: `${http.base}${path}`,
  method: 'POST',
  headers: {},
  contentType: 'application/json',
  timeoutMs: 5000,
  ...extra,
});

const grpcTarget = (tool: string): GrpcTarget => ({
  type: 'grpc',
  address: grpc.address,
  tool,
  timeoutMs: 5000,
});

/** Starts a call, waits until the server has it, aborts, and returns how the call ended. */
async function abortMidway(
  start: (signal: AbortSignal) => Promise<unknown>,
  reached: () => boolean,
): Promise<unknown> {
  const controller = new AbortController();
  const call = start(controller.signal);
  await eventually('the call to reach the server', () => (reached() ? true : undefined));
  controller.abort(new Error('stopped by the run'));
  return call.then(
    () => 'resolved',
    (error: unknown) => error,
  );
}

describe('calling mcp tools', () => {
  const caller = new ToolCaller();
  after(() => caller.close());

  it('sends the arguments and answers with the text, over SSE and streamable HTTP', async () => {
    for (const path of ['/sse', '/mcp']) {
      const answer = await caller.call(mcpTarget('echo', path), { text: `hi ${path}` });
      assert.deepEqual(answer, { text: `echo: hi ${path}`, isError: false });
      assert.deepEqual(mcp.calls.at(-1), { tool: 'echo', args: { text: `hi ${path}` } });
    }
  });

  it('keeps one session per server between calls, until closed', async () => {
    const own = new ToolCaller();
    const before = mcp.sseSessions();
    await own.call(mcpTarget('echo'), { text: 'one' });
    await own.call(mcpTarget('echo'), { text: 'two' });
    assert.equal(mcp.sseSessions(), before + 1);
    await own.close();
    assert.equal((await own.call(mcpTarget('echo'), { text: 'three' })).text, 'echo: three');
    assert.equal(mcp.sseSessions(), before + 2);
    await own.close();
  });

  it('flags an error result, and refuses arguments that are not an object', async () => {
    assert.deepEqual(await caller.call(mcpTarget('fail'), {}), { text: 'it broke', isError: true });
    assert.deepEqual(await caller.call(mcpTarget('echo'), ['x']), {
      text: 'echo takes a JSON object of arguments',
      isError: true,
    });
  });

  it('cuts a long answer with a marker', async () => {
    const answer = await caller.call(mcpTarget('big'), {});
    assert.equal(answer.isError, false);
    assert.equal(answer.text.length, CUT_LENGTH);
    assert.ok(answer.text.endsWith(cutMarker(MAX_RESPONSE_BYTES)));
  });

  it('stops a call that runs out of time, and the server hears it', async () => {
    const before = mcp.cancelled.length;
    const answer = await caller.call(mcpTarget('slow'), {}, { timeoutMs: 300 });
    assert.deepEqual(answer, { text: 'no answer in 300 ms', isError: true });
    await eventually('the server to see the cancellation', () =>
      mcp.cancelled.length > before ? true : undefined,
    );
  });

  it('stops a call when the signal aborts, rejecting with its reason', async () => {
    const before = mcp.cancelled.length;
    const seen = mcp.calls.length;
    const ended = await abortMidway(
      (signal) => caller.call(mcpTarget('slow'), {}, { signal }),
      () => mcp.calls.length > seen,
    );
    assert.equal((ended as Error).message, 'stopped by the run');
    await eventually('the server to see the cancellation', () =>
      mcp.cancelled.length > before ? true : undefined,
    );
  });

  it('answers with a failure when the server cannot be reached, and runs no stdio command unless allowed', async () => {
    const down = await callTool(
      {
        type: 'mcp',
        connection: { transport: 'sse', url: `http://127.0.0.1:${await freePort()}/sse` },
        tool: 'echo',
        timeoutMs: 2000,
      },
      { text: 'x' },
    );
    assert.equal(down.isError, true);
    assert.match(down.text, /^connecting to echo's server failed/);
    const stdio = await callTool(
      {
        type: 'mcp',
        connection: { transport: 'stdio', command: process.execPath, args: ['-e', ''] },
        tool: 'echo',
        timeoutMs: 2000,
      },
      {},
    );
    assert.deepEqual(stdio, {
      text: 'tools of mcp stdio handlers are not run here',
      isError: true,
    });
  });
});

describe('calling http tools', () => {
  it('sends the arguments as the body with the method, content type and headers', async () => {
    const answer = await callTool(
      httpTarget('/add', {
        method: 'PUT',
        headers: { 'x-api-key': 'k1' },
        contentType: 'application/x-calc',
      }),
      { a: 1, b: 2 },
    );
    assert.equal(answer.isError, false);
    assert.deepEqual(JSON.parse(answer.text), {
      method: 'PUT',
      url: '/add',
      body: '{"a":1,"b":2}',
    });
    const request = http.requests.find((r) => r.url === '/add');
    assert.equal(request?.headers['x-api-key'], 'k1');
    assert.equal(request?.headers['content-type'], 'application/x-calc');
  });

  it('sends the arguments as the query string of a GET', async () => {
    const answer = await callTool(httpTarget('/search', { method: 'GET' }), {
      q: 'cats',
      tags: ['a', 'b'],
    });
    assert.equal(
      (JSON.parse(answer.text) as { url: string }).url,
      '/search?q=cats&tags=%5B%22a%22%2C%22b%22%5D',
    );
  });

  it('flags a non-2xx answer with its status', async () => {
    assert.deepEqual(await callTool(httpTarget('/fail'), {}), {
      text: 'HTTP 500: boom',
      isError: true,
    });
  });

  it('cuts a long answer with a marker', async () => {
    const answer = await callTool(httpTarget('/big'), {});
    assert.equal(answer.text.length, CUT_LENGTH);
    assert.ok(answer.text.endsWith(cutMarker(MAX_RESPONSE_BYTES)));
  });

  it('stops a call that runs out of time, and a call whose signal aborts', async () => {
    const answer = await callTool(httpTarget('/slow'), {}, { timeoutMs: 300 });
    assert.deepEqual(answer, { text: 'no answer in 300 ms', isError: true });
    await eventually('the server to see the client go', () =>
      http.abandoned.length === 1 ? true : undefined,
    );
    const seen = http.requests.length;
    const ended = await abortMidway(
      (signal) => callTool(httpTarget('/slow'), {}, { signal }),
      () => http.requests.length > seen,
    );
    assert.equal((ended as Error).message, 'stopped by the run');
    await eventually('the server to see the client go', () =>
      http.abandoned.length === 2 ? true : undefined,
    );
  });

  it('answers with a failure when nothing listens', async () => {
    const answer = await callTool(
      httpTarget('', { url: `http://127.0.0.1:${await freePort()}/x` }),
      {},
    );
    assert.equal(answer.isError, true);
    assert.match(answer.text, /ECONNREFUSED/);
  });
});

describe('calling openapi tools', () => {
  const target = (extra: Partial<OpenApiTarget> = {}): OpenApiTarget => ({
    type: 'openapi',
    method: 'POST',
    urlTemplate: `${http.base}/pets/{petId}/notes`,
    parameters: [
      { name: 'petId', in: 'path' },
      { name: 'verbose', in: 'query' },
      { name: 'X-Trace', in: 'header' },
    ],
    body: 'object',
    headers: { authorization: 'Bearer tok', 'x-tenant': 'acme' },
    timeoutMs: 5000,
    ...extra,
  });

  it('puts parameters in the path, query and headers, and the rest in the JSON body, with the auth headers', async () => {
    const answer = await callTool(target(), {
      petId: 'rex/1',
      verbose: true,
      'X-Trace': 't-1',
      text: 'good dog',
    });
    assert.deepEqual(JSON.parse(answer.text), {
      method: 'POST',
      url: '/pets/rex%2F1/notes?verbose=true',
      body: '{"text":"good dog"}',
    });
    const request = http.requests.at(-1);
    assert.equal(request?.headers.authorization, 'Bearer tok');
    assert.equal(request?.headers['x-tenant'], 'acme');
    assert.equal(request?.headers['x-trace'], 't-1');
    assert.equal(request?.headers['content-type'], 'application/json');
  });

  it('refuses a call without its path parameter before sending anything', async () => {
    const seen = http.requests.length;
    assert.deepEqual(await callTool(target(), { text: 'x' }), {
      text: 'the path parameter petId is missing',
      isError: true,
    });
    assert.equal(http.requests.length, seen);
  });

  it('flags a non-2xx answer with its status', async () => {
    const answer = await callTool(
      target({ urlTemplate: `${http.base}/fail`, parameters: [], body: 'none' }),
      {},
    );
    assert.deepEqual(answer, { text: 'HTTP 500: boom', isError: true });
  });
});

describe('calling grpc tools', () => {
  it('sends the arguments to Execute and answers with the result JSON', async () => {
    const answer = await callTool(grpcTarget('echo'), { text: 'hi' });
    assert.deepEqual(answer, { text: '{"echoed":{"text":"hi"}}', isError: false });
    assert.deepEqual(grpc.calls.at(-1), { tool: 'echo', args: { text: 'hi' } });
  });

  it('flags the error the tool answers', async () => {
    assert.deepEqual(await callTool(grpcTarget('fail'), {}), { text: 'it broke', isError: true });
  });

  it('stops a call that runs out of time, and a call whose signal aborts', async () => {
    const answer = await callTool(grpcTarget('slow'), {}, { timeoutMs: 300 });
    assert.deepEqual(answer, { text: 'no answer in 300 ms', isError: true });
    await eventually('the server to see the cancellation', () =>
      grpc.cancelled.length === 1 ? true : undefined,
    );
    const seen = grpc.calls.length;
    const ended = await abortMidway(
      (signal) => callTool(grpcTarget('slow'), {}, { signal }),
      () => grpc.calls.length > seen,
    );
    assert.equal((ended as Error).message, 'stopped by the run');
    await eventually('the server to see the cancellation', () =>
      grpc.cancelled.length === 2 ? true : undefined,
    );
  });
});
