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
import { CustomResourceDefinition } from 'kubernetes-models/apiextensions.k8s.io/v1';
import {
  ClusterRole,
  ClusterRoleBinding,
  Role,
  RoleBinding,
} from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { Namespace, ServiceAccount } from 'kubernetes-models/v1';
import { startTestCluster, type TestCluster } from './support/cluster.js';

/** The upstream Kubernetes model of each built-in kind checked here, by kind. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  Namespace,
  ServiceAccount,
  Role,
  RoleBinding,
  ClusterRole,
  ClusterRoleBinding,
};

function validateUpstream(object: KubeObject): void {
  const Model = MODELS[object.kind ?? ''];
  assert.ok(Model, `no upstream model for ${object.kind}`);
  // The models check against the Kubernetes OpenAPI schemas and throw with the failing paths.
  new Model(object as never).validate();
}

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
    for (const kind of KINDS) new CustomResourceDefinition(kind.crd as never).validate();
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
