import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolHandler, ToolRegistry } from '@paddock/kube';
import type { CallableTool, HandlerTools } from '@paddock/tool-handlers';
import {
  MAX_CACHED_DISCOVERIES,
  MIN_REDISCOVERY_MS,
  registryDiscovery,
  STDIO_NOT_RUN,
  TOOL_DISCOVERY_TTL_MS,
  ToolDiscoveries,
  type RegistryDiscovery,
} from '../src/workspaces/tool-discovery.js';

const handler = (name: string, extra: Partial<ToolHandler> = {}): ToolHandler => ({
  name,
  type: 'http',
  ...extra,
});

const callable = (handlerName: string, name: string): CallableTool => ({
  handlerName,
  name,
  description: `${name} does things`,
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  target: {
    type: 'http',
    url: 'http://h',
    method: 'POST',
    headers: {},
    contentType: 'application/json',
    timeoutMs: 1000,
  },
});

const available = (handlerName: string, name: string): HandlerTools => ({
  handlerName,
  tools: [{ handlerName, name, status: 'Available', endpoint: `http://${handlerName}` }],
  callable: [callable(handlerName, name)],
});

const registry = (generation = 1, status?: ToolRegistry['status']): ToolRegistry =>
  ({
    metadata: { name: 'tools', namespace: 'ns', generation },
    spec: { handlers: [] },
    ...(status ? { status } : {}),
  }) as unknown as ToolRegistry;

describe('registryDiscovery', () => {
  it('lists each tool with its description and schema, and each handler as reached or not', () => {
    const seen = registryDiscovery(
      registry(),
      [
        { handler: handler('search'), found: available('search', 'search') },
        {
          handler: handler('down'),
          found: {
            handlerName: 'down',
            tools: [
              {
                handlerName: 'down',
                name: 'down',
                status: 'Unavailable',
                endpoint: 'http://127.0.0.1:9',
                error: 'connect ECONNREFUSED 127.0.0.1:9',
              },
            ],
            callable: [],
          },
        },
      ],
      '2026-01-01T00:00:00.000Z',
    );
    assert.deepEqual(seen.tools, [
      {
        handlerName: 'search',
        name: 'search',
        status: 'Available',
        endpoint: 'http://search',
        error: null,
        description: 'search does things',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        callable: true,
      },
      {
        handlerName: 'down',
        name: 'down',
        status: 'Unavailable',
        endpoint: 'http://127.0.0.1:9',
        error: 'connect ECONNREFUSED 127.0.0.1:9',
        description: null,
        inputSchema: null,
        callable: false,
      },
    ]);
    assert.deepEqual(seen.handlers, [
      { name: 'search', type: 'http', state: 'reached', error: null },
      { name: 'down', type: 'http', state: 'failed', error: 'connect ECONNREFUSED 127.0.0.1:9' },
    ]);
    assert.deepEqual([...seen.callable.keys()], ['search']);
  });

  it('leaves a name a later handler offers again to the first, as the status does', () => {
    const seen = registryDiscovery(
      registry(),
      [
        { handler: handler('one'), found: available('one', 'search') },
        { handler: handler('two'), found: available('two', 'search') },
      ],
      '2026-01-01T00:00:00.000Z',
    );
    assert.deepEqual(
      seen.tools.map((t) => [t.handlerName, t.status, t.callable, t.error]),
      [
        ['one', 'Available', true, null],
        ['two', 'Unavailable', false, 'duplicate tool name: already offered by handler one'],
      ],
    );
    assert.equal(seen.callable.get('search')?.handlerName, 'one');
  });

  it('lists a stdio handler’s tools from the status, never run, never callable', () => {
    const seen = registryDiscovery(
      registry(1, {
        discoveredTools: [{ handlerName: 'local', name: 'ls', status: 'Available' }],
      }),
      [{ handler: handler('local', { type: 'mcp' }), found: undefined }],
      '2026-01-01T00:00:00.000Z',
    );
    assert.deepEqual(seen.handlers, [
      { name: 'local', type: 'mcp', state: 'skipped', error: STDIO_NOT_RUN },
    ]);
    assert.deepEqual(
      seen.tools.map((t) => [t.name, t.status, t.callable, t.inputSchema, t.error]),
      [['ls', 'Available', false, null, STDIO_NOT_RUN]],
    );
    assert.equal(seen.callable.size, 0);
  });

  it('says a handler that offers nothing offers no tools', () => {
    const seen = registryDiscovery(
      registry(),
      [{ handler: handler('empty'), found: { handlerName: 'empty', tools: [], callable: [] } }],
      '2026-01-01T00:00:00.000Z',
    );
    assert.deepEqual(seen.handlers[0]?.error, 'the handler offers no tools');
  });
});

