import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { CoreV1Api, RbacAuthorizationV1Api } from '@kubernetes/client-node';
import { tempDir } from '@paddock/testing';
import {
  failure,
  kubeConfig,
  request,
  startTestCluster,
  type Status,
  type TestCluster,
} from '../support/cluster.js';

/**
 * Attacks on the embedded cluster's authorization, each against the real server over HTTP: a field
 * selector that reads as one name to RBAC and as every name to the store, and a binding whose roleRef
 * names another API group so that `bind` on that group passes for cluster-admin.
 */

const RBAC = 'rbac.authorization.k8s.io';
const NAMESPACE = 'team';
/** The only Secret the reader may see. */
const ALLOWED = 'app-config';
const OTHER_SECRETS = ['api-key', 'db-password'];
/** A group the binder holds `*` on: nothing of RBAC's. */
const FOREIGN_GROUP = 'widgets.example.com';

let cluster: TestCluster;
let core: CoreV1Api;
let rbac: RbacAuthorizationV1Api;
let folder: Awaited<ReturnType<typeof tempDir>>;
/** May get, list and watch the Secret `app-config` only. */
let readerToken: string;
/** May create RoleBindings in `team` and do anything in FOREIGN_GROUP, in `team`. */
let binderToken: string;
/** May create ClusterRoleBindings and do anything in FOREIGN_GROUP, cluster-wide. */
let clusterBinderToken: string;

const run = promisify(execFile);

async function serviceAccountToken(name: string): Promise<string> {
  await core.createNamespacedServiceAccount({ namespace: NAMESPACE, body: { metadata: { name } } });
  const answer = await core.createNamespacedServiceAccountToken({
    name,
    namespace: NAMESPACE,
    body: { spec: { audiences: [] } },
  });
  return answer.status!.token;
}

before(async () => {
  folder = await tempDir('paddock-rbac-attacks-');
  cluster = await startTestCluster();
  core = cluster.admin.makeApiClient(CoreV1Api);
  rbac = cluster.admin.makeApiClient(RbacAuthorizationV1Api);
  await core.createNamespace({ body: { metadata: { name: NAMESPACE } } });
  for (const name of [ALLOWED, ...OTHER_SECRETS]) {
    await core.createNamespacedSecret({
      namespace: NAMESPACE,
      body: { metadata: { name }, stringData: { value: `secret of ${name}` } },
    });
  }

  readerToken = await serviceAccountToken('reader');
  await rbac.createNamespacedRole({
    namespace: NAMESPACE,
    body: {
      metadata: { name: 'app-config-reader' },
      rules: [
        {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: [ALLOWED],
          verbs: ['get', 'list', 'watch'],
        },
      ],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: NAMESPACE,
    body: {
      metadata: { name: 'reader' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'app-config-reader' },
      subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NAMESPACE }],
    },
  });

  binderToken = await serviceAccountToken('binder');
  await rbac.createNamespacedRole({
    namespace: NAMESPACE,
    body: {
      metadata: { name: 'binder' },
      rules: [
        { apiGroups: [RBAC], resources: ['rolebindings'], verbs: ['create', 'update', 'patch'] },
        { apiGroups: [FOREIGN_GROUP], resources: ['*'], verbs: ['*'] },
      ],
    },
  });
  await rbac.createNamespacedRoleBinding({
    namespace: NAMESPACE,
    body: {
      metadata: { name: 'binder' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'binder' },
      subjects: [{ kind: 'ServiceAccount', name: 'binder', namespace: NAMESPACE }],
    },
  });

  clusterBinderToken = await serviceAccountToken('cluster-binder');
  await rbac.createClusterRole({
    body: {
      metadata: { name: 'cluster-binder' },
      rules: [
        { apiGroups: [RBAC], resources: ['clusterrolebindings'], verbs: ['create'] },
        { apiGroups: [FOREIGN_GROUP], resources: ['*'], verbs: ['*'] },
      ],
    },
  });
  await rbac.createClusterRoleBinding({
    body: {
      metadata: { name: 'cluster-binder' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-binder' },
      subjects: [{ kind: 'ServiceAccount', name: 'cluster-binder', namespace: NAMESPACE }],
    },
  });
});

after(async () => {
  await cluster.close();
  await folder.remove();
});

const secretsPath = `/api/v1/namespaces/${NAMESPACE}/secrets`;

