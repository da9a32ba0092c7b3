import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  API_VERSION,
  CORE_KINDS,
  installCrds,
  KINDS,
  type KubeObject,
  type ToolRegistry,
  type ToolRegistryStatus,
} from '@paddock/kube';
import {
  freePort,
  GREET_SCHEMA,
  startEchoHttpTool,
  startEmbeddedCluster,
  startGreeterMcp,
  type EmbeddedCluster,
  type ToolServer,
} from '@paddock/testing';
import {
  MAX_TOOL_NAME_LENGTH,
  modelToolNames,
  registryTools,
  type RegistryTools,
} from '../src/registry-tools.js';

const NAMESPACE = 'agent-registry-tools';

describe('names of registry tools for the model', () => {
  const long = 'a'.repeat(80);
  const cases: { name: string; entries: { registry: string; tool: string }[]; want: string[] }[] = [
    {
      name: 'joins registry and tool with a double underscore',
      entries: [{ registry: 'team-tools', tool: 'search' }],
      want: ['team-tools__search'],
    },
    {
      name: 'makes every other character an underscore',
      entries: [{ registry: 'web.tools', tool: 'get /pets/{id}' }],
      want: ['web_tools__get__pets__id_'],
    },
    {
      name: 'cuts a long registry name first, then the tool',
      entries: [
        { registry: long, tool: 'search' },
        { registry: 'r', tool: long },
        { registry: long, tool: long },
      ],
      want: [
        `${'a'.repeat(56)}__search`,
        `r__${'a'.repeat(61)}`,
        `${'a'.repeat(20)}__${'a'.repeat(42)}`,
      ],
    },
    {
      name: 'numbers names that would repeat, keeping them within the limit',
      entries: [
        { registry: 'x', tool: 'a.b' },
        { registry: 'x', tool: 'a_b' },
        { registry: 'x', tool: 'a b' },
        { registry: long, tool: long },
        { registry: long, tool: `${long}b` },
      ],
      want: [
        'x__a_b',
        'x__a_b_2',
        'x__a_b_3',
        `${'a'.repeat(20)}__${'a'.repeat(42)}`,
        `${'a'.repeat(20)}__${'a'.repeat(40)}_2`,
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const names = modelToolNames(c.entries);
      assert.deepEqual(names, c.want);
      for (const name of names) {
        assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
        assert.ok(name.length <= MAX_TOOL_NAME_LENGTH);
      }
    });
  }
});

const LOOKUP_SCHEMA = { type: 'object', properties: { term: { type: 'string' } } };

describe('the workspace registry tools, from the cluster', () => {
  let cluster: EmbeddedCluster;
  let mcp: ToolServer;
  let lookup: ToolServer;
  let found: RegistryTools | undefined;
  const greeted: unknown[] = [];
  const looked: string[] = [];

  before(async () => {
    [cluster, mcp, lookup] = await Promise.all([
      startEmbeddedCluster(),
      startGreeterMcp(greeted),
      startEchoHttpTool(looked),
    ]);
    await installCrds(cluster.kube);
    await cluster.kube
      .resource<KubeObject>(CORE_KINDS.namespace)
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    const registries = cluster.kube.resource<ToolRegistry>(
      KINDS.find((k) => k.kind === 'ToolRegistry')!,
    );
    const down = `http://127.0.0.1:${await freePort()}/lookup`;
    const create = async (name: string, spec: ToolRegistry['spec'], status: ToolRegistryStatus) => {
      const created = await registries.create({
        apiVersion: API_VERSION,
        kind: 'ToolRegistry',
        metadata: { name, namespace: NAMESPACE },
        spec,
      });
      await registries.replaceStatus({ ...created, status });
    };
    await create(
      'team-tools',
      {
        handlers: [
          {
            name: 'greeter',
            type: 'mcp',
            timeout: '5s',
            mcpConfig: { transport: 'sse', endpoint: `${mcp.url}/mcp` },
          },
          {
            name: 'lookup',
            type: 'http',
            endpoint: { url: `${lookup.url}/lookup` },
            tool: { name: 'lookup', description: 'Looks a term up', inputSchema: LOOKUP_SCHEMA },
          },
          {
            name: 'hidden',
            type: 'http',
            endpoint: { url: `${lookup.url}/hidden` },
            tool: { name: 'hidden', description: 'Not available', inputSchema: LOOKUP_SCHEMA },
          },
        ],
      },
      {
        phase: 'Degraded',
        discoveredTools: [
          { handlerName: 'greeter', name: 'greet', status: 'Available' },
          { handlerName: 'lookup', name: 'lookup', status: 'Available' },
          { handlerName: 'hidden', name: 'hidden', status: 'Unavailable', error: 'down' },
        ],
      },
    );
    await create(
      'gone-tools',
      {
        handlers: [
          {
            name: 'gone',
            type: 'http',
            timeout: '2s',
            endpoint: { url: down },
            tool: { name: 'gone', description: 'Went away', inputSchema: LOOKUP_SCHEMA },
          },
        ],
      },
      {
        phase: 'Ready',
        discoveredTools: [{ handlerName: 'gone', name: 'gone', status: 'Available' }],
      },
    );
  });

  after(async () => {
    await found?.close();
    await cluster?.stop();
    await Promise.all([mcp?.close(), lookup?.close()]);
  });

  it('offers the Available tools with their schemas, and says why others are missing', async () => {
    found = await registryTools({ kube: cluster.kube, namespace: NAMESPACE });
    assert.deepEqual(
      found.tools.map((tool) => [tool.name, tool.description, tool.inputSchema]),
      [
        ['team-tools__greet', 'Greets someone', GREET_SCHEMA],
        ['team-tools__lookup', 'Looks a term up', LOOKUP_SCHEMA],
      ],
    );
    assert.equal(found.problems.length, 1, found.problems.join('\n'));
    assert.match(
      found.problems[0] ?? '',
      /^ToolRegistry gone-tools, handler gone: gone: .*ECONNREFUSED/,
    );
  });

  it('calls each tool with its handler protocol', async () => {
    assert.ok(found !== undefined);
    const signal = new AbortController().signal;
    const [greet, look] = found.tools;
    assert.deepEqual(await greet?.call({ name: 'Ada' }, signal), {
      text: 'hello, Ada',
      isError: false,
    });
    assert.deepEqual(greeted, [{ name: 'Ada' }]);
    assert.deepEqual(await look?.call({ term: 'paddock' }, signal), {
      text: 'found {"term":"paddock"}',
      isError: false,
    });
    // The probe the discovery sent comes first; the call's body after it.
    assert.equal(looked.at(-1), '{"term":"paddock"}');
  });

  it('offers nothing in a namespace without ToolRegistries, and stops when the signal aborts', async () => {
    const none = await registryTools({ kube: cluster.kube, namespace: 'no-such-namespace' });
    assert.deepEqual([none.tools, none.problems], [[], []]);
    await none.close();
    await assert.rejects(
      registryTools({
        kube: cluster.kube,
        namespace: NAMESPACE,
        signal: AbortSignal.abort(new Error('run cancelled')),
      }),
      /run cancelled/,
    );
  });
});