describe('ToolDiscoveries', () => {
  const discovery = (at: string): RegistryDiscovery => ({
    tools: [],
    handlers: [],
    discoveredAt: at,
    callable: new Map(),
  });

  it('reuses a discovery for TOOL_DISCOVERY_TTL_MS, unless asked afresh or the spec changed', async () => {
    let now = 0;
    let made = 0;
    const cache = new ToolDiscoveries(() => now);
    const discover = () => Promise.resolve(discovery(String(++made)));
    assert.equal((await cache.get('ns', registry(1), discover)).discoveredAt, '1');
    now = TOOL_DISCOVERY_TTL_MS - 1;
    assert.equal((await cache.get('ns', registry(1), discover)).discoveredAt, '1');
    assert.equal((await cache.get('ns', registry(1), discover, true)).discoveredAt, '2');
    // Asked afresh again at once: the one just made answers.
    now += MIN_REDISCOVERY_MS - 1;
    assert.equal((await cache.get('ns', registry(1), discover, true)).discoveredAt, '2');
    assert.equal((await cache.get('ns', registry(2), discover)).discoveredAt, '3');
    now += TOOL_DISCOVERY_TTL_MS;
    assert.equal((await cache.get('ns', registry(2), discover)).discoveredAt, '4');
    assert.equal((await cache.get('other', registry(2), discover)).discoveredAt, '5');
  });

  it('shares one discovery between concurrent requests, and keeps no failure', async () => {
    const cache = new ToolDiscoveries(() => 0);
    let made = 0;
    let release!: () => void;
    const slow = () =>
      new Promise<RegistryDiscovery>((resolve) => {
        made++;
        release = () => resolve(discovery('slow'));
      });
    const both = Promise.all([
      cache.get('ns', registry(), slow),
      cache.get('ns', registry(), slow),
    ]);
    release();
    await both;
    assert.equal(made, 1);

    const failing = new ToolDiscoveries(() => 0);
    await assert.rejects(failing.get('ns', registry(), () => Promise.reject(new Error('no'))));
    assert.equal(
      (await failing.get('ns', registry(), () => Promise.resolve(discovery('ok')))).discoveredAt,
      'ok',
    );
  });

  it('keeps at most MAX_CACHED_DISCOVERIES registries, dropping the oldest', async () => {
    const cache = new ToolDiscoveries(() => 0);
    let made = 0;
    const discover = () => Promise.resolve(discovery(String(++made)));
    for (let i = 0; i <= MAX_CACHED_DISCOVERIES; i++)
      await cache.get(`ns${i}`, registry(), discover);
    assert.equal(made, MAX_CACHED_DISCOVERIES + 1);
    await cache.get(`ns${MAX_CACHED_DISCOVERIES}`, registry(), discover);
    assert.equal(made, MAX_CACHED_DISCOVERIES + 1, 'the newest is kept');
    await cache.get('ns0', registry(), discover);
    assert.equal(made, MAX_CACHED_DISCOVERIES + 2, 'the oldest was dropped');
  });
});