/** The names a list answered with, or its status code when it was refused. */
async function listNames(token: string, fieldSelector: string): Promise<string[] | number> {
  const answer = await request(
    cluster,
    'GET',
    `${secretsPath}?fieldSelector=${encodeURIComponent(fieldSelector)}`,
    { token },
  );
  if (answer.status !== 200) return answer.status;
  const items = (answer.body as { items: Array<{ metadata: { name: string } }> }).items;
  return items.map((item) => item.metadata.name);
}

/** The names of the objects a watch sends first (with sendInitialEvents), or its refusal's code. */
async function watchNames(token: string, fieldSelector: string): Promise<string[] | number> {
  const query = new URLSearchParams({
    watch: '1',
    fieldSelector,
    sendInitialEvents: 'true',
    allowWatchBookmarks: 'true',
    resourceVersionMatch: 'NotOlderThan',
    timeoutSeconds: '5',
  });
  const controller = new AbortController();
  const response = await fetch(`${cluster.url}${secretsPath}?${query.toString()}`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  if (response.status !== 200) {
    await response.body?.cancel();
    return response.status;
  }
  // The initial events end with a bookmark marked as their end; read up to it, then hang up.
  const names: string[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return names;
      buffered += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        const event = JSON.parse(line) as {
          type: string;
          object: { metadata: { name: string; annotations?: Record<string, string> } };
        };
        if (event.type === 'BOOKMARK') return names;
        names.push(event.object.metadata.name);
      }
    }
  } finally {
    controller.abort();
  }
}

/** Selectors an attacker tries: each must be refused or answer with the allowed Secret at most. */
const ATTACK_SELECTORS = [
  'metadata.name!=x\\,metadata.name=app-config',
  'metadata.name!=x\\,metadata.name\\=app-config',
  'metadata.name!=x\\,metadata.name==app-config',
  'metadata.name=app-config\\,x',
  'metadata.name=x\\,metadata.name=app-config',
  'metadata.name!=app-config\\,metadata.name=app-config',
  'metadata.name!=x\\\\,metadata.name=app-config',
  'metadata.name!=x\\\\\\,metadata.name=app-config',
  'metadata.name=app-config,metadata.name!=app-config',
  'metadata.namespace=team\\,metadata.name=app-config',
  'metadata.name=app-config\\',
  'metadata.name= app-config',
  ' metadata.name=app-config',
  'metadata.name=app-config,',
  ',metadata.name=app-config',
  'metadata.name!=,metadata.name=app-config',
  'metadata.name=app-config\\=x',
  'metadata.name=app-config=x',
  'metadata.name==app-config\\,metadata.name!=y',
];

