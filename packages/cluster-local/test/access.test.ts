import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AuthorizationV1Api, CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { failure, kubeConfig, startTestCluster, type TestCluster } from './support/cluster.js';

let cluster: TestCluster;
let core: CoreV1Api;
let rbac: RbacAuthorizationV1Api;
/** The clock the server reads, moved forward to expire tokens. */
let clock = Date.now();

before(async () => {
  cluster = await startTestCluster({ now: () => clock });
  core = cluster.admin.makeApiClient(CoreV1Api);
  rbac = cluster.admin.makeApiClient(RbacAuthorizationV1Api);
  for (const name of ['team', 'elsewhere']) {
    await core.createNamespace({ body: { metadata: { name } } });
  }
  await core.createNamespacedServiceAccount({
    namespace: 'team',
    body: { metadata: { name: 'reader' } },
  });
  await rbac.createNamespacedRole({
    namespace: 'team',
    body: {
      metadata: { name: 'configmap-reader' },
      rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch'] }],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: 'team',
    body: {
      metadata: { name: 'reader-reads' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'configmap-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'team' }],
    },
  });
});

after(() => cluster.close());

async function mint(name: string, namespace = 'team', expirationSeconds?: number): Promise<string> {
  const request = await core.createNamespacedServiceAccountToken({
    name,
    namespace,
    body: { spec: { audiences: [], ...(expirationSeconds ? { expirationSeconds } : {}) } },
  });
  assert.ok(request.status?.expirationTimestamp instanceof Date);
  return request.status.token;
}

describe('authentication and RBAC', () => {
  it('allows a ServiceAccount token what its Role grants and denies the rest', async () => {
    const token = await mint('reader');
    const reader = kubeConfig(cluster.url, token).makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({
      namespace: 'team',
      body: { metadata: { name: 'shared' } },
    });
    const list = await reader.listNamespacedConfigMap({
      namespace: 'team',
      // Leaves out the root CA publisher's kube-root-ca.crt, whenever it comes.
      fieldSelector: 'metadata.name!=kube-root-ca.crt',
    });
    assert.deepEqual(
      list.items.map((c) => c.metadata?.name),
      ['shared'],
    );
    const created = await failure(
      reader.createNamespacedConfigMap({ namespace: 'team', body: { metadata: { name: 'mine' } } }),
    );
    assert.deepEqual(created, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'configmaps is forbidden: User "system:serviceaccount:team:reader" cannot create resource "configmaps" in API group "" in the namespace "team"',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
    const elsewhere = await failure(reader.listNamespacedConfigMap({ namespace: 'elsewhere' }));
    assert.equal(elsewhere.code, 403);
    const secret = await failure(reader.readNamespacedSecret({ name: 'x', namespace: 'team' }));
    assert.equal(
      secret.message,
      'secrets "x" is forbidden: User "system:serviceaccount:team:reader" cannot get resource "secrets" in API group "" in the namespace "team"',
    );
  });

  it('answers SelfSubjectAccessReviews with the same decisions', async () => {
    const token = await mint('reader');
    const reviews = kubeConfig(cluster.url, token).makeApiClient(AuthorizationV1Api);
    const ask = async (verb: string, namespace: string) =>
      (
        await reviews.createSelfSubjectAccessReview({
          body: { spec: { resourceAttributes: { verb, resource: 'configmaps', namespace } } },
        })
      ).status?.allowed;
    assert.equal(await ask('list', 'team'), true);
    assert.equal(await ask('delete', 'team'), false);
    assert.equal(await ask('list', 'elsewhere'), false);
  });

  it('refuses to let a user grant permissions it does not hold', async () => {
    await core.createNamespacedServiceAccount({
      namespace: 'team',
      body: { metadata: { name: 'role-maker' } },
    });
    await rbac.createNamespacedRole({
      namespace: 'team',
      body: {
        metadata: { name: 'role-writer' },
        rules: [
          { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] },
        ],
      },
    });
    await rbac.createNamespacedRoleBinding({
      namespace: 'team',
      body: {
        metadata: { name: 'role-maker-writes' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'role-writer' },
        subjects: [{ kind: 'ServiceAccount', name: 'role-maker', namespace: 'team' }],
      },
    });
    const maker = kubeConfig(cluster.url, await mint('role-maker')).makeApiClient(
      RbacAuthorizationV1Api,
    );
    const escalation = await failure(
      maker.createNamespacedRole({
        namespace: 'team',
        body: {
          metadata: { name: 'too-much' },
          rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }],
        },
      }),
    );
    assert.equal(escalation.code, 403);
    assert.match(
      escalation.message,
      /^roles\.rbac\.authorization\.k8s\.io "too-much" is forbidden: user "system:serviceaccount:team:role-maker" .* is attempting to grant RBAC permissions not currently held:/,
    );
    const allowed = await maker.createNamespacedRole({
      namespace: 'team',
      body: {
        metadata: { name: 'modest' },
        rules: [
          { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['create'] },
        ],
      },
    });
    assert.equal(allowed.metadata?.name, 'modest');
  });

  it('refuses unknown tokens with 401', async () => {
    const stranger = kubeConfig(cluster.url, 'not-a-token').makeApiClient(CoreV1Api);
    const refused = await failure(stranger.listNamespacedConfigMap({ namespace: 'team' }));
    assert.equal(refused.code, 401);
  });

  it('mints tokens that expire, and refuses lifetimes under ten minutes', async () => {
    const token = await mint('reader', 'team', 600);
    const reader = kubeConfig(cluster.url, token).makeApiClient(CoreV1Api);
    await reader.listNamespacedConfigMap({ namespace: 'team' });
    clock += 601_000 + 10_000;
    const expired = await failure(reader.listNamespacedConfigMap({ namespace: 'team' }));
    assert.equal(expired.code, 401);

    const short = await failure(
      core.createNamespacedServiceAccountToken({
        name: 'reader',
        namespace: 'team',
        body: { spec: { audiences: [], expirationSeconds: 60 } },
      }),
    );
    assert.equal(short.code, 422);
    assert.equal(
      short.message,
      'TokenRequest.authentication.k8s.io "reader" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
  });

  it('stops honouring the tokens of a deleted ServiceAccount', async () => {
    await core.createNamespacedServiceAccount({
      namespace: 'team',
      body: { metadata: { name: 'temp' } },
    });
    const token = await mint('temp');
    const temp = kubeConfig(cluster.url, token).makeApiClient(AuthorizationV1Api);
    await temp.createSelfSubjectRulesReview({ body: { spec: { namespace: 'team' } } });
    await core.deleteNamespacedServiceAccount({ name: 'temp', namespace: 'team' });
    const refused = await failure(
      temp.createSelfSubjectRulesReview({ body: { spec: { namespace: 'team' } } }),
    );
    assert.equal(refused.code, 401);
  });
});
