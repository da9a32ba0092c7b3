import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { ClusterRole, Role } from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { parseAllDocuments } from 'yaml';
import { GENERATE_COMMAND } from '@paddock/kube';
import {
  OPERATOR_CLUSTER_ROLE,
  OPERATOR_LEADER_ELECTION_ROLE,
  OPERATOR_RBAC_FILE,
  PROOF_SECRET_NAME,
  operatorManifestFiles,
  WORKSPACE_CLUSTER_ROLES,
  WORKSPACE_CLUSTER_ROLES_FILE,
} from '@paddock/operator';

const root = resolve(import.meta.dirname, '..', '..', '..');
const folder = join(root, 'deploy', 'operator');

function readDocuments(file: string): unknown[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((doc) => doc.toJS() as unknown);
}

describe('the committed operator manifests', () => {
  it(`equal what generation produces now, else they say to run ${GENERATE_COMMAND}`, () => {
    const files = operatorManifestFiles();
    for (const file of files) {
      const path = join(folder, file.name);
      assert.ok(
        existsSync(path),
        `deploy/operator/${file.name} is missing: run ${GENERATE_COMMAND}`,
      );
      assert.ok(
        readFileSync(path, 'utf8') === file.content,
        `deploy/operator/${file.name} is stale: run ${GENERATE_COMMAND}`,
      );
    }
    assert.deepEqual(
      readdirSync(folder)
        .filter((name) => name.endsWith('.yaml'))
        .sort(),
      files.map((file) => file.name).sort(),
      `deploy/operator holds files generation does not make: run ${GENERATE_COMMAND}`,
    );
  });

  it('hold the owner, editor and viewer ClusterRoles, each valid against the upstream schema', () => {
    const documents = readDocuments(join(folder, WORKSPACE_CLUSTER_ROLES_FILE));
    assert.deepEqual(documents, WORKSPACE_CLUSTER_ROLES);
    assert.deepEqual(
      documents.map((doc) => (doc as { metadata: { name: string } }).metadata.name),
      ['paddock-workspace-owner', 'paddock-workspace-editor', 'paddock-workspace-viewer'],
    );
    for (const document of documents) new ClusterRole(document).validate();
  });

  it('hold the operator’s ClusterRole, binding the workspace roles by name, and its Lease Role', () => {
    const documents = readDocuments(join(folder, OPERATOR_RBAC_FILE));
    assert.deepEqual(documents, [OPERATOR_CLUSTER_ROLE, OPERATOR_LEADER_ELECTION_ROLE]);
    new ClusterRole(documents[0]).validate();
    new Role(documents[1]).validate();
    const bind = OPERATOR_CLUSTER_ROLE.rules.find((rule) => rule.verbs.includes('bind'));
    assert.deepEqual(
      bind?.resourceNames,
      WORKSPACE_CLUSTER_ROLES.map((role) => role.metadata.name),
    );
    // It holds none of the workspace roles' rules and may not write ClusterRoles.
    for (const rule of OPERATOR_CLUSTER_ROLE.rules) {
      if (rule.resources.includes('clusterroles')) {
        assert.deepEqual(rule.verbs, ['get', 'bind']);
      }
    }
  });

  it('let the operator read and write no Secret but the identity-proof ones, and only watch pods', () => {
    const rules = OPERATOR_CLUSTER_ROLE.rules;
    const secrets = rules.filter((rule) => rule.resources.includes('secrets'));
    // A create cannot be narrowed to a name; everything else is, and nothing lists or watches.
    assert.deepEqual(secrets, [
      { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
      {
        apiGroups: [''],
        resources: ['secrets'],
        resourceNames: [PROOF_SECRET_NAME],
        verbs: ['get', 'update'],
      },
    ]);
    const pods = rules.filter((rule) => rule.resources.includes('pods'));
    assert.deepEqual(
      pods.map((rule) => rule.verbs),
      [['list', 'watch']],
    );
    const resources = (group: string, resource: string) =>
      rules
        .filter((rule) => rule.apiGroups.includes(group) && rule.resources.includes(resource))
        .flatMap((rule) => rule.verbs)
        .sort();
    const owned = ['create', 'delete', 'get', 'list', 'update', 'watch'];
    assert.deepEqual(resources('apps', 'statefulsets'), owned);
    assert.deepEqual(resources('', 'services'), owned);
    // get on packs and get and patch on the agents' status: held so that the agents' Roles may grant them.
    assert.deepEqual(resources('paddock.dev', 'promptpacks'), ['get', 'list', 'watch']);
    assert.deepEqual(resources('paddock.dev', 'agentruntimes'), ['get', 'list', 'update', 'watch']);
    assert.deepEqual(resources('paddock.dev', 'agentruntimes/status'), ['get', 'patch', 'update']);
    assert.deepEqual(resources('rbac.authorization.k8s.io', 'roles'), owned);
  });

  it('let every workspace member see the agents’ StatefulSets, pods and logs', () => {
    const verbs = (role: string, group: string, resource: string) =>
      WORKSPACE_CLUSTER_ROLES.find((r) => r.metadata.name === role)
        ?.rules.filter(
          (rule) => rule.apiGroups.includes(group) && rule.resources.includes(resource),
        )
        .flatMap((rule) => rule.verbs) ?? [];
    for (const role of ['paddock-workspace-editor', 'paddock-workspace-viewer']) {
      for (const [group, resource] of [
        ['apps', 'statefulsets'],
        ['', 'pods'],
        ['', 'pods/log'],
      ] as const) {
        for (const verb of ['get', 'list', 'watch']) {
          assert.ok(verbs(role, group, resource).includes(verb), `${role} ${verb} ${resource}`);
        }
      }
    }
    assert.ok(!verbs('paddock-workspace-viewer', 'apps', 'statefulsets').includes('update'));
    assert.ok(!verbs('paddock-workspace-viewer', '', 'pods').includes('delete'));
  });

  it('would reject a ClusterRole the upstream schema does not accept', () => {
    const broken = { ...WORKSPACE_CLUSTER_ROLES[0], rules: [{ apiGroups: [''], resources: [] }] };
    assert.throws(() => new ClusterRole(broken as never).validate(), /verbs/);
  });
});
