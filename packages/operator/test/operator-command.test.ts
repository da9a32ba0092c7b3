import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmbeddedCluster, type EmbeddedCluster } from '@paddock/testing';
import {
  CORE_KINDS,
  KINDS,
  type Kube,
  type KubeObject,
  type Workspace,
  installCrds,
} from '@paddock/kube';
import { eventually, eventuallyOk, freePort, start } from '@paddock/testing';

const root = join(import.meta.dirname, '..', '..');
const OPERATOR_BIN = join(root, 'operator', 'bin', 'paddock-operator.js');
const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;

let cluster: EmbeddedCluster;
let kube: Kube;
let kubeconfig: string;

before(async () => {
  cluster = await startEmbeddedCluster();
  ({ kube, kubeconfig } = cluster);
  await installCrds(kube);
  await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: 'paddock-system' } });
});
after(() => cluster.stop());

describe('paddock-operator as a command', () => {
  it('prints its usage, and exits 2 on an unknown argument', async () => {
    const help = start(process.execPath, [OPERATOR_BIN, '--help']);
    assert.equal((await help.exited).code, 0);
    assert.match(help.output(), /Usage: paddock-operator/);
    const wrong = start(process.execPath, [OPERATOR_BIN, '--colour']);
    assert.equal((await wrong.exited).code, 2);
    assert.match(wrong.output(), /^error: unknown argument "--colour"/);
  });

  it('leads, makes a Workspace Ready, serves its metrics, and stops cleanly, releasing its lease', async () => {
    const port = await freePort();
    const operator = start(process.execPath, [OPERATOR_BIN, '--kubeconfig', kubeconfig], {
      env: {
        ...process.env,
        SVC_OPERATOR_LISTEN_ADDR: `127.0.0.1:${port}`,
        SVC_LOG_FORMAT: 'json',
      },
    });
    try {
      await operator.waitForOutput(/leading: controllers started/, 30_000);
      const workspaces = kube.resource<Workspace>(workspaceKind);
      await workspaces.create({
        apiVersion: 'paddock.dev/v1alpha1',
        kind: 'Workspace',
        metadata: { name: 'commanded' },
        spec: {
          displayName: 'Commanded',
          namespace: { name: 'commanded', create: true },
          roleBindings: [{ groups: ['team'], role: 'editor' }],
          anonymousAccess: { enabled: false },
        },
      });
      await eventually(
        'the workspace Ready',
        async () =>
          (await workspaces.get('commanded')).status?.phase === 'Ready' ? true : undefined,
        20_000,
        100,
      );
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      assert.match(metrics, /paddock_operator_leader 1/);
      assert.match(
        metrics,
        /paddock_operator_reconcile_total\{[^}]*controller="workspace"[^}]*\} [1-9]/,
      );
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);

      operator.child.kill('SIGTERM');
      assert.equal((await operator.exited).code, 0, operator.output());
      const lease = await kube
        .resource<KubeObject & { spec?: { holderIdentity?: string } }>(CORE_KINDS.lease)
        .get('paddock-operator', 'paddock-system');
      assert.ok(!lease.spec?.holderIdentity, 'the lease is released for a standby');
    } finally {
      await operator.stop();
    }
  });
  it('says why it cannot lead when its namespace is missing, in its log and its readiness, and leads once it exists', async () => {
    const port = await freePort();
    const home = 'operator-home-missing';
    const operator = start(process.execPath, [OPERATOR_BIN, '--kubeconfig', kubeconfig], {
      env: {
        ...process.env,
        SVC_OPERATOR_LISTEN_ADDR: `127.0.0.1:${port}`,
        SVC_OPERATOR_NAMESPACE: home,
        SVC_LOG_FORMAT: 'json',
      },
    });
    try {
      await operator.waitForOutput(
        // In JSON, the quotes around the name are escaped.
        /"msg":"cannot take the leader lease: the namespace \\"operator-home-missing\\" \(SVC_OPERATOR_NAMESPACE\) does not exist/,
        30_000,
      );
      const answer = await eventuallyOk('the operator listening', () =>
        fetch(`http://127.0.0.1:${port}/readyz`),
      );
      assert.equal(answer.status, 503);
      const body = (await answer.json()) as { reasons?: Record<string, string> };
      assert.match(body.reasons?.['leader-election'] ?? '', new RegExp(`namespace "${home}"`));
      await kube.resource(CORE_KINDS.namespace).create({ metadata: { name: home } });
      await operator.waitForOutput(/leading: controllers started/, 60_000);
      assert.equal((await fetch(`http://127.0.0.1:${port}/readyz`)).status, 200);
    } finally {
      await operator.stop();
    }
  });

  it('exits 1 when another replica takes its lease, to start again as a candidate', async () => {
    const operator = start(process.execPath, [OPERATOR_BIN, '--kubeconfig', kubeconfig], {
      env: { ...process.env, SVC_OPERATOR_LISTEN_ADDR: '127.0.0.1:0', SVC_LOG_FORMAT: 'json' },
    });
    try {
      await operator.waitForOutput(/leading: controllers started/, 30_000);
      const leases = kube.resource<
        KubeObject & { spec?: { holderIdentity?: string; renewTime?: string } }
      >(CORE_KINDS.lease);
      // Another replica holds the lease now, as after this one failed to renew it in time.
      await eventuallyOk(
        'the lease taken over',
        async () => {
          const lease = await leases.get('paddock-operator', 'paddock-system');
          await leases.replace({
            ...lease,
            spec: {
              ...lease.spec,
              holderIdentity: 'other-replica',
              renewTime: new Date().toISOString(),
            },
          });
          return true;
        },
        10_000,
        50,
      );
      const { code } = await operator.exited;
      assert.equal(code, 1, operator.output());
      assert.match(operator.output(), /lost leadership: stopping/);
    } finally {
      await operator.stop();
    }
  });
});
