import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '@paddock/common';
import {
  CORE_KINDS,
  Informer,
  KINDS,
  type KubeEvent,
  type KubeObject,
  type ResourceClient,
  type ToolHandler,
  type ToolRegistry,
  type ToolRegistryStatus,
  installCrds,
} from '@paddock/kube';
import {
  eventually,
  freePort,
  SANDBOX_BIN as SANDBOX,
  start,
  tempDir,
  type Started,
} from '@paddock/testing';
import { ToolRegistryController } from '../src/controllers/tool-registry-controller.js';
import type { Service } from '../src/controllers/tool-registry/service-address.js';
import { operatorEventRecorder } from '../src/runtime/events.js';
import { METRIC_NAMES, OperatorMetrics } from '../src/runtime/metrics.js';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';

const toolRegistryKind = KINDS.find((k) => k.kind === 'ToolRegistry')!;

let cluster: EmbeddedCluster;
let registries: ResourceClient<ToolRegistry>;
let services: ResourceClient<Service>;
let controller: ToolRegistryController | undefined;
let metrics: OperatorMetrics;
let server: Server;
let up: string;
let upPort: number;
let down: string;
let downPort: number;
let workspace: Awaited<ReturnType<typeof tempDir>>;
let sandbox: Started;
let sandboxBase: string;
/** Lets the answers of /slow go: they wait until the test has seen the Pending status. */
let releaseSlow = (): void => {};
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));

const declared = (name: string) => ({
  name,
  description: `The ${name} tool`,
  inputSchema: { type: 'object' },
});

const httpHandler = (name: string, url: string): ToolHandler => ({
  name,
  type: 'http',
  endpoint: { url },
  tool: declared(`${name}-tool`),
  timeout: '3s',
  retries: 0,
});

function startController(rediscoverMs: number): ToolRegistryController {
  metrics = new OperatorMetrics({ processMetrics: false });
  const started = new ToolRegistryController({
    kube: cluster.kube,
    recorder: operatorEventRecorder(cluster.kube),
    metrics,
    logger: silentLogger(),
    allowStdio: false,
    allowCrossNamespace: false,
    rediscoverMs,
    workers: 2,
  });
  controller = started;
  return started;
}

async function reconciles(): Promise<number> {
  const metric = metrics.registry.getSingleMetric(METRIC_NAMES.reconciles);
  const { values } = (await metric?.get()) ?? { values: [] };
  return values
    .filter((v) => v.labels['controller'] === 'toolregistry')
    .reduce((sum, v) => sum + v.value, 0);
}

async function createNamespace(name: string): Promise<void> {
  await cluster.kube.resource<KubeObject>(CORE_KINDS.namespace).create({ metadata: { name } });
}

async function createRegistry(
  namespace: string,
  name: string,
  handlers: ToolHandler[],
): Promise<ToolRegistry> {
  return registries.create({
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'ToolRegistry',
    metadata: { name, namespace },
    spec: { handlers },
  });
}

/** The registry once its status satisfies `check` for its current generation. */
async function settled(
  namespace: string,
  name: string,
  check: (status: ToolRegistryStatus) => boolean,
): Promise<ToolRegistry> {
  let last: ToolRegistry | undefined;
  try {
    return await eventually(
      `ToolRegistry ${namespace}/${name}`,
      async () => {
        last = await registries.get(name, namespace);
        const status = last.status;
        return status !== undefined &&
          status.observedGeneration === last.metadata.generation &&
          check(status)
          ? last
          : undefined;
      },
      20_000,
      50,
    );
  } catch (err) {
    throw new Error(`${String(err)}; last status: ${JSON.stringify(last?.status)}`);
  }
}

const toolNamed = (status: ToolRegistryStatus | undefined, name: string) =>
  status?.discoveredTools?.find((t) => t.name === name);