describe('a field selector cannot widen what resourceNames allows', () => {
  it('refuses the escaped-comma selector that used to list every Secret', async () => {
    const answer = await request(
      cluster,
      'GET',
      `${secretsPath}?fieldSelector=metadata.name!%3Dx%5C,metadata.name%3Dapp-config`,
      { token: readerToken },
    );
    assert.equal(answer.status, 403, answer.text);
    assert.deepEqual(answer.body, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'secrets is forbidden: User "system:serviceaccount:team:reader" cannot list resource "secrets" in API group "" in the namespace "team"',
      reason: 'Forbidden',
      details: { kind: 'secrets' },
      code: 403,
    });
  });

  it('refuses the same selector on a watch', async () => {
    assert.equal(await watchNames(readerToken, 'metadata.name!=x\\,metadata.name=app-config'), 403);
  });

  it('still lists and watches the one Secret the role names', async () => {
    assert.deepEqual(await listNames(readerToken, `metadata.name=${ALLOWED}`), [ALLOWED]);
    assert.deepEqual(await listNames(readerToken, `metadata.name==${ALLOWED}`), [ALLOWED]);
    assert.deepEqual(await watchNames(readerToken, `metadata.name=${ALLOWED}`), [ALLOWED]);
    const typed = kubeConfig(cluster.url, readerToken).makeApiClient(CoreV1Api);
    const list = await typed.listNamespacedSecret({
      namespace: NAMESPACE,
      fieldSelector: `metadata.name=${ALLOWED}`,
    });
    assert.deepEqual(
      list.items.map((s) => s.metadata?.name),
      [ALLOWED],
    );
    const all = await failure(typed.listNamespacedSecret({ namespace: NAMESPACE }));
    assert.equal(all.code, 403);
  });

  it('leaks no other Secret through any crafted selector, by list or by watch', async () => {
    const leaks: string[] = [];
    let attempts = 0;
    for (const selector of ATTACK_SELECTORS) {
      for (const read of [listNames, watchNames]) {
        attempts++;
        const answer = await read(readerToken, selector);
        if (typeof answer === 'number') {
          if (answer !== 403 && answer !== 400) leaks.push(`${selector}: status ${answer}`);
          continue;
        }
        const others = answer.filter((name) => name !== ALLOWED);
        if (others.length > 0) leaks.push(`${selector} (${read.name}): ${others.join(', ')}`);
      }
    }
    assert.equal(attempts, ATTACK_SELECTORS.length * 2);
    assert.deepEqual(leaks, []);
  });

  it('answers a selector that does not parse with 400 BadRequest, for the admin too', async () => {
    for (const selector of [
      'metadata.name',
      'metadata.name=a\\x',
      'metadata.name=a=b',
      'metadata.name!=x\\,metadata.name=app-config',
    ]) {
      const answer = await request(
        cluster,
        'GET',
        `${secretsPath}?fieldSelector=${encodeURIComponent(selector)}`,
      );
      assert.equal(answer.status, 400, `${selector}: ${answer.text}`);
      assert.equal((answer.body as Status).reason, 'BadRequest');
    }
  });

  it('refuses the attack from kubectl too', async () => {
    // kubectl sends a token over TLS only.
    const caFile = join(folder.path, 'ca.crt');
    await writeFile(caFile, cluster.caCertificate);
    const kubectl = (...args: string[]) =>
      run(
        'kubectl',
        [
          '--server',
          cluster.httpsUrl,
          '--certificate-authority',
          caFile,
          '--token',
          readerToken,
          '--cache-dir',
          join(folder.path, 'cache'),
          '-n',
          NAMESPACE,
          ...args,
        ],
        { env: { ...process.env, HOME: folder.path, KUBECONFIG: join(folder.path, 'none') } },
      ).then(
        ({ stdout }) => ({ code: 0, stdout, stderr: '' }),
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
    const attack = await kubectl(
      'get',
      'secrets',
      '--field-selector',
      'metadata.name!=x\\,metadata.name=app-config',
      '-o',
      'name',
    );
    assert.notEqual(attack.code, 0, attack.stdout);
    assert.match(attack.stderr, /Forbidden|forbidden/, JSON.stringify(attack));
    assert.doesNotMatch(attack.stdout, /db-password|api-key/);
    const allowed = await kubectl(
      'get',
      'secrets',
      '--field-selector',
      `metadata.name=${ALLOWED}`,
      '-o',
      'name',
    );
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.equal(allowed.stdout.trim(), `secret/${ALLOWED}`);
  });
});

