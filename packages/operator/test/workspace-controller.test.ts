import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { logMailer, silentLogger } from '@paddock/common';
import {
  CORE_KINDS,
  ForbiddenError,
  InvalidError,
  KINDS,
  Kube,
  NotFoundError,
  type KubeObject,
  type Workspace,
  type WorkspaceSpec,
  installCrds,
} from '@paddock/kube';
import { countingWrites } from './support/counted-writes.js';
import { WorkspaceController } from '../src/controllers/workspace-controller.js';
import { operatorEventRecorder } from '../src/runtime/events.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import {
  eventuallyOk as eventually,
  startEmbeddedCluster,
  type EmbeddedCluster,
} from '@paddock/testing';

interface Labelled extends KubeObject {
  metadata: NonNullable<KubeObject['metadata']> & { name: string };
}

const workspaceKind = KINDS.find((k) => k.kind === 'Workspace') as (typeof KINDS)[number];

let cluster: EmbeddedCluster;
let kube: Kube;
let controller: WorkspaceController;
/** How far the controller's clock runs ahead of the real one: expiry is reached by moving it. */
let clockAhead = 0;
/** Write requests the controller sent, by path. */
const writes: string[] = [];

const workspaces = () => kube.resource<Workspace>(workspaceKind);
const namespaces = () => kube.resource<Labelled>(CORE_KINDS.namespace);

function workspace(name: string, spec: Partial<WorkspaceSpec> = {}): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
    spec: { displayName: name, namespace: { name: `ns-${name}`, create: true }, ...spec },
  };
}

async function readyWorkspace(name: string): Promise<Workspace> {
  return eventually(`${name} Ready`, async () => {
    const found = await workspaces().get(name);
    const ready = found.status?.conditions?.find((c) => c.type === 'Ready');
    return found.status?.phase === 'Ready' &&
      ready?.status === 'True' &&
      found.status.observedGeneration === found.metadata.generation
      ? found
      : undefined;
  });
}

async function gone(what: string, read: () => Promise<unknown>): Promise<void> {
  await eventually(what, async () => {
    try {
      await read();
      return undefined;
    } catch (err) {
      if (err instanceof NotFoundError) return true;
      throw err;
    }
  });
}

async function update(name: string, change: (spec: WorkspaceSpec) => WorkspaceSpec) {
  await eventually(`${name} updated`, async () => {
    const found = await workspaces().get(name);
    await workspaces().replace({ ...found, spec: change(found.spec) });
    return true;
  });
}

before(async () => {
  cluster = await startEmbeddedCluster();
  kube = cluster.kube;
  await installCrds(kube);
  // The controller's own client, counting its writes: idempotence is measured on it.
  const counted = countingWrites(new Kube(kube.config), writes);
  controller = new WorkspaceController({
    kube: counted,
    recorder: operatorEventRecorder(kube),
    metrics: new OperatorMetrics({ processMetrics: false }),
    logger: silentLogger(),
    mailer: logMailer(silentLogger()),
    platformNamespace: 'paddock-system',
    now: () => Date.now() + clockAhead,
  });
  await controller.start();
});

after(async () => {
  await controller.stop();
  await cluster.stop();
});

