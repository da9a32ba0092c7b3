import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { eventually, start, tempDir, type Started } from '@paddock/testing';
import {
  AlreadyExistsError,
  ConflictError,
  CORE_KINDS,
  ForbiddenError,
  Informer,
  InvalidError,
  KINDS,
  Kube,
  NotFoundError,
  UnauthorizedError,
  UnavailableError,
  loadKubeConfig,
  type KubeEvent,
  type KubeObject,
  type Workspace,
  installCrds,
} from '../src/index.js';

const CLUSTER_BIN = join(
  import.meta.dirname,
  '..',
  '..',
  'cluster-local',
  'bin',
  'paddock-cluster.js',
);
const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: Started;
let kube: Kube;
let kubeconfig: string;

function workspace(name: string, labels: Record<string, string> = {}): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name, labels },
    spec: {
      displayName: name,
      namespace: { name: `ns-${name}` },
      anonymousAccess: { enabled: false },
    },
  };
}

before(async () => {
  dir = await tempDir('paddock-kube-client-');
  kubeconfig = join(dir.path, 'kubeconfig');
  server = start(process.execPath, [
    CLUSTER_BIN,
    '--listen',
    '127.0.0.1:0',
    '--kubeconfig',
    kubeconfig,
  ]);
  await server.waitForOutput(/"addr":"127\.0\.0\.1:\d+"/, 30_000);
  kube = Kube.connect({ kubeconfig });
  await installCrds(kube);
});
after(async () => {
  kube.close();
  await server.stop();
  await dir.remove();
});

