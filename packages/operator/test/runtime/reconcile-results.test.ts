import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { logMailer, silentLogger } from '@paddock/common';
import { CORE_KINDS, KINDS, installCrds, type KubeObject, type Workspace } from '@paddock/kube';
import {
  eventuallyOk as eventually,
  startEmbeddedCluster,
  type EmbeddedCluster,
} from '@paddock/testing';
import { ToolRegistryController } from '../../src/controllers/tool-registry-controller.js';
import { WorkspaceController } from '../../src/controllers/workspace-controller.js';
import { operatorEventRecorder } from '../../src/runtime/events.js';
import { METRIC_NAMES, OperatorMetrics } from '../../src/runtime/metrics.js';
import { desiredRoleBindings } from '../../src/workspace/role-bindings.js';

const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;
const toolRegistryKind = KINDS.find((k) => k.kind === 'ToolRegistry')!;
/** Any object, its fields beside metadata as they come. */
type AnyObject = KubeObject & Record<string, unknown>;

let cluster: EmbeddedCluster;
let controller: WorkspaceController;
let tools: ToolRegistryController;
const metrics = new OperatorMetrics({ processMetrics: false });

function workspace(name: string, namespace: string): Workspace {
  return {
    apiVersion: 'paddock.dev/v1alpha1',
    kind: 'Workspace',
    metadata: { name },
    spec: { displayName: name, namespace: { name: namespace, create: true } },
  };
}

/** A controller's reconciles counted with the result. */
async function reconciles(result: string, controller = 'workspace'): Promise<number> {
  const metric = metrics.registry.getSingleMetric(METRIC_NAMES.reconciles);
  const { values } = (await metric?.get()) ?? { values: [] };
  return values
    .filter((v) => v.labels['controller'] === controller && v.labels['result'] === result)
    .reduce((sum, v) => sum + v.value, 0);
}

const counted = (result: string, controller = 'workspace') =>
  eventually(`a ${controller} reconcile counted as ${result}`, async () =>
    (await reconciles(result, controller)) > 0 ? true : undefined,
  );

before(async () => {
  cluster = await startEmbeddedCluster();
  await installCrds(cluster.kube);
  controller = new WorkspaceController({
    kube: cluster.kube,
    recorder: operatorEventRecorder(cluster.kube),
    metrics,
    logger: silentLogger(),
    mailer: logMailer(silentLogger()),
    platformNamespace: 'paddock-system',
  });
  await controller.start();
  tools = new ToolRegistryController({
    kube: cluster.kube,
    recorder: operatorEventRecorder(cluster.kube),
    metrics,
    logger: silentLogger(),
    allowStdio: false,
    allowCrossNamespace: false,
    rediscoverMs: 60_000,
  });
  await tools.start();
});

after(async () => {
  await Promise.all([controller.stop(), tools.stop()]);
  await cluster.stop();
});

describe('paddock_operator_reconcile_total', () => {
  it('counts each result of real reconciles: success, requeue and error', async () => {
    const workspaces = cluster.kube.resource<Workspace>(workspaceKind);
    // A Workspace the controller can make whole: success.
    await workspaces.create(workspace('fine', 'ns-fine'));
    await counted('success');

    // A second Workspace naming the same namespace waits for it: a requeue.
    await workspaces.create(workspace('second', 'ns-fine'));
    await counted('requeue');

    // A RoleBinding the controller must make already exists, made by someone else: an error.
    const failing = workspace('clash', 'ns-clash');
    const [first] = desiredRoleBindings(failing, new Date()).bindings;
    assert.ok(first, 'a workspace has bindings');
    await cluster.kube.resource<KubeObject>(CORE_KINDS.namespace).create({
      metadata: { name: 'ns-clash' },
    });
    await cluster.kube.resource<AnyObject>(CORE_KINDS.roleBinding).create({
      metadata: { name: first.metadata.name, namespace: 'ns-clash' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [],
    });
    await workspaces.create(failing);
    await counted('error');

    const text = (await metrics.exposition()).body;
    for (const result of ['success', 'requeue', 'error']) {
      assert.match(
        text,
        new RegExp(
          `^paddock_operator_reconcile_total\\{controller="workspace",result="${result}"\\} [1-9]`,
          'm',
        ),
      );
    }
  });

  it('counts a pass that ends with its periodic resync as a success, not a requeue', async () => {
    await cluster.kube.resource<KubeObject>(CORE_KINDS.namespace).create({
      metadata: { name: 'tools' },
    });
    await cluster.kube.resource<AnyObject>(toolRegistryKind).create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'ToolRegistry',
      metadata: { name: 'unreachable', namespace: 'tools' },
      spec: {
        handlers: [
          {
            name: 'nowhere',
            type: 'http',
            endpoint: { url: 'http://127.0.0.1:1/' },
            tool: { name: 'nowhere', description: 'Nowhere', inputSchema: { type: 'object' } },
            timeout: '1s',
            retries: 0,
          },
        ],
      },
    });
    await counted('success', 'toolregistry');
    assert.equal(await reconciles('requeue', 'toolregistry'), 0);
  });
});
