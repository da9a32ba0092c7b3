import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ToolHandler } from '@paddock/kube';
import { freePort } from '@paddock/testing';
import { discoverHandler, type ServiceObject } from '../src/toolregistry/index.js';

const declared = {
  name: 'add',
  description: 'Adds two numbers',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
};

let server: Server;
let port: number;
let downPort: number;
const seen: {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingHttpHeaders;
}[] = [];
const flakyCalls = new Map<string, number>();

before(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    seen.push({ method: request.method, url: path, headers: request.headers });
    if (path.startsWith('/slow')) return; // never answers
    if (path.startsWith('/flaky')) {
      const calls = (flakyCalls.get(path) ?? 0) + 1;
      flakyCalls.set(path, calls);
      // The first two requests lose their connection, as a restarting server's would.
      if (calls <= 2) return request.socket.destroy();
    }
    if (path.startsWith('/broken')) {
      response.writeHead(500).end('oops');
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"sum":3}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  downPort = await freePort();
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const httpHandler = (
  name: string,
  path: string,
  extra: Partial<ToolHandler> = {},
): ToolHandler => ({
  name,
  type: 'http',
  endpoint: { url: `http://127.0.0.1:${port}${path}` },
  tool: { ...declared, name: `${name}-tool` },
  ...extra,
});

const context = { namespace: 'team' };

describe('http tool discovery', () => {
  it('reports the declared tool Available when the endpoint answers, with the handler method and headers', async () => {
    const handler = httpHandler('calc', '/add', {
      httpConfig: {
        method: 'PUT',
        headers: { 'x-api-key': 'k1' },
        contentType: 'application/x-calc',
      },
    });
    const found = await discoverHandler(handler, context);
    assert.deepEqual(found, {
      handlerName: 'calc',
      tools: [
        {
          handlerName: 'calc',
          name: 'calc-tool',
          status: 'Available',
          endpoint: `http://127.0.0.1:${port}/add`,
        },
      ],
    });
    const request = seen.find((r) => r.url === '/add');
    assert.equal(request?.method, 'PUT');
    assert.equal(request?.headers['x-api-key'], 'k1');
    assert.equal(request?.headers['content-type'], 'application/x-calc');
  });

  it('counts any HTTP answer, even an error status, as the endpoint being up', async () => {
    const found = await discoverHandler(httpHandler('broken', '/broken'), context);
    assert.equal(found.tools[0]?.status, 'Available');
    assert.equal(seen.find((r) => r.url === '/broken')?.method, 'POST');
  });

  it('reports a refused connection as Unavailable with the reason', async () => {
    const found = await discoverHandler(
      { ...httpHandler('down', '/'), endpoint: { url: `http://127.0.0.1:${downPort}/` } },
      context,
    );
    assert.equal(found.tools.length, 1);
    assert.equal(found.tools[0]?.name, 'down-tool');
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /ECONNREFUSED/);
  });

  it('gives up on a slow endpoint after the handler timeout', async () => {
    const found = await discoverHandler(
      httpHandler('slow', '/slow', { timeout: '300ms' }),
      context,
    );
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.match(found.tools[0]?.error ?? '', /no answer in time/);
  });

  it('takes the timeout from httpConfig too', async () => {
    const found = await discoverHandler(
      httpHandler('slow2', '/slow2', { httpConfig: { timeout: '200ms' } }),
      context,
    );
    assert.match(found.tools[0]?.error ?? '', /no answer in time/);
  });

  it('retries a flaky endpoint and reports it Available once it answers', async () => {
    const found = await discoverHandler(httpHandler('flaky', '/flaky-a', { retries: 2 }), context);
    assert.equal(found.tools[0]?.status, 'Available');
    assert.equal(flakyCalls.get('/flaky-a'), 3);
  });

  it('reports a flaky endpoint Unavailable when the retries run out first', async () => {
    const found = await discoverHandler(
      httpHandler('flaky', '/flaky-b', { httpConfig: { retries: 1 } }),
      context,
    );
    assert.equal(found.tools[0]?.status, 'Unavailable');
    assert.equal(flakyCalls.get('/flaky-b'), 2);
    assert.match(found.tools[0]?.error ?? '', /fetch failed/);
  });

  it('reaches a serviceRef through the Service cluster address', async () => {
    const services: ServiceObject[] = [
      {
        metadata: { name: 'calc', namespace: 'team' },
        spec: { clusterIP: '127.0.0.1', ports: [{ port }] },
      },
    ];
    const handler: ToolHandler = {
      name: 'ref',
      type: 'http',
      endpoint: { serviceRef: { name: 'calc', port } },
      tool: declared,
    };
    const found = await discoverHandler(handler, { namespace: 'team', services });
    assert.deepEqual(found.tools, [
      {
        handlerName: 'ref',
        name: 'add',
        status: 'Available',
        endpoint: `http://127.0.0.1:${port}`,
      },
    ]);
  });

  it('refuses a serviceRef into another namespace unless allowed, reporting it Unknown', async () => {
    const handler: ToolHandler = {
      name: 'cross',
      type: 'http',
      endpoint: { serviceRef: { name: 'calc', namespace: 'other', port } },
      tool: declared,
    };
    const found = await discoverHandler(handler, context);
    assert.equal(found.tools[0]?.status, 'Unknown');
    assert.match(found.tools[0]?.error ?? '', /cross-namespace references are not allowed/);
  });

  it('discovers one tool per selected Service, each probed at its annotated path', async () => {
    const tool = (
      name: string,
      labels: Record<string, string>,
      annotations: Record<string, string>,
      servicePort: number,
    ): ServiceObject => ({
      metadata: {
        name,
        namespace: 'team',
        labels: { 'paddock.dev/tool': 'true', ...labels },
        annotations,
      },
      spec: { clusterIP: '127.0.0.1', ports: [{ port: servicePort }] },
    });
    const services = [
      tool(
        'weather',
        { team: 'a' },
        { 'paddock.dev/tool-path': '/weather', 'paddock.dev/tool-description': 'Weather' },
        port,
      ),
      tool('stocks', { team: 'a' }, {}, downPort),
      tool('other-team', { team: 'b' }, {}, port),
    ];
    const handler: ToolHandler = {
      name: 'found',
      type: 'http',
      selector: { matchLabels: { team: 'a' } },
    };
    const found = await discoverHandler(handler, { namespace: 'team', services });
    assert.deepEqual(
      found.tools.map((t) => [t.name, t.status, t.endpoint]),
      [
        ['stocks', 'Unavailable', `http://127.0.0.1:${downPort}/`],
        ['weather', 'Available', `http://127.0.0.1:${port}/weather`],
      ],
    );
    assert.ok(seen.some((r) => r.url === '/weather'));
  });
});