describe('the Kubernetes access layer', () => {
  it('finds the cluster from a kubeconfig, and says what to set when there is none', () => {
    assert.ok(loadKubeConfig({ kubeconfig }).getCurrentCluster()?.server.startsWith('https://'));
    assert.throws(
      () => loadKubeConfig({}, {}),
      (err: unknown) => err instanceof UnavailableError && /KUBECONFIG/.test(err.message),
    );
    assert.throws(
      () => loadKubeConfig({ kubeconfig: join(dir.path, 'missing') }),
      UnavailableError,
    );
  });

  it('creates, reads, lists by label, replaces, patches and deletes a custom resource with its defaults applied', async () => {
    const workspaces = kube.resource<Workspace>(workspaceKind);
    const created = await workspaces.create(workspace('alpha', { team: 'a' }));
    assert.equal(created.spec.namespace.create, false, 'the CRD default');
    assert.equal(created.metadata?.generation, 1);
    await workspaces.create(workspace('beta', { team: 'b' }));
    const teamA = await workspaces.list({ labelSelector: 'team=a' });
    assert.deepEqual(
      teamA.items.map((w) => w.metadata?.name),
      ['alpha'],
    );

    const fetched = await workspaces.get('alpha');
    fetched.spec.description = 'changed';
    const replaced = await workspaces.replace(fetched);
    assert.equal(replaced.metadata?.generation, 2);
    await assert.rejects(workspaces.replace(fetched), ConflictError, 'a stale resourceVersion');

    const patched = await workspaces.patch('alpha', { spec: { environment: 'staging' } });
    assert.equal(patched.spec.environment, 'staging');
    await workspaces.delete('beta');
    await assert.rejects(workspaces.get('beta'), NotFoundError);
  });

  it('writes status through its subresource without bumping the generation', async () => {
    const workspaces = kube.resource<Workspace>(workspaceKind);
    const object = await workspaces.create(workspace('gamma'));
    const withStatus = await workspaces.replaceStatus({
      ...object,
      status: { phase: 'Ready', observedGeneration: 1 },
    });
    assert.equal(withStatus.status?.phase, 'Ready');
    assert.equal(withStatus.metadata?.generation, object.metadata?.generation);
  });

  it('maps failures to typed errors', async () => {
    const workspaces = kube.resource<Workspace>(workspaceKind);
    await assert.rejects(workspaces.create(workspace('alpha')), AlreadyExistsError);
    const invalid = workspace('delta');
    (invalid.spec as { environment?: string }).environment = 'moon';
    await assert.rejects(
      workspaces.create(invalid),
      (err: unknown) => err instanceof InvalidError && /environment/.test(err.message),
    );
    const anonymous = Kube.connect({
      url: loadKubeConfig({ kubeconfig }).getCurrentCluster()!.server.replace('https:', 'http:'),
      token: 'nope',
    });
    await assert.rejects(anonymous.resource(workspaceKind).list(), UnauthorizedError);
    const down = Kube.connect({ url: 'http://127.0.0.1:1', token: 'x' });
    await assert.rejects(down.resource(workspaceKind).list(), UnavailableError);
  });

  it('keeps an informer in step with adds, updates and deletes', async () => {
    const workspaces = kube.resource<Workspace>(workspaceKind);
    const informer = new Informer(workspaces, { labelSelector: 'informed=yes' }).start();
    const seen: string[] = [];
    informer.on((event, object) => seen.push(`${event} ${object.metadata?.name}`));
    try {
      await informer.synced;
      await workspaces.create(workspace('watched', { informed: 'yes' }));
      await eventually('the add', () => (informer.get('watched') ? true : undefined));
      await workspaces.patch('watched', { spec: { description: 'updated' } });
      await eventually('the update', () =>
        informer.get('watched')?.spec.description === 'updated' ? true : undefined,
      );
      await workspaces.delete('watched');
      await eventually('the delete', () =>
        informer.get('watched') === undefined ? true : undefined,
      );
      assert.deepEqual(seen, ['add watched', 'update watched', 'delete watched']);
    } finally {
      informer.stop();
    }
  });

  it('streams watch events from a resourceVersion until the server ends the watch', async () => {
    const workspaces = kube.resource<Workspace>(workspaceKind);
    const from = (await workspaces.list({ limit: 1 })).metadata.resourceVersion;
    await workspaces.create(workspace('streamed'));
    const types: string[] = [];
    const ended = await new Promise<unknown>((resolve) => {
      void workspaces.watch(
        { ...(from === undefined ? {} : { resourceVersion: from }), timeoutSeconds: 1 },
        (event) => {
          if (event.type !== 'BOOKMARK') types.push(`${event.type} ${event.object.metadata?.name}`);
        },
        resolve,
      );
    });
    assert.ok(!ended, `the watch ended cleanly: ${String(ended)}`);
    assert.deepEqual(types, ['ADDED streamed']);
  });

  it('mints a ServiceAccount token that acts with exactly that account’s rights', async () => {
    const ns = 'tokens';
    await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: ns } });
    await kube
      .resource(CORE_KINDS.serviceAccount)
      .create({ metadata: { name: 'reader', namespace: ns } });
    await kube.resource(CORE_KINDS.role).create({
      metadata: { name: 'read-configmaps', namespace: ns },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }],
    } as KubeObject);
    await kube.resource(CORE_KINDS.roleBinding).create({
      metadata: { name: 'reader', namespace: ns },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-configmaps' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: ns }],
    } as KubeObject);
    const { token, expirationTimestamp } = await kube.requestToken(ns, 'reader', {
      expirationSeconds: 900,
    });
    assert.ok(Date.parse(expirationTimestamp) > Date.now() + 800_000);
    const reader = kube.as(token);
    // It may list: what it finds is at most the namespace's root CA, which the cluster publishes.
    assert.deepEqual(
      (await reader.resource(CORE_KINDS.configMap).list({ namespace: ns })).items
        .map((item) => item.metadata?.name)
        .filter((name) => name !== 'kube-root-ca.crt'),
      [],
    );
    await assert.rejects(
      reader.resource(CORE_KINDS.configMap).create({ metadata: { name: 'x', namespace: ns } }),
      ForbiddenError,
    );
    await assert.rejects(
      reader.resource(CORE_KINDS.configMap).list({ namespace: 'default' }),
      ForbiddenError,
    );
  });

  it('reads pod logs, follows them, and lists an object’s events', async () => {
    const ns = 'logs';
    await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: ns } });
    await kube.resource(CORE_KINDS.pod).create({
      metadata: { name: 'agent-0', namespace: ns },
      spec: { containers: [{ name: 'agent', image: 'paddock-sandbox:latest' }] },
    } as KubeObject);
    const logPath = `/api/v1/namespaces/${ns}/pods/agent-0/log`;
    await kube.rest.request('POST', logPath, {
      query: { container: 'agent' },
      body: 'line one\nline two\n',
      contentType: 'text/plain',
    });
    assert.equal(
      await kube.podLogs(ns, 'agent-0', { container: 'agent', tailLines: 1 }),
      'line two\n',
    );

    const followed = new PassThrough();
    let text = '';
    followed.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const stop = await kube.followPodLogs(ns, 'agent-0', 'agent', followed);
    try {
      await kube.rest.request('POST', logPath, {
        query: { container: 'agent' },
        body: 'line three\n',
        contentType: 'text/plain',
      });
      await eventually('the followed line', () => (text.includes('line three') ? true : undefined));
    } finally {
      stop();
    }

    for (const [reason, when] of [
      ['Scheduled', '2026-01-01T00:00:00Z'],
      ['Started', '2026-01-01T00:00:05Z'],
    ] as const) {
      await kube.resource<KubeEvent>(CORE_KINDS.event).create({
        metadata: { generateName: 'agent-0.', namespace: ns },
        involvedObject: { kind: 'Pod', name: 'agent-0', namespace: ns },
        reason,
        message: `${reason} the agent`,
        type: 'Normal',
        firstTimestamp: when,
        lastTimestamp: when,
      });
    }
    const events = await kube.eventsFor(ns, { name: 'agent-0', kind: 'Pod' });
    assert.deepEqual(
      events.map((e) => e.reason),
      ['Scheduled', 'Started'],
    );
  });

  it('keeps its keep-alive connections per client, shared with its token clients, and ends them on close', async () => {
    const own = Kube.connect({ kubeconfig });
    assert.equal(own.rest.agents.size, 0);
    await own.resource(CORE_KINDS.namespace).list();
    assert.equal(own.rest.agents.size, 1, 'one agent for the cluster’s TLS options');
    const { token } = await own.requestToken('tokens', 'reader');
    const reader = own.as(token);
    await reader.resource(CORE_KINDS.configMap).list({ namespace: 'tokens' });
    assert.equal(reader.rest.agents, own.rest.agents, 'a token client uses its parent’s pool');
    assert.equal(own.rest.agents.size, 1, 'and its connections');
    assert.notEqual(own.rest.agents, kube.rest.agents, 'another client has a pool of its own');

    reader.close();
    assert.equal(own.rest.agents.size, 1, 'a token client leaves the pool to its parent');
    own.close();
    assert.equal(own.rest.agents.size, 0);
    // A request after close still works, on a connection of its own that is not kept.
    await own.resource(CORE_KINDS.namespace).list();
    assert.equal(own.rest.agents.size, 0);
  });
});