before(async () => {
  server = createServer((request, response) => {
    const answer = () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    // A slow tool keeps discovery going until the test has seen Pending.
    if (request.url?.startsWith('/slow') === true) void slowReleased.then(answer);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upPort = (server.address() as AddressInfo).port;
  up = `http://127.0.0.1:${upPort}`;
  downPort = await freePort();
  down = `http://127.0.0.1:${downPort}`;

  workspace = await tempDir('paddock-registry-sandbox-');
  sandbox = start(process.execPath, [
    SANDBOX,
    '-addr',
    '127.0.0.1:0',
    '-workspace',
    workspace.path,
  ]);
  const [, addr] = await sandbox.waitForOutput(/"addr":"(127\.0\.0\.1:\d+)"/, 30_000);
  sandboxBase = `http://${addr}`;

  cluster = await startEmbeddedCluster();
  await installCrds(cluster.kube);
  registries = cluster.kube.resource<ToolRegistry>(toolRegistryKind);
  services = cluster.kube.resource<Service>(CORE_KINDS.service);
  // Periodic re-discovery is kept out of the way here; the last test runs a controller with it.
  await startController(60_000).start();
});

after(async () => {
  await controller?.stop();
  await cluster?.stop();
  await sandbox?.stop();
  await workspace?.remove();
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

describe('the ToolRegistry controller', () => {
  it('reports Ready with the tool Available when its http server answers', async () => {
    await createNamespace('tools-up');
    await createRegistry('tools-up', 'one', [httpHandler('adder', `${up}/add`)]);
    const registry = await settled('tools-up', 'one', (s) => s.phase === 'Ready');
    const status = registry.status!;
    assert.equal(status.discoveredToolsCount, 1);
    assert.equal(status.availableToolsCount, 1);
    assert.deepEqual(
      status.discoveredTools?.map((t) => [t.handlerName, t.name, t.status, t.endpoint]),
      [['adder', 'adder-tool', 'Available', `${up}/add`]],
    );
    const conditions = Object.fromEntries(
      (status.conditions ?? []).map((c) => [c.type, [c.status, c.observedGeneration]]),
    );
    assert.deepEqual(conditions, {
      HandlersAvailable: ['True', registry.metadata.generation],
      AllHandlersReady: ['True', registry.metadata.generation],
    });
  });

  it('reports Degraded when one handler is down, which alone is Unavailable', async () => {
    await createNamespace('tools-half');
    await createRegistry('tools-half', 'half', [
      httpHandler('alive', `${up}/alive`),
      httpHandler('dead', `${down}/dead`),
    ]);
    const { status } = await settled('tools-half', 'half', (s) => s.phase === 'Degraded');
    assert.equal(status?.availableToolsCount, 1);
    assert.equal(toolNamed(status, 'alive-tool')?.status, 'Available');
    const dead = toolNamed(status, 'dead-tool');
    assert.equal(dead?.status, 'Unavailable');
    assert.match(dead?.error ?? '', /\S/);
    const events = await cluster.kube
      .resource<KubeEvent>(CORE_KINDS.event)
      .list({ namespace: 'tools-half' });
    const warning = events.items.find((e) => e.reason === 'RegistryDegraded');
    assert.equal(warning?.type, 'Warning');
    assert.equal(warning.involvedObject.name, 'half');
    assert.match(warning.message ?? '', /1 of 2 tools available/);
  });

  it('reports Failed when every handler is down', async () => {
    await createNamespace('tools-down');
    await createRegistry('tools-down', 'none', [
      httpHandler('first', `${down}/a`),
      httpHandler('second', `${down}/b`),
    ]);
    const { status } = await settled('tools-down', 'none', (s) => s.phase === 'Failed');
    assert.equal(status?.availableToolsCount, 0);
    assert.ok(status?.discoveredTools?.every((t) => t.status === 'Unavailable'));
    const available = status?.conditions?.find((c) => c.type === 'HandlersAvailable');
    assert.equal(available?.status, 'False');
    assert.equal(available.reason, 'NoHandlersAvailable');
  });

  it('finds labelled Services through a selector, and follows them as they change', async () => {
    await createNamespace('tools-selected');
    await createRegistry('tools-selected', 'selected', [
      {
        name: 'search',
        type: 'http',
        selector: { matchLabels: { team: 'search' } },
        tool: declared('template'),
        timeout: '3s',
        retries: 0,
      },
      { ...httpHandler('by-ref', ''), endpoint: { serviceRef: { name: 'finder', port: upPort } } },
      {
        ...httpHandler('elsewhere', ''),
        endpoint: { serviceRef: { name: 'finder', namespace: 'tools-up', port: upPort } },
      },
    ]);
    // Before the Service exists, the serviceRef's cluster address leads nowhere.
    await settled(
      'tools-selected',
      'selected',
      (s) => toolNamed(s, 'by-ref-tool')?.status === 'Unavailable',
    );

    // Services of the embedded cluster are records only: an ExternalName Service is reached at its
    // external name, which is how one points at this test's server.
    await services.create({
      metadata: {
        name: 'finder',
        namespace: 'tools-selected',
        labels: { 'paddock.dev/tool': 'true', team: 'search' },
        annotations: {
          'paddock.dev/tool-path': '/search',
          'paddock.dev/tool-description': 'Finds things',
        },
      },
      spec: { type: 'ExternalName', externalName: '127.0.0.1', ports: [{ port: upPort }] },
    });
    const { status } = await settled(
      'tools-selected',
      'selected',
      (s) => toolNamed(s, 'finder')?.status === 'Available',
    );
    assert.deepEqual(toolNamed(status, 'finder'), {
      handlerName: 'search',
      name: 'finder',
      status: 'Available',
      endpoint: `${up}/search`,
    });
    assert.equal(toolNamed(status, 'by-ref-tool')?.status, 'Available');
    assert.equal(toolNamed(status, 'by-ref-tool')?.endpoint, up);
    const elsewhere = toolNamed(status, 'elsewhere-tool');
    assert.equal(elsewhere?.status, 'Unknown');
    assert.match(elsewhere?.error ?? '', /cross-namespace references are not allowed/);
    assert.equal(status?.phase, 'Degraded');
  });

  it("lists the nine tools of Paddock's sandbox over MCP SSE", async () => {
    await createNamespace('tools-mcp');
    await createRegistry('tools-mcp', 'sandbox', [
      {
        name: 'sandbox',
        type: 'mcp',
        mcpConfig: { transport: 'sse', endpoint: `${sandboxBase}/sse` },
        timeout: '10s',
      },
    ]);
    const { status } = await settled('tools-mcp', 'sandbox', (s) => s.phase === 'Ready');
    assert.equal(status?.discoveredToolsCount, 9);
    assert.equal(status?.availableToolsCount, 9);
    assert.ok(status?.discoveredTools?.every((t) => t.handlerName === 'sandbox'));
    assert.equal(new Set(status?.discoveredTools?.map((t) => t.name)).size, 9);
  });

  it('reports Pending while a new generation is discovered', async () => {
    await createNamespace('tools-pending');
    const phases: string[] = [];
    const watched = new Informer(registries, { namespace: 'tools-pending' }).start();
    watched.on((_event, registry) => {
      const phase = registry.status?.phase;
      if (phase !== undefined && phases.at(-1) !== phase) phases.push(phase);
    });
    try {
      await watched.synced;
      await createRegistry('tools-pending', 'slow', [httpHandler('slow', `${up}/slow`)]);
      await eventually('the Pending status watched', () =>
        phases.includes('Pending') ? true : undefined,
      );
      releaseSlow();
      await settled('tools-pending', 'slow', (s) => s.phase === 'Ready');
      await eventually('the Ready status watched', () =>
        phases.at(-1) === 'Ready' ? true : undefined,
      );
      assert.deepEqual(phases, ['Pending', 'Ready']);
    } finally {
      releaseSlow();
      watched.stop();
    }
  });

  it('discovers again when the spec changes', async () => {
    await createNamespace('tools-edit');
    const created = await createRegistry('tools-edit', 'edited', [
      httpHandler('moving', `${down}/x`),
    ]);
    await settled('tools-edit', 'edited', (s) => s.phase === 'Failed');
    const current = await registries.get('edited', 'tools-edit');
    await registries.replace({
      ...current,
      spec: { handlers: [httpHandler('moving', `${up}/x`), httpHandler('added', `${up}/y`)] },
    });
    const registry = await settled('tools-edit', 'edited', (s) => s.phase === 'Ready');
    assert.ok((registry.metadata.generation ?? 0) > (created.metadata.generation ?? 0));
    assert.deepEqual(
      registry.status?.discoveredTools?.map((t) => [t.name, t.endpoint]),
      [
        ['moving-tool', `${up}/x`],
        ['added-tool', `${up}/y`],
      ],
    );
  });

  it('leaves the status untouched when a requeue finds nothing new', async () => {
    await createNamespace('tools-steady');
    await createRegistry('tools-steady', 'steady', [
      httpHandler('steady', `${up}/steady`),
      {
        name: 'labelled',
        type: 'http',
        selector: {},
        tool: declared('template'),
        timeout: '3s',
        retries: 0,
      },
    ]);
    const settledOnce = await settled('tools-steady', 'steady', (s) => s.phase === 'Ready');
    const before = await reconciles();
    // A Service change requeues the registries that select in its namespace.
    await services.create({
      metadata: { name: 'unrelated', namespace: 'tools-steady' },
      spec: { ports: [{ port: 80 }] },
    });
    await eventually('a requeue', async () => ((await reconciles()) > before ? true : undefined));
    const after = await registries.get('steady', 'tools-steady');
    assert.equal(after.metadata.resourceVersion, settledOnce.metadata.resourceVersion);
  });

  it('re-discovers on its interval, writing only when something changed', async () => {
    await controller?.stop();
    const late = createServer((_request, response) => response.writeHead(204).end());
    await createNamespace('tools-later');
    await createRegistry('tools-later', 'later', [
      httpHandler('late', `${down}/late`),
      httpHandler('early', `${up}/early`),
    ]);
    await startController(200).start();
    await settled('tools-later', 'later', (s) => s.phase === 'Degraded');

    // The server comes up with no change to the registry: only the interval can notice.
    await new Promise<void>((resolve) => late.listen(downPort, '127.0.0.1', resolve));
    try {
      const ready = await settled('tools-later', 'later', (s) => s.phase === 'Ready');
      const before = await reconciles();
      await eventually('two more passes', async () =>
        (await reconciles()) >= before + 2 ? true : undefined,
      );
      const again = await registries.get('later', 'tools-later');
      assert.equal(again.metadata.resourceVersion, ready.metadata.resourceVersion);
    } finally {
      late.closeAllConnections();
      await new Promise((resolve) => late.close(resolve));
    }
  });
});