describe('the Workspace controller', () => {
  it('creates the namespace with its labels and annotations, reserved keys refused at admission', async () => {
    await assert.rejects(
      workspaces().create(
        workspace('reserved', {
          namespace: { name: 'ns-reserved', labels: { 'paddock.dev/shared': 'true' } },
        }),
      ),
      InvalidError,
    );
    await workspaces().create(
      workspace('alpha', {
        environment: 'staging',
        defaultTags: { team: 'blue' },
        namespace: {
          name: 'ns-alpha',
          create: true,
          labels: { tier: 'gold' },
          annotations: { contact: 'ops@example.com' },
        },
      }),
    );
    const ready = await readyWorkspace('alpha');
    assert.deepEqual(ready.status?.namespace, { name: 'ns-alpha', created: true });
    assert.deepEqual(
      ready.status?.conditions?.map((c) => [c.type, c.status]),
      [
        ['Ready', 'True'],
        ['NamespaceReady', 'True'],
        ['ServiceAccountsReady', 'True'],
        ['RoleBindingsReady', 'True'],
      ],
    );
    assert.ok(ready.metadata.finalizers?.includes('paddock.dev/workspace-cleanup'));
    const ns = await namespaces().get('ns-alpha');
    assert.equal(ns.metadata.labels?.tier, 'gold');
    assert.equal(ns.metadata.labels?.team, 'blue');
    assert.equal(ns.metadata.labels?.['paddock.dev/environment'], 'staging');
    assert.equal(ns.metadata.labels?.['paddock.dev/workspace'], 'alpha');
    assert.equal(ns.metadata.labels?.['paddock.dev/shared'], undefined);
    assert.equal(ns.metadata.annotations?.contact, 'ops@example.com');
  });

  it('removes from the namespace the labels and annotations removed from the spec, only those', async () => {
    await namespaces().patch('ns-alpha', { metadata: { labels: { 'set-by': 'someone-else' } } });
    await update('alpha', (spec) => ({
      ...spec,
      defaultTags: {},
      namespace: { ...spec.namespace, labels: { tier: 'silver' }, annotations: {} },
    }));
    const ns = await eventually('the team tag and the contact removed', async () => {
      const found = await namespaces().get('ns-alpha');
      return found.metadata.labels?.team === undefined &&
        found.metadata.annotations?.contact === undefined
        ? found
        : undefined;
    });
    assert.equal(ns.metadata.labels?.tier, 'silver');
    assert.equal(ns.metadata.labels?.['set-by'], 'someone-else');
    assert.equal(ns.metadata.labels?.['paddock.dev/workspace'], 'alpha');
  });

  it('makes the three ServiceAccounts and binds groups, ServiceAccounts and direct grants', async () => {
    // An hour away: never reached while the test runs, however slow, until the clock is moved.
    const expires = new Date(Date.now() + 3_600_000).toISOString();
    await workspaces().create(
      workspace('beta', {
        roleBindings: [
          { role: 'editor', groups: ['devs', 'qa'] },
          { role: 'viewer', serviceAccounts: [{ name: 'ci', namespace: 'tools' }] },
        ],
        directGrants: [
          { user: 'ann@example.com', role: 'owner' },
          { user: 'temp@example.com', role: 'editor', expires },
        ],
      }),
    );
    const ready = await readyWorkspace('beta');
    assert.deepEqual(ready.status?.serviceAccounts, {
      owner: 'workspace-owner',
      editor: 'workspace-editor',
      viewer: 'workspace-viewer',
    });
    assert.deepEqual(ready.status?.members, { owners: 1, editors: 3, viewers: 1 });
    const accounts = await kube
      .resource<Labelled>(CORE_KINDS.serviceAccount)
      .list({ namespace: 'ns-beta', labelSelector: 'paddock.dev/workspace=beta' });
    assert.deepEqual(accounts.items.map((a) => a.metadata.name).sort(), [
      'workspace-editor',
      'workspace-owner',
      'workspace-viewer',
    ]);
    const bindings = async () =>
      (
        await kube
          .resource<Labelled & { subjects: { name: string }[] }>(CORE_KINDS.roleBinding)
          .list({ namespace: 'ns-beta', labelSelector: 'paddock.dev/workspace=beta' })
      ).items.flatMap((b) => b.subjects.map((s) => s.name));
    const subjects = await bindings();
    for (const name of ['devs', 'qa', 'ci', 'ann@example.com', 'temp@example.com']) {
      assert.ok(subjects.includes(name), `${name} is bound`);
    }

    // The temporary grant's binding goes at its expiry, and the member count drops.
    clockAhead = 3_600_000 + 60_000;
    await controller.reconcile('beta');
    await eventually('the expired grant removed', async () =>
      (await bindings()).includes('temp@example.com') ? undefined : true,
    );
    const after = await eventually('members recounted', async () => {
      const found = await workspaces().get('beta');
      return found.status?.members?.editors === 2 ? found : undefined;
    });
    assert.deepEqual(after.status?.members, { owners: 1, editors: 2, viewers: 1 });
  });

  it('gives workspace-editor write access in the namespace and workspace-viewer none', async () => {
    const write = async (account: string, name: string) => {
      const { token } = await kube.requestToken('ns-beta', account);
      return kube
        .as(token)
        .resource(CORE_KINDS.configMap)
        .create({ metadata: { name, namespace: 'ns-beta' } });
    };
    await assert.rejects(write('workspace-viewer', 'from-viewer'), ForbiddenError);
    await write('workspace-editor', 'from-editor');
    await kube.resource(CORE_KINDS.configMap).get('from-editor', 'ns-beta');
  });

  it('applies the ResourceQuota and the isolation NetworkPolicy, and removes the policy when isolation turns off', async () => {
    await workspaces().create(
      workspace('gamma', {
        quotas: {
          compute: { requests: { cpu: '2', memory: '4Gi' } },
          objects: { configmaps: 20 },
          agents: { maxAgentRuntimes: 3 },
        },
        networkPolicy: { isolate: true },
      }),
    );
    const ready = await readyWorkspace('gamma');
    assert.equal(ready.status?.networkPolicy?.name, 'workspace-gamma-isolation');
    assert.equal(ready.status?.networkPolicy?.enabled, true);
    assert.ok((ready.status?.networkPolicy?.rulesCount ?? 0) >= 6);
    assert.ok(ready.status?.conditions?.some((c) => c.type === 'NetworkPolicyReady'));
    const quota = await kube
      .resource<Labelled & { spec: { hard: Record<string, string> } }>(CORE_KINDS.resourceQuota)
      .get('workspace-quota', 'ns-gamma');
    assert.deepEqual(quota.spec.hard, {
      'requests.cpu': '2',
      'requests.memory': '4Gi',
      configmaps: '20',
      'count/agentruntimes.paddock.dev': '3',
    });
    const policies = kube.resource(CORE_KINDS.networkPolicy);
    await policies.get('workspace-gamma-isolation', 'ns-gamma');
    await policies.get('workspace-gamma-agent-pods', 'ns-gamma');

    await update('gamma', (spec) => ({ ...spec, networkPolicy: { isolate: false } }));
    await gone('the isolation policy removed', () =>
      policies.get('workspace-gamma-isolation', 'ns-gamma'),
    );
    await gone('the agent pods policy removed', () =>
      policies.get('workspace-gamma-agent-pods', 'ns-gamma'),
    );
    const after = await readyWorkspace('gamma');
    assert.equal(after.status?.networkPolicy?.enabled, false);
    assert.ok(!after.status?.conditions?.some((c) => c.type === 'NetworkPolicyReady'));
  });

  it('makes no write when a pass finds nothing to change', async () => {
    await readyWorkspace('gamma');
    // Settled: the controller's own passes are done, so every write counted next is ours.
    await controller['queue'].idle();
    const before = writes.length;
    await controller.reconcile('gamma');
    await controller.reconcile('alpha');
    assert.deepEqual(writes.slice(before), []);
  });

  it('reports NamespaceConflict for a second Workspace naming the same namespace', async () => {
    await workspaces().create(
      workspace('delta', { namespace: { name: 'ns-alpha', create: true } }),
    );
    const conflicted = await eventually('the conflict reported', async () => {
      const found = await workspaces().get('delta');
      return found.status?.phase === 'Error' ? found : undefined;
    });
    const condition = conflicted.status?.conditions?.find((c) => c.type === 'NamespaceReady');
    assert.equal(condition?.reason, 'NamespaceConflict');
    await workspaces().delete('delta');
    await gone('delta deleted', () => workspaces().get('delta'));
    // Deleting the losing Workspace leaves the winner's namespace alone.
    assert.equal(
      (await namespaces().get('ns-alpha')).metadata.labels?.['paddock.dev/workspace'],
      'alpha',
    );
  });

  it('adopts an existing namespace and leaves it in place when the Workspace is deleted', async () => {
    await namespaces().create({ metadata: { name: 'ns-existing', labels: { keep: 'me' } } });
    await workspaces().create(workspace('epsilon', { namespace: { name: 'ns-existing' } }));
    const ready = await readyWorkspace('epsilon');
    assert.deepEqual(ready.status?.namespace, { name: 'ns-existing', created: false });
    assert.equal(
      ready.status?.conditions?.find((c) => c.type === 'NamespaceReady')?.reason,
      'NamespaceAdopted',
    );
    await workspaces().delete('epsilon');
    await gone('epsilon deleted', () => workspaces().get('epsilon'));
    const ns = await namespaces().get('ns-existing');
    assert.equal(ns.metadata.deletionTimestamp, undefined);
    assert.equal(ns.metadata.labels?.keep, 'me');
    assert.equal(ns.metadata.labels?.['paddock.dev/workspace'], undefined);
    await assert.rejects(
      kube.resource(CORE_KINDS.serviceAccount).get('workspace-owner', 'ns-existing'),
      NotFoundError,
    );
  });

  it('deletes the namespace it created when the Workspace is deleted', async () => {
    await workspaces().delete('alpha');
    await gone('alpha deleted', () => workspaces().get('alpha'));
    await eventually('ns-alpha going', async () => {
      try {
        const ns = await namespaces().get('ns-alpha');
        return ns.metadata.deletionTimestamp === undefined ? undefined : true;
      } catch (err) {
        if (err instanceof NotFoundError) return true;
        throw err;
      }
    });
  });
});