describe('a binding refers to roles of the RBAC group only', () => {
  const bindingTo = (apiGroup: string, name: string) => ({
    metadata: { name },
    roleRef: { apiGroup, kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'binder', namespace: NAMESPACE }],
  });

  it('refuses a RoleBinding to cluster-admin whose roleRef names another group, with 422', async () => {
    const binder = kubeConfig(cluster.url, binderToken);
    const status = await failure(
      binder.makeApiClient(RbacAuthorizationV1Api).createNamespacedRoleBinding({
        namespace: NAMESPACE,
        body: bindingTo(FOREIGN_GROUP, 'escalate'),
      }),
    );
    assert.deepEqual(status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `RoleBinding.rbac.authorization.k8s.io "escalate" is invalid: roleRef.apiGroup: Unsupported value: "${FOREIGN_GROUP}": supported values: "rbac.authorization.k8s.io"`,
      reason: 'Invalid',
      details: {
        name: 'escalate',
        group: RBAC,
        kind: 'RoleBinding',
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: `Unsupported value: "${FOREIGN_GROUP}": supported values: "rbac.authorization.k8s.io"`,
            field: 'roleRef.apiGroup',
          },
        ],
      },
      code: 422,
    });
    const secrets = await failure(
      binder.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: NAMESPACE }),
    );
    assert.equal(secrets.code, 403);
    const stored = await failure(
      rbac.readNamespacedRoleBinding({ name: 'escalate', namespace: NAMESPACE }),
    );
    assert.equal(stored.code, 404);
  });

  it('refuses the same through a ClusterRoleBinding', async () => {
    const binder = kubeConfig(cluster.url, clusterBinderToken);
    const status = await failure(
      binder.makeApiClient(RbacAuthorizationV1Api).createClusterRoleBinding({
        body: {
          ...bindingTo(FOREIGN_GROUP, 'escalate-cluster'),
          subjects: [{ kind: 'ServiceAccount', name: 'cluster-binder', namespace: NAMESPACE }],
        },
      }),
    );
    assert.equal(status.code, 422);
    assert.deepEqual(
      status.details?.causes?.map((c) => c.field),
      ['roleRef.apiGroup'],
    );
    const secrets = await failure(
      binder.makeApiClient(CoreV1Api).listNamespacedSecret({ namespace: NAMESPACE }),
    );
    assert.equal(secrets.code, 403);
  });

  it('still refuses the binder a binding to cluster-admin in the RBAC group (403)', async () => {
    const binder = kubeConfig(cluster.url, binderToken).makeApiClient(RbacAuthorizationV1Api);
    const status = await failure(
      binder.createNamespacedRoleBinding({
        namespace: NAMESPACE,
        body: bindingTo(RBAC, 'escalate-rbac'),
      }),
    );
    assert.equal(status.code, 403);
    assert.equal(status.reason, 'Forbidden');
  });

  it('defaults an empty roleRef.apiGroup and subject apiGroup as Kubernetes does', async () => {
    const created = await request(
      cluster,
      'POST',
      `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/rolebindings`,
      {
        body: {
          metadata: { name: 'defaulted' },
          roleRef: { kind: 'Role', name: 'app-config-reader' },
          subjects: [
            { kind: 'User', name: 'someone' },
            { kind: 'ServiceAccount', name: 'reader' },
          ],
        },
      },
    );
    assert.equal(created.status, 201, created.text);
    const body = created.body as { roleRef: unknown; subjects: unknown };
    assert.deepEqual(body.roleRef, { apiGroup: RBAC, kind: 'Role', name: 'app-config-reader' });
    assert.deepEqual(body.subjects, [
      { kind: 'User', name: 'someone', apiGroup: RBAC },
      { kind: 'ServiceAccount', name: 'reader' },
    ]);
  });

  it('validates roleRef and subjects fully, with every cause', async () => {
    const cases: Array<{
      path: string;
      body: object;
      causes: Array<{ reason: string; field: string; message: string }>;
    }> = [
      {
        path: `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/rolebindings`,
        body: {
          metadata: { name: 'bad-ref' },
          roleRef: { apiGroup: RBAC, kind: 'Secret', name: '' },
          subjects: [],
        },
        causes: [
          {
            reason: 'FieldValueNotSupported',
            field: 'roleRef.kind',
            message: 'Unsupported value: "Secret": supported values: "Role", "ClusterRole"',
          },
          { reason: 'FieldValueRequired', field: 'roleRef.name', message: 'Required value' },
        ],
      },
      {
        path: `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/rolebindings`,
        body: {
          metadata: { name: 'bad-name' },
          roleRef: { apiGroup: RBAC, kind: 'Role', name: 'a/b' },
        },
        causes: [
          {
            reason: 'FieldValueInvalid',
            field: 'roleRef.name',
            message: `Invalid value: "a/b": may not contain '/'`,
          },
        ],
      },
      {
        path: `/apis/${RBAC}/v1/clusterrolebindings`,
        body: {
          metadata: { name: 'bad-cluster-ref' },
          roleRef: { apiGroup: RBAC, kind: 'Role', name: 'view' },
          subjects: [
            { kind: 'ServiceAccount', name: 'reader' },
            { kind: 'Group', name: '', apiGroup: 'example.com' },
            { kind: 'Robot', name: 'r2' },
            { kind: 'ServiceAccount', name: 'Not_A_Name', namespace: NAMESPACE, apiGroup: RBAC },
          ],
        },
        causes: [
          {
            reason: 'FieldValueNotSupported',
            field: 'roleRef.kind',
            message: 'Unsupported value: "Role": supported values: "ClusterRole"',
          },
          {
            reason: 'FieldValueRequired',
            field: 'subjects[0].namespace',
            message: 'Required value',
          },
          { reason: 'FieldValueRequired', field: 'subjects[1].name', message: 'Required value' },
          {
            reason: 'FieldValueInvalid',
            field: 'subjects[1].name',
            message: 'Invalid value: "": group name cannot be empty',
          },
          {
            reason: 'FieldValueNotSupported',
            field: 'subjects[1].apiGroup',
            message:
              'Unsupported value: "example.com": supported values: "rbac.authorization.k8s.io"',
          },
          {
            reason: 'FieldValueNotSupported',
            field: 'subjects[2].kind',
            message:
              'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"',
          },
          {
            reason: 'FieldValueInvalid',
            field: 'subjects[3].name',
            message:
              "Invalid value: \"Not_A_Name\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
          },
          {
            reason: 'FieldValueNotSupported',
            field: 'subjects[3].apiGroup',
            message: 'Unsupported value: "rbac.authorization.k8s.io": supported values: ""',
          },
        ],
      },
    ];
    for (const { path, body, causes } of cases) {
      const answer = await request(cluster, 'POST', path, { body });
      assert.equal(answer.status, 422, answer.text);
      const status = answer.body as Status;
      assert.equal(status.reason, 'Invalid');
      assert.deepEqual(
        status.details?.causes,
        causes.map(({ reason, message, field }) => ({ reason, message, field })),
      );
    }
  });

  it('validates the rules of Roles and ClusterRoles', async () => {
    const role = await request(cluster, 'POST', `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/roles`, {
      body: {
        metadata: { name: 'bad-rules' },
        rules: [
          { apiGroups: [''], resources: ['secrets'], verbs: [] },
          { nonResourceURLs: ['/healthz'], verbs: ['get'] },
          { verbs: ['get'] },
        ],
      },
    });
    assert.equal(role.status, 422, role.text);
    assert.deepEqual((role.body as Status).details?.causes, [
      {
        reason: 'FieldValueRequired',
        message: 'Required value: verbs must contain at least one value',
        field: 'rules[0].verbs',
      },
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
        field: 'rules[1].nonResourceURLs',
      },
      {
        reason: 'FieldValueRequired',
        message: 'Required value: resource rules must supply at least one api group',
        field: 'rules[2].apiGroups',
      },
      {
        reason: 'FieldValueRequired',
        message: 'Required value: resource rules must supply at least one resource',
        field: 'rules[2].resources',
      },
    ]);
    const clusterRole = await request(cluster, 'POST', `/apis/${RBAC}/v1/clusterroles`, {
      body: {
        metadata: { name: 'bad-cluster-rules' },
        rules: [
          { nonResourceURLs: ['/metrics'], verbs: ['get'] },
          { nonResourceURLs: ['/logs'], resources: ['pods'], verbs: ['get'] },
        ],
        aggregationRule: { clusterRoleSelectors: [] },
      },
    });
    assert.equal(clusterRole.status, 422, clusterRole.text);
    assert.deepEqual(
      (clusterRole.body as Status).details?.causes?.map((c) => `${c.field}: ${c.message}`),
      [
        'rules[1].nonResourceURLs: Invalid value: []string{"/logs"}: rules cannot apply to both regular resources and non-resource URLs',
        'aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
      ],
    );
  });

  it('keeps roleRef immutable on update, by PUT and by patch', async () => {
    await rbac.createNamespacedRoleBinding({
      namespace: NAMESPACE,
      body: {
        metadata: { name: 'fixed' },
        roleRef: { apiGroup: RBAC, kind: 'Role', name: 'app-config-reader' },
        subjects: [{ kind: 'ServiceAccount', name: 'binder', namespace: NAMESPACE }],
      },
    });
    const current = await rbac.readNamespacedRoleBinding({ name: 'fixed', namespace: NAMESPACE });
    const message =
      'RoleBinding.rbac.authorization.k8s.io "fixed" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.k8s.io", Kind:"ClusterRole", Name:"cluster-admin"}: cannot change roleRef';
    const put = await request(
      cluster,
      'PUT',
      `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/rolebindings/fixed`,
      {
        body: {
          ...current,
          roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
        },
      },
    );
    assert.equal(put.status, 422, put.text);
    assert.equal((put.body as Status).message, message);
    const patch = await request(
      cluster,
      'PATCH',
      `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/rolebindings/fixed`,
      {
        body: { roleRef: { kind: 'ClusterRole', name: 'cluster-admin' } },
        contentType: 'application/merge-patch+json',
      },
    );
    assert.equal(patch.status, 422, patch.text);
    assert.equal((patch.body as Status).message, message);
    // Subjects may change; the roleRef stays.
    const subjects = await request(
      cluster,
      'PATCH',
      `/apis/${RBAC}/v1/namespaces/${NAMESPACE}/rolebindings/fixed`,
      {
        body: { subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: NAMESPACE }] },
        contentType: 'application/merge-patch+json',
      },
    );
    assert.equal(subjects.status, 200, subjects.text);
  });
});
