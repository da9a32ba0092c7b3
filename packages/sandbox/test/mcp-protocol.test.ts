import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { eventually, tempDir } from '@paddock/testing';
import {
  connect,
  dataOf,
  openEventStream,
  startSandbox,
  type RunningSandbox,
} from './support/sandbox.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let sandbox: RunningSandbox;

before(async () => {
  dir = await tempDir();
  sandbox = await startSandbox(dir.path, {
    env: { SVC_MCP_KEEPALIVE_SECONDS: '1', SVC_MCP_ALLOWED_ORIGINS: 'https://ide.paddock.example' },
  });
});
after(async () => {
  await sandbox.stop();
  await dir.remove();
});

function post(path: string, body: string, headers: Record<string, string> = {}) {
  return fetch(`${sandbox.base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
}

/**
 * Announces a body larger than the limit and sends only its start: the server must refuse it from
 * the announced length alone, without reading (or buffering) the rest.
 */
function statusOfOversizedPost(url: string, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(length) },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      },
    );
    req.on('error', reject);
    req.write('{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":"');
  });
}

const initialize = (id: number, protocolVersion: string) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion, clientInfo: { name: 'raw', version: '0' }, capabilities: {} },
  });

/** Opens the SSE stream and returns its session path from the endpoint event. */
async function openSession() {
  const stream = await openEventStream(`${sandbox.base}/sse`);
  assert.equal(stream.response.status, 200);
  assert.match(stream.response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const endpoint = await stream.next((f) => f.startsWith('event: endpoint'));
  const path = dataOf(endpoint);
  return { stream, path };
}

describe('the HTTP+SSE transport, to the letter of the specification', () => {
  it('sends the endpoint event, answers posts 202 and replies on the stream as message events', async () => {
    const { stream, path } = await openSession();
    assert.match(
      path,
      /^\/message\?sessionId=[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );

    const accepted = await post(path, initialize(1, '2024-11-05'));
    assert.equal(accepted.status, 202);
    const reply = JSON.parse(dataOf(await stream.next((f) => f.startsWith('event: message')))) as {
      id: number;
      result: { protocolVersion: string; serverInfo: { name: string }; capabilities: unknown };
    };
    assert.equal(reply.id, 1);
    assert.equal(reply.result.protocolVersion, '2024-11-05');
    assert.equal(reply.result.serverInfo.name, 'paddock-sandbox');
    assert.deepEqual(reply.result.capabilities, { tools: { listChanged: true } });

    const notified = await post(
      path,
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    assert.equal(notified.status, 202);

    await post(path, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} }));
    const list = JSON.parse(dataOf(await stream.next((f) => f.startsWith('event: message')))) as {
      id: number;
      result: { tools: Array<{ name: string }> };
    };
    assert.equal(list.id, 2);
    assert.ok(list.result.tools.some((t) => t.name === 'Read'));

    await post(
      path,
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'resources/list', params: {} }),
    );
    const unknown = JSON.parse(
      dataOf(await stream.next((f) => f.startsWith('event: message'))),
    ) as {
      id: number;
      error: { code: number };
    };
    assert.deepEqual([unknown.id, unknown.error.code], [3, -32601]);
    stream.close();
  });

  it('answers the newest protocol version it knows when the client asks for an unknown one', async () => {
    for (const [asked, answered] of [
      ['2025-03-26', '2025-03-26'],
      ['2025-06-18', '2025-06-18'],
      ['2025-11-25', '2025-11-25'],
      ['1999-01-01', '2025-11-25'],
    ]) {
      const { stream, path } = await openSession();
      await post(path, initialize(1, asked!));
      const reply = JSON.parse(
        dataOf(await stream.next((f) => f.startsWith('event: message'))),
      ) as {
        result: { protocolVersion: string };
      };
      assert.equal(reply.result.protocolVersion, answered, `asked ${asked}`);
      stream.close();
    }
  });

  it('sends keepalive comments on an idle stream', async () => {
    const { stream } = await openSession();
    const comment = await stream.next((f) => f.startsWith(':'), 5000);
    assert.equal(comment, ': keepalive');
    stream.close();
  });

  it('answers malformed and invalid messages with JSON-RPC errors', async () => {
    const { stream, path } = await openSession();
    const cases: Array<[string, Record<string, string>, number, number]> = [
      ['{"jsonrpc":', {}, 400, -32700],
      ['[]', {}, 400, -32600],
      ['{"hello":"world"}', {}, 400, -32600],
      [
        '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
        { 'content-type': 'text/plain' },
        415,
        -32600,
      ],
    ];
    for (const [body, headers, status, code] of cases) {
      const res = await post(path, body, headers);
      assert.equal(res.status, status, body);
      const json = (await res.json()) as {
        jsonrpc: string;
        error: { code: number; message: string };
      };
      assert.equal(json.jsonrpc, '2.0');
      assert.equal(json.error.code, code, body);
    }
    assert.equal(await statusOfOversizedPost(`${sandbox.base}${path}`, 17 * 1024 * 1024), 413);
    stream.close();
  });

  it('answers posts to unknown or closed sessions with 404, and without a session id with 400', async () => {
    const unknown = await post(
      '/message?sessionId=00000000-0000-0000-0000-000000000000',
      initialize(1, '2025-06-18'),
    );
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: number } }).error.code, -32001);

    const { stream, path } = await openSession();
    stream.close();
    // the session ends once the server notices the stream is gone
    await eventually('the closed session answered with 404', async () =>
      (await post(path, initialize(1, '2025-06-18'))).status === 404 ? true : undefined,
    );

    const noSession = await post('/message', initialize(1, '2025-06-18'));
    assert.equal(noSession.status, 400);
  });

  it('refuses browser origins that are not allowed and accepts configured ones', async () => {
    const evil = await fetch(`${sandbox.base}/sse`, {
      headers: { accept: 'text/event-stream', origin: 'https://evil.example' },
    });
    assert.equal(evil.status, 403);
    const { path, stream } = await openSession();
    const posted = await post(path, initialize(1, '2025-06-18'), {
      origin: 'https://evil.example',
    });
    assert.equal(posted.status, 403);
    const allowed = await post(path, initialize(1, '2025-06-18'), {
      origin: 'https://ide.paddock.example',
    });
    assert.equal(allowed.status, 202);
    stream.close();
  });

  it('serves /healthz and /readyz', async () => {
    assert.equal((await fetch(`${sandbox.base}/healthz`)).status, 200);
    assert.equal((await fetch(`${sandbox.base}/readyz`)).status, 200);
  });
});

describe('the Streamable HTTP transport', () => {
  it('requires a session for anything but initialize, and 404s an unknown one', async () => {
    const headers = { accept: 'application/json, text/event-stream' };
    const noSession = await post(
      '/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      headers,
    );
    assert.equal(noSession.status, 400);
    const unknown = await post(
      '/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      {
        ...headers,
        'mcp-session-id': 'nope',
      },
    );
    assert.equal(unknown.status, 404);
    const malformed = await post('/mcp', '{', headers);
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: { code: number } }).error.code, -32700);
  });

  it('ends a session on DELETE', async () => {
    const client = await connect(sandbox.base, 'streamable');
    await client.listTools();
    const transport = client.transport as unknown as {
      sessionId: string;
      terminateSession: () => Promise<void>;
    };
    const id = transport.sessionId;
    await transport.terminateSession();
    const after = await post(
      '/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      {
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
      },
    );
    assert.equal(after.status, 404);
    await client.close();
  });
});

describe('the optional bearer token', () => {
  it('refuses requests without the token and serves those with it', async () => {
    const tokenSandbox = await startSandbox(dir.path, {
      env: { SVC_MCP_TOKEN: 'a-long-shared-token-value' },
    });
    try {
      const refused = await fetch(`${tokenSandbox.base}/sse`, {
        headers: { accept: 'text/event-stream' },
      });
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer');
      const wrong = await fetch(`${tokenSandbox.base}/mcp`, {
        method: 'POST',
        headers: { authorization: 'Bearer nope' },
      });
      assert.equal(wrong.status, 401);
      const client = await connect(tokenSandbox.base, 'streamable', {
        authorization: 'Bearer a-long-shared-token-value',
      });
      assert.ok((await client.listTools()).tools.length > 0);
      await client.close();
      const sseClient = await connect(tokenSandbox.base, 'sse', {
        authorization: 'Bearer a-long-shared-token-value',
      });
      assert.ok((await sseClient.listTools()).tools.length > 0);
      await sseClient.close();
      assert.equal(
        (await fetch(`${tokenSandbox.base}/healthz`)).status,
        200,
        'health needs no token',
      );
    } finally {
      await tokenSandbox.stop();
    }
  });
});
