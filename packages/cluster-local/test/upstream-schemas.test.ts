import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CORE_KINDS,
  KINDS,
  Kube,
  apiVersionOf,
  type ApiResource,
  type KubeObject,
} from '@paddock/kube';
import { validateUpstream } from '@paddock/testing';
import { startTestCluster, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;
let kube: Kube;
before(async () => {
  cluster = await startTestCluster();
  kube = Kube.connect({ url: cluster.url, token: cluster.adminToken });
});
after(() => cluster.close());

describe('objects Paddock generates, against the upstream Kubernetes schemas', () => {
  it('has models that do refuse what Kubernetes refuses', () => {
    assert.throws(() =>
      validateUpstream({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 42 } } as never),
    );
  });

  it('generates CustomResourceDefinitions that Kubernetes’ own schema accepts', () => {
    for (const kind of KINDS) validateUpstream(kind.crd);
  });

  it('serves built-in objects (its defaults included) that Kubernetes’ own schemas accept', async () => {
    const kinds: ApiResource[] = [
      CORE_KINDS.namespace,
      CORE_KINDS.serviceAccount,
      CORE_KINDS.role,
      CORE_KINDS.roleBinding,
      CORE_KINDS.clusterRole,
      CORE_KINDS.clusterRoleBinding,
    ];
    let checked = 0;
    for (const kind of kinds) {
      const list = await kube.resource<KubeObject>(kind).listAll();
      for (const object of list.items) {
        // Lists carry apiVersion and kind on the list, not on each item.
        validateUpstream({ ...object, apiVersion: apiVersionOf(kind), kind: kind.kind });
        checked++;
      }
    }
    assert.ok(checked > 0, 'the cluster starts with default objects');
  });
});
