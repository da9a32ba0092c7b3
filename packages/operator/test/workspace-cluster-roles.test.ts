import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createLogger, logMailer, silentLogger } from '@paddock/common';
import type { Kube } from '@paddock/kube';
import {
  CORE_KINDS,
  KINDS,
  NotFoundError,
  installCrds,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import { eventuallyOk, startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';
import { WorkspaceController } from '../src/controllers/workspace-controller.js';
import { OPERATOR_CLUSTER_ROLE } from '../src/operator-rbac.js';
import { operatorEventRecorder } from '../src/runtime/events.js';
import { OperatorMetrics } from '../src/runtime/metrics.js';
import { WORKSPACE_CLUSTER_ROLES, type ClusterRoleObject } from '../src/workspace/index.js';

const workspaceKind = KINDS.find((k) => k.kind === 'Workspace') as (typeof KINDS)[number];
const NAMESPACE = 'paddock-system';
const ACCOUNT = 'operator-under-test';

let cluster: EmbeddedCluster;
let admin: Kube;
/** The cluster as a ServiceAccount holding only the operator's shipped ClusterRole. */
let restricted: Kube;

const clusterRoles = () => admin.resource<ClusterRoleObject & KubeObject>(CORE_KINDS.clusterRole);

async function deleteWorkspaceRoles(): Promise<void> {
  for (const role of WORKSPACE_CLUSTER_ROLES) {
    await clusterRoles()
      .delete(role.metadata.name)
      .catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) throw err;
      });
  }
}

/** A controller on the restricted identity, with its log lines kept. */
function controllerWithLog(): { controller: WorkspaceController; lines: () => string[] } {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...String(chunk).split('\n').filter(Boolean)));
  const controller = new WorkspaceController({
    kube: restricted,
    recorder: operatorEventRecorder(restricted),
    metrics: new OperatorMetrics({ processMetrics: false }),
    logger: createLogger({ name: 'paddock-operator', destination: stream }),
    mailer: logMailer(silentLogger()),
    platformNamespace: NAMESPACE,
  });
  return { controller, lines: () => lines };
}

before(async () => {
  cluster = await startEmbeddedCluster();
  admin = cluster.kube;
  await installCrds(admin);
  await admin.resource(CORE_KINDS.namespace).create({ metadata: { name: NAMESPACE } });
  await admin
    .resource(CORE_KINDS.serviceAccount)
    .create({ metadata: { name: ACCOUNT, namespace: NAMESPACE } });
  await admin.resource(CORE_KINDS.clusterRole).create(OPERATOR_CLUSTER_ROLE);
  await admin.resource<KubeObject>(CORE_KINDS.clusterRoleBinding).create({
    metadata: { name: ACCOUNT },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: OPERATOR_CLUSTER_ROLE.metadata.name,
    },
    subjects: [{ kind: 'ServiceAccount', name: ACCOUNT, namespace: NAMESPACE }],
  } as KubeObject);
  const { token } = await admin.requestToken(NAMESPACE, ACCOUNT);
  restricted = admin.as(token);
});

after(() => cluster.stop());

beforeEach(deleteWorkspaceRoles);

describe('the workspace ClusterRoles, for an operator that may not write ClusterRoles', () => {
  it('refuses to start with an error naming the missing ClusterRole and what to apply', async () => {
    const { controller } = controllerWithLog();
    await assert.rejects(
      controller.start(),
      /the ClusterRole paddock-workspace-owner does not exist and the operator may not create it: apply deploy\/operator\//,
    );
    await controller.stop();
  });

  it('uses the ClusterRoles the install shipped, says so, and warns of one that differs', async () => {
    const [owner, editor, viewer] = WORKSPACE_CLUSTER_ROLES as [
      ClusterRoleObject,
      ClusterRoleObject,
      ClusterRoleObject,
    ];
    await clusterRoles().create(owner);
    await clusterRoles().create(editor);
    // An older install's viewer role: one rule fewer than this version's.
    await clusterRoles().create({ ...viewer, rules: viewer.rules.slice(1) });
    const { controller, lines } = controllerWithLog();
    await controller.start();
    try {
      const logged = lines().map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.ok(
        logged.some(
          (l) =>
            l.clusterRole === 'paddock-workspace-viewer' &&
            String(l.msg).includes('differs from the one this operator version defines'),
        ),
        lines().join('\n'),
      );
      assert.ok(
        logged.some(
          (l) =>
            String(l.msg).includes('may not write ClusterRoles') &&
            JSON.stringify(l.clusterRoles) === '["paddock-workspace-viewer"]',
        ),
        lines().join('\n'),
      );
      // Left as the install made it.
      const kept = await clusterRoles().get('paddock-workspace-viewer');
      assert.equal(kept.rules.length, viewer.rules.length - 1);

      // And the controller works: it binds the shipped roles through its bind permission.
      await admin.resource<Workspace>(workspaceKind).create({
        apiVersion: 'paddock.dev/v1alpha1',
        kind: 'Workspace',
        metadata: { name: 'restricted' },
        spec: {
          displayName: 'Restricted',
          namespace: { name: 'ns-restricted', create: true },
          roleBindings: [{ groups: ['team'], role: 'owner' }],
        },
      });
      await eventuallyOk('the Workspace Ready', async () => {
        const found = await admin.resource<Workspace>(workspaceKind).get('restricted');
        return found.status?.phase === 'Ready' ? true : undefined;
      });
    } finally {
      await controller.stop();
    }
  });
});
