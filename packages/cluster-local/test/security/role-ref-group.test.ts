import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject, RbacSource, UserInfo } from '../../src/contracts.js';
import { authorize } from '../../src/rbac/authorize.js';
import { mayBind } from '../../src/rbac/escalation.js';
import type { RoleRef } from '../../src/rbac/policy-rule.js';

/**
 * Behind validation, the decisions themselves: a roleRef of another API group resolves to nothing
 * (a binding stored before validation existed grants nothing), and `bind` on another group's
 * resources never counts as `bind` on an RBAC role.
 */

const RBAC = 'rbac.authorization.k8s.io';
const FOREIGN = 'widgets.example.com';

const user: UserInfo = { username: 'mallory', groups: ['system:authenticated'] };

const clusterAdmin: KubeObject = {
  kind: 'ClusterRole',
  metadata: { name: 'cluster-admin' },
  rules: [
    { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
    { nonResourceURLs: ['*'], verbs: ['*'] },
  ],
};

const foreignStar: KubeObject = {
  kind: 'Role',
  metadata: { namespace: 'team', name: 'foreign-star' },
  rules: [{ apiGroups: [FOREIGN], resources: ['*'], verbs: ['*'] }],
};

function binding(name: string, roleRef: RoleRef): KubeObject {
  return {
    kind: 'RoleBinding',
    metadata: { namespace: 'team', name },
    roleRef,
    subjects: [{ kind: 'User', apiGroup: RBAC, name: user.username }],
  };
}

function source(objects: readonly KubeObject[]): RbacSource {
  const of = (kind: string, namespace?: string) =>
    objects.filter(
      (o) =>
        o.kind === kind && (namespace === undefined || o.metadata?.['namespace'] === namespace),
    );
  return {
    roles: (namespace) => of('Role', namespace),
    roleBindings: (namespace) => of('RoleBinding', namespace),
    clusterRoles: () => of('ClusterRole'),
    clusterRoleBindings: () => of('ClusterRoleBinding'),
  };
}

const readSecrets = { verb: 'list', apiGroup: '', resource: 'secrets', namespace: 'team' };

describe('a roleRef outside the RBAC group', () => {
  it('grants nothing, even when a binding with one is already stored', () => {
    const table: Array<[string, boolean]> = [
      [RBAC, true],
      ['', true],
      [FOREIGN, false],
      ['rbac.authorization.k8s.io.evil', false],
      ['*', false],
    ];
    for (const [apiGroup, allowed] of table) {
      const rbac = source([
        clusterAdmin,
        binding('stored', { apiGroup, kind: 'ClusterRole', name: 'cluster-admin' }),
      ]);
      const decision = authorize(user, readSecrets, rbac);
      assert.equal(decision.allowed, allowed, `${apiGroup}: ${decision.reason}`);
      if (!allowed) {
        assert.match(decision.reason, /unsupported role reference API group/);
      }
    }
  });

  it('cannot be bound with `bind` on that group', () => {
    const rbac = source([
      clusterAdmin,
      foreignStar,
      binding('star', { apiGroup: RBAC, kind: 'Role', name: 'foreign-star' }),
    ]);
    for (const apiGroup of [FOREIGN, '*']) {
      const decision = mayBind(
        user,
        'team',
        { apiGroup, kind: 'ClusterRole', name: 'cluster-admin' },
        rbac,
      );
      assert.equal(decision.allowed, false, `${apiGroup}: ${decision.reason}`);
      assert.equal(decision.roleNotFound ?? false, false);
    }
    const rbacGroup = mayBind(
      user,
      'team',
      { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
      rbac,
    );
    assert.equal(rbacGroup.allowed, false, rbacGroup.reason);
    assert.match(rbacGroup.reason, /attempting to grant RBAC permissions not currently held/);
  });

  it('still lets `bind` on the RBAC role itself through', () => {
    const binder: KubeObject = {
      kind: 'Role',
      metadata: { namespace: 'team', name: 'binder' },
      rules: [
        {
          apiGroups: [RBAC],
          resources: ['clusterroles'],
          resourceNames: ['cluster-admin'],
          verbs: ['bind'],
        },
      ],
    };
    const rbac = source([
      clusterAdmin,
      binder,
      binding('binder', { apiGroup: RBAC, kind: 'Role', name: 'binder' }),
    ]);
    const decision = mayBind(
      user,
      'team',
      { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
      rbac,
    );
    assert.equal(decision.allowed, true, decision.reason);
  });
});
