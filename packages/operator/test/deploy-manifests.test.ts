// The install under deploy/: every kustomization renders with kubectl, every object it renders is
// what Kubernetes' own schemas accept, and the base applies to the embedded cluster, where the
// operator and the dashboard then work with no more than the RBAC the manifests give them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse, parseAllDocuments, stringify } from 'yaml';
import {
  CORE_KINDS,
  ForbiddenError,
  KINDS,
  NotFoundError,
  type Kube,
  type KubeObject,
  type Workspace,
} from '@paddock/kube';
import {
  OPERATOR_CLUSTER_ROLE,
  OPERATOR_LEADER_ELECTION_ROLE,
  PROOF_SECRET_NAME,
  PROOF_SIGNING_KEY,
  QUOTA_NAME,
  isolationPolicyName,
  ownedSelector,
  serviceAccountNames,
} from '@paddock/operator';
import {
  eventually,
  startEmbeddedCluster,
  startOperator,
  tempDir,
  validateUpstream,
  type EmbeddedCluster,
  type Started,
} from '@paddock/testing';

const root = resolve(import.meta.dirname, '..', '..', '..');

/** Every kustomization an install applies, base first. */
const KUSTOMIZATIONS = [
  'deploy/base',
  'deploy/overlays/builtin-postgres',
  'deploy/overlays/oauth',
  'deploy/examples/agent',
] as const;
type KustomizationDir = (typeof KUSTOMIZATIONS)[number];

/** The platform's namespace, where the operator and the dashboard run. */
const SYSTEM = 'paddock-system';

interface Obj extends KubeObject {
  apiVersion: string;
  kind: string;
  metadata: NonNullable<KubeObject['metadata']> & { name: string };
  [field: string]: unknown;
}

interface Container {
  name: string;
  image?: string;
  args?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: {
    allowPrivilegeEscalation?: boolean;
    readOnlyRootFilesystem?: boolean;
    runAsNonRoot?: boolean;
    capabilities?: { drop?: string[] };
  };
  volumeMounts?: { name: string; mountPath: string }[];
}

interface PodSpec {
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; seccompProfile?: unknown };
  containers: Container[];
  volumes?: { name: string; secret?: { secretName: string } }[];
}

/** The upstream model of each kind an install holds, by apiVersion and kind. */
/**
 * kubectl kustomize folds long base64 values over lines, which the API server's decoder reads as
 * one; the schema's "byte" format does not, so the check sees them unfolded.
 */
function unfolded(object: Obj): Obj {
  if (object.kind !== 'Secret' || object.data === undefined) return object;
  const data = Object.entries(object.data as Record<string, string>).map(([k, v]) => [
    k,
    v.replace(/\s/g, ''),
  ]);
  return { ...object, data: Object.fromEntries(data) };
}

/** Paddock's own kinds have no upstream model: the embedded cluster checks them on apply. */
const isPaddockKind = (object: Obj) => object.apiVersion.startsWith('paddock.dev/');

/** Built-in kinds checked against Kubernetes' own schemas (@paddock/testing's validateUpstream). */
function validateBuiltIn(object: Obj): void {
  if (!isPaddockKind(object)) validateUpstream(unfolded(object));
}

/** Runs kubectl; resolves with what it printed and its exit code. */
function kubectl(
  args: string[],
  options: { input?: string; kubeconfig?: string; home?: string } = {},
): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const flags = options.kubeconfig === undefined ? [] : ['--kubeconfig', options.kubeconfig];
  const child = spawn('kubectl', [...flags, ...args], {
    cwd: root,
    env: { ...process.env, ...(options.home === undefined ? {} : { HOME: options.home }) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.input ?? '');
  return new Promise((done, fail) => {
    child.on('error', fail);
    child.on('close', (code) => done({ stdout, stderr, code }));
  });
}

const rendered = new Map<KustomizationDir, Obj[]>();

/** The objects `kubectl kustomize` renders from the folder (rendered once per file). */
async function render(dir: KustomizationDir): Promise<Obj[]> {
  const known = rendered.get(dir);
  if (known) return known;
  const { stdout, stderr, code } = await kubectl(['kustomize', dir]);
  assert.equal(code, 0, `kubectl kustomize ${dir}: ${stderr}`);
  const objects = parseAllDocuments(stdout).map((doc) => doc.toJS() as Obj);
  rendered.set(dir, objects);
  return objects;
}

function find(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  assert.ok(found, `no ${kind} ${name}`);
  return found;
}

/** The object a generator made: its name carries a content hash after the one given. */
function generated(objects: Obj[], kind: string, name: string): Obj {
  const found = objects.filter(
    (o) => o.kind === kind && new RegExp(`^${name}-[a-z0-9]{10}$`).test(o.metadata.name),
  );
  assert.equal(found.length, 1, `one generated ${kind} ${name}`);
  return found[0]!;
}

function podSpec(deployment: Obj): PodSpec {
  return (deployment.spec as { template: { spec: PodSpec } }).template.spec;
}

function container(deployment: Obj, name: string): Container {
  const found = podSpec(deployment).containers.find((c) => c.name === name);
  assert.ok(found, `${deployment.metadata.name} has no container ${name}`);
  return found;
}

function envValue(c: Container, name: string): string | undefined {
  return c.env?.find((e) => e.name === name)?.value;
}

describe('the kustomizations under deploy/', () => {
  it('render with kubectl kustomize: the base, every overlay and the agent example', async () => {
    for (const dir of KUSTOMIZATIONS) {
      const objects = await render(dir);
      assert.ok(objects.length > 0, `${dir} renders nothing`);
      const keys = objects.map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`);
      assert.equal(new Set(keys).size, keys.length, `${dir} renders an object twice`);
    }
  });

  it('render only objects that the upstream Kubernetes schemas accept', async () => {
    let checked = 0;
    for (const dir of KUSTOMIZATIONS) {
      for (const object of await render(dir)) {
        assert.doesNotThrow(
          () => validateBuiltIn(object),
          `${dir}: ${object.kind} ${object.metadata.name}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 40);
  });

  it('check against schemas that do refuse what Kubernetes refuses', async () => {
    const operator = find(await render('deploy/base'), 'Deployment', 'paddock-operator');
    const broken = { ...operator, spec: { ...(operator.spec as object), replicas: 'two' } };
    assert.throws(() => validateBuiltIn(broken), /replicas/);
  });

  it('run every container as a non-root user, read-only, without capabilities, probed and bounded', async () => {
    for (const dir of KUSTOMIZATIONS) {
      for (const deployment of (await render(dir)).filter((o) => o.kind === 'Deployment')) {
        const where = `${dir}: ${deployment.metadata.name}`;
        const pod = podSpec(deployment);
        assert.equal(pod.securityContext?.runAsNonRoot, true, where);
        assert.ok((pod.securityContext?.runAsUser ?? 0) > 0, where);
        assert.deepEqual(pod.securityContext?.seccompProfile, { type: 'RuntimeDefault' }, where);
        for (const c of pod.containers) {
          const at = `${where}/${c.name}`;
          assert.equal(c.securityContext?.readOnlyRootFilesystem, true, at);
          assert.equal(c.securityContext?.allowPrivilegeEscalation, false, at);
          assert.equal(c.securityContext?.runAsNonRoot, true, at);
          assert.deepEqual(c.securityContext?.capabilities?.drop, ['ALL'], at);
          assert.ok(c.livenessProbe && c.readinessProbe, `${at}: probes`);
          assert.ok(c.resources?.requests && c.resources.limits, `${at}: requests and limits`);
          assert.match(c.image ?? '', /:v?\d+\.\d+\.\d+$/, `${at}: an image with an exact version`);
        }
      }
    }
  });

  it('run two operator replicas electing a leader, with probes, metrics and a disruption budget', async () => {
    const base = await render('deploy/base');
    const deployment = find(base, 'Deployment', 'paddock-operator');
    assert.equal((deployment.spec as { replicas: number }).replicas, 2);
    const operator = container(deployment, 'operator');
    assert.equal(envValue(operator, 'SVC_OPERATOR_LISTEN_ADDR'), '0.0.0.0:8081');
    assert.equal(envValue(operator, 'SVC_OPERATOR_LEADER_ELECTION'), 'true');
    assert.deepEqual(operator.ports, [
      { name: 'http-metrics', containerPort: 8081, protocol: 'TCP' },
    ]);
    assert.deepEqual(operator.livenessProbe, {
      httpGet: { path: '/healthz', port: 'http-metrics' },
      periodSeconds: 10,
      timeoutSeconds: 3,
      failureThreshold: 3,
    });
    assert.equal(
      (operator.readinessProbe as { httpGet: { path: string } }).httpGet.path,
      '/readyz',
    );
    const annotations = (deployment.spec as { template: { metadata: KubeObject['metadata'] } })
      .template.metadata?.annotations;
    assert.equal(annotations?.['prometheus.io/port'], '8081');
    find(base, 'PodDisruptionBudget', 'paddock-operator');
    find(base, 'Service', 'paddock-operator-metrics');
  });

  it('bind the operator to its generated roles only, which hold no workspace rule', async () => {
    const base = await render('deploy/base');
    const clusterRole = find(base, 'ClusterRole', 'paddock-operator');
    assert.deepEqual(clusterRole.rules, OPERATOR_CLUSTER_ROLE.rules);
    assert.deepEqual(
      find(base, 'Role', OPERATOR_LEADER_ELECTION_ROLE.metadata.name).rules,
      OPERATOR_LEADER_ELECTION_ROLE.rules,
    );
    const bindings = base.filter(
      (o) =>
        (o.kind === 'ClusterRoleBinding' || o.kind === 'RoleBinding') &&
        (o.subjects as { name: string }[]).some((s) => s.name === 'paddock-operator'),
    );
    assert.deepEqual(bindings.map((b) => (b.roleRef as { name: string }).name).sort(), [
      'paddock-operator',
      'paddock-operator-leader-election',
    ]);
    for (const name of ['owner', 'editor', 'viewer']) {
      find(base, 'ClusterRole', `paddock-workspace-${name}`);
    }
  });

  it('configure the dashboard through a ConfigMap and Secrets, with the secrets as placeholders', async () => {
    const base = await render('deploy/base');
    const config = generated(base, 'ConfigMap', 'paddock-dashboard').data as Record<string, string>;
    assert.equal(config.SVC_LISTEN_ADDR, '0.0.0.0:3000');
    assert.ok(config.SVC_BASE_URL);
    const secret = generated(base, 'Secret', 'paddock-dashboard').data as Record<string, string>;
    assert.deepEqual(Object.keys(secret).sort(), [
      'SVC_AUTH_API_KEYS_SECRET',
      'SVC_SESSION_SECRET',
    ]);
    const dashboard = container(find(base, 'Deployment', 'paddock-dashboard'), 'dashboard');
    assert.deepEqual(
      dashboard.envFrom?.map((from) => from.configMapRef?.name ?? from.secretRef?.name),
      [
        generated(base, 'ConfigMap', 'paddock-dashboard').metadata.name,
        generated(base, 'Secret', 'paddock-dashboard').metadata.name,
      ],
    );
    const paths = Object.fromEntries(
      [dashboard.livenessProbe, dashboard.readinessProbe].map((p, i) => [
        i,
        (p as { httpGet: { path: string } }).httpGet.path,
      ]),
    );
    assert.deepEqual(paths, { 0: '/healthz', 1: '/readyz' });
  });

  it('commit no credential: every Secret value is a placeholder the services refuse', async () => {
    for (const dir of KUSTOMIZATIONS) {
      for (const secret of (await render(dir)).filter((o) => o.kind === 'Secret')) {
        for (const [key, encoded] of Object.entries(secret.data as Record<string, string>)) {
          const value = Buffer.from(encoded, 'base64').toString('utf8');
          assert.ok(
            value === '' || value.includes('CHANGE-ME'),
            `${dir}: ${secret.metadata.name}/${key} is not a placeholder`,
          );
          // Session, API key and cookie secrets need 16 to 32 characters at least: refused.
          if (!key.includes('URL')) assert.ok(value.length < 16, `${key} would be accepted`);
        }
      }
    }
  });

  it('store the builtin users in PostgreSQL with its URL from a Secret (builtin-postgres)', async () => {
    const objects = await render('deploy/overlays/builtin-postgres');
    const config = generated(objects, 'ConfigMap', 'paddock-dashboard').data as Record<
      string,
      string
    >;
    assert.equal(config.SVC_AUTH_MODE, 'builtin');
    assert.equal(config.SVC_BUILTIN_STORE_TYPE, 'postgresql');
    const postgres = generated(objects, 'Secret', 'paddock-dashboard-postgres');
    assert.deepEqual(Object.keys(postgres.data as object), ['SVC_BUILTIN_POSTGRES_URL']);
    const deployment = find(objects, 'Deployment', 'paddock-dashboard');
    assert.ok(
      container(deployment, 'dashboard').envFrom?.some(
        (from) => from.secretRef?.name === postgres.metadata.name,
      ),
    );
    assert.equal((deployment.spec as { replicas: number }).replicas, 2);
    assert.ok(!objects.some((o) => o.kind === 'PersistentVolumeClaim'));
    find(objects, 'PodDisruptionBudget', 'paddock-dashboard');
  });

  it('sign in through OpenID Connect with the client secret as a mounted file (oauth)', async () => {
    const objects = await render('deploy/overlays/oauth');
    const config = generated(objects, 'ConfigMap', 'paddock-dashboard').data as Record<
      string,
      string
    >;
    assert.equal(config.SVC_AUTH_MODE, 'oauth');
    assert.ok(config.SVC_OAUTH_ISSUER_URL && config.SVC_OAUTH_CLIENT_ID);
    assert.equal(config.SVC_OAUTH_CLIENT_SECRET, undefined);
    const file = config.SVC_OAUTH_CLIENT_SECRET_FILE ?? '';
    const deployment = find(objects, 'Deployment', 'paddock-dashboard');
    const secret = generated(objects, 'Secret', 'paddock-dashboard-oauth');
    const volume = podSpec(deployment).volumes?.find(
      (v) => v.secret?.secretName === secret.metadata.name,
    );
    assert.ok(volume);
    const mount = container(deployment, 'dashboard').volumeMounts?.find(
      (m) => m.name === volume.name,
    );
    assert.ok(mount && file.startsWith(`${mount.mountPath}/`));
    assert.ok(Object.keys(secret.data as object).includes(file.slice(mount.mountPath.length + 1)));
  });

  it('take an install’s own overlay as the install guide writes it: images, URL and secrets replaced', async () => {
    const own = await tempDir('paddock-own-overlay-');
    try {
      const upstream = relative(own.path, join(root, 'deploy', 'overlays', 'builtin-postgres'));
      await writeFile(
        join(own.path, 'kustomization.yaml'),
        stringify({
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          resources: [upstream],
          images: ['operator', 'dashboard'].map((service) => ({
            name: `paddock-${service}`,
            newName: `registry.example.org/paddock/paddock-${service}`,
            newTag: '0.1.0',
          })),
          configMapGenerator: [
            {
              name: 'paddock-dashboard',
              namespace: SYSTEM,
              behavior: 'merge',
              literals: ['SVC_BASE_URL=https://paddock.example.org'],
            },
          ],
          secretGenerator: [
            { name: 'paddock-dashboard', envs: ['dashboard-secrets.env'] },
            { name: 'paddock-dashboard-postgres', envs: ['postgres.env'] },
          ].map((generator) => ({ ...generator, namespace: SYSTEM, behavior: 'replace' })),
        }),
      );
      const secret = 'x'.repeat(48);
      await writeFile(
        join(own.path, 'dashboard-secrets.env'),
        `SVC_SESSION_SECRET=${secret}\nSVC_AUTH_API_KEYS_SECRET=${secret}\n`,
      );
      await writeFile(
        join(own.path, 'postgres.env'),
        'SVC_BUILTIN_POSTGRES_URL=postgres://paddock:pw@db.example.org:5432/paddock\n',
      );
      const { stdout, stderr, code } = await kubectl(['kustomize', own.path]);
      assert.equal(code, 0, stderr);
      const objects = parseAllDocuments(stdout).map((doc) => doc.toJS() as Obj);
      const images = objects
        .filter((o) => o.kind === 'Deployment')
        .flatMap((d) => podSpec(d).containers.map((c) => c.image));
      assert.deepEqual(images.sort(), [
        'registry.example.org/paddock/paddock-dashboard:0.1.0',
        'registry.example.org/paddock/paddock-operator:0.1.0',
      ]);
      const config = generated(objects, 'ConfigMap', 'paddock-dashboard').data as Record<
        string,
        string
      >;
      assert.equal(config.SVC_BASE_URL, 'https://paddock.example.org');
      assert.equal(config.SVC_BUILTIN_STORE_TYPE, 'postgresql');
      for (const o of objects.filter((o) => o.kind === 'Secret')) {
        for (const value of Object.values(o.data as Record<string, string>)) {
          assert.ok(!Buffer.from(value, 'base64').toString().includes('CHANGE-ME'));
        }
      }
    } finally {
      await own.remove();
    }
  });

  it('hold an agent example: an AgentRuntime and its PromptPack for the sample workspace', async () => {
    const objects = await render('deploy/examples/agent');
    assert.deepEqual(
      objects.map((o) => `${o.kind} ${o.metadata.namespace}/${o.metadata.name}`).sort(),
      ['AgentRuntime paddock-sample/sample-agent', 'PromptPack paddock-sample/sample-prompts'],
    );
    const agent = find(objects, 'AgentRuntime', 'sample-agent').spec as {
      promptPackRef: { name: string };
    };
    assert.equal(agent.promptPackRef.name, 'sample-prompts');
  });
});

describe('the base on the embedded cluster, each component as its own ServiceAccount', () => {
  let cluster: EmbeddedCluster;
  let folder: Awaited<ReturnType<typeof tempDir>>;
  let operator: Started | undefined;
  let applied: { stdout: string; stderr: string; code: number | null };
  /** The served part of the rendered base, as applied. */
  let manifests: string;

  /** A kubeconfig with the admin's server and certificate authority, as the given token. */
  async function kubeconfigFor(name: string, token: string): Promise<string> {
    const admin = parse(await readFile(cluster.kubeconfig, 'utf8')) as {
      clusters: { name: string; cluster: Record<string, unknown> }[];
    };
    const server = admin.clusters[0]!;
    const file = join(folder.path, `${name}.kubeconfig`);
    await writeFile(
      file,
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [server],
        users: [{ name, user: { token } }],
        contexts: [{ name, context: { cluster: server.name, user: name } }],
        'current-context': name,
      }),
      { mode: 0o600 },
    );
    return file;
  }

  async function as(namespace: string, account: string): Promise<Kube> {
    const { token } = await cluster.kube.requestToken(namespace, account);
    return cluster.kube.as(token);
  }

  before(async () => {
    folder = await tempDir('paddock-deploy-');
    cluster = await startEmbeddedCluster();
    const objects = await render('deploy/base');
    manifests = objects.map((o) => stringify(o)).join('---\n');
    applied = await kubectl(['apply', '-f', '-'], {
      input: manifests,
      kubeconfig: cluster.kubeconfig,
      home: folder.path,
    });
    assert.equal(applied.code, 0, applied.stderr);
    // The compiled operator, authenticated as its own ServiceAccount, electing a leader.
    const { token } = await cluster.kube.requestToken(SYSTEM, 'paddock-operator');
    operator = await startOperator(await kubeconfigFor('paddock-operator', token), {
      SVC_OPERATOR_LEADER_ELECTION: 'true',
      SVC_OPERATOR_NAMESPACE: SYSTEM,
    });
  });

  after(async () => {
    await operator?.stop();
    await cluster.stop();
    await folder.remove();
  });

  it('applies cleanly with kubectl apply, every object of the base, and again unchanged', async () => {
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal(applied.stderr.trim(), '');
    const lines = applied.stdout.trim().split('\n');
    assert.ok(
      lines.every((line) => / (created|configured|unchanged)$/.test(line)),
      applied.stdout,
    );
    // Applying again changes nothing.
    const again = await kubectl(['apply', '-f', '-'], {
      input: manifests,
      kubeconfig: cluster.kubeconfig,
      home: folder.path,
    });
    assert.equal(again.code, 0, again.stderr);
    // A PodDisruptionBudget's selector is replaced wholesale by apply's patch (its patch strategy
    // is "replace"), so kubectl sends, and reports, a patch for it every time.
    const unchanged = again.stdout
      .trim()
      .split('\n')
      .filter((line) => !line.startsWith('poddisruptionbudget.policy/'));
    assert.ok(
      unchanged.every((line) => line.endsWith(' unchanged')),
      again.stdout,
    );
    for (const kind of KINDS) {
      await cluster.kube
        .resource(CORE_KINDS.customResourceDefinition)
        .get(`${kind.plural}.${kind.group}`);
    }
  });

  it('runs the operator as its ServiceAccount: a Workspace gets every object, and deleting it removes the namespace', async () => {
    const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;
    const workspaces = cluster.kube.resource<Workspace>(workspaceKind);
    const workspace: Workspace = {
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'deployed' },
      spec: {
        displayName: 'Deployed',
        namespace: { name: 'team-deployed', create: true },
        roleBindings: [{ groups: ['team-deployed-developers'], role: 'editor' }],
        directGrants: [{ user: 'alice@example.com', role: 'owner' }],
        networkPolicy: { isolate: true },
        quotas: { objects: { configmaps: 20 } },
      },
    };
    await workspaces.create(workspace);
    const ready = await eventually(
      'the Workspace Ready',
      async () => {
        const found = await workspaces.get('deployed');
        return found.status?.phase === 'Ready' ? found : undefined;
      },
      30_000,
      100,
    );
    assert.equal(ready.status?.namespace?.created, true);
    const namespace = 'team-deployed';
    await cluster.kube.resource(CORE_KINDS.namespace).get(namespace);
    for (const account of Object.values(serviceAccountNames())) {
      await cluster.kube.resource(CORE_KINDS.serviceAccount).get(account, namespace);
    }
    const bindings = await cluster.kube
      .resource<KubeObject & { roleRef: { name: string } }>(CORE_KINDS.roleBinding)
      .listAll({ namespace, labelSelector: ownedSelector(ready) });
    const roles = bindings.items.map((b) => b.roleRef.name).sort();
    // The three ServiceAccounts', the group's and the direct grant's.
    assert.deepEqual(roles, [
      'paddock-workspace-editor',
      'paddock-workspace-editor',
      'paddock-workspace-owner',
      'paddock-workspace-owner',
      'paddock-workspace-viewer',
    ]);
    await cluster.kube.resource(CORE_KINDS.resourceQuota).get(QUOTA_NAME, namespace);
    await cluster.kube
      .resource(CORE_KINDS.networkPolicy)
      .get(isolationPolicyName(ready), namespace);

    await workspaces.delete('deployed');
    await eventually(
      'the namespace gone',
      async () => {
        try {
          await cluster.kube.resource(CORE_KINDS.namespace).get(namespace);
          return undefined;
        } catch (err) {
          if (err instanceof NotFoundError) return true;
          throw err;
        }
      },
      30_000,
      100,
    );
    await eventually(
      'the Workspace gone',
      async () => {
        try {
          await workspaces.get('deployed');
          return undefined;
        } catch (err) {
          if (err instanceof NotFoundError) return true;
          throw err;
        }
      },
      30_000,
      100,
    );
    // It held its Lease and never met a refusal: not for an event, not for anything else.
    const lease = await cluster.kube
      .resource<KubeObject & { spec: { holderIdentity?: string } }>(CORE_KINDS.lease)
      .get('paddock-operator', SYSTEM);
    assert.ok(lease.spec.holderIdentity);
    assert.doesNotMatch(operator?.output() ?? '', /forbidden/i);
  });

  it('runs the agent example: the operator as its ServiceAccount makes its StatefulSet, Service, NetworkPolicy and proof Secrets', async () => {
    const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;
    await cluster.kube.resource<Workspace>(workspaceKind).create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'sample' },
      spec: { displayName: 'Sample', namespace: { name: 'paddock-sample', create: true } },
    });
    await eventually(
      'the sample namespace',
      async () => {
        try {
          return await cluster.kube.resource(CORE_KINDS.namespace).get('paddock-sample');
        } catch (err) {
          if (err instanceof NotFoundError) return undefined;
          throw err;
        }
      },
      30_000,
      100,
    );
    const example = (await render('deploy/examples/agent')).map((o) => stringify(o)).join('---\n');
    const result = await kubectl(['apply', '-f', '-'], {
      input: example,
      kubeconfig: cluster.kubeconfig,
      home: folder.path,
    });
    assert.equal(result.code, 0, result.stderr);
    const statefulSets = cluster.kube.resource({
      group: 'apps',
      version: 'v1',
      kind: 'StatefulSet',
      plural: 'statefulsets',
      namespaced: true,
    });
    const made = async (read: () => Promise<unknown>) =>
      read().catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
    await eventually(
      'the StatefulSet, the Service, the NetworkPolicy and the public key',
      async () =>
        (await made(() => statefulSets.get('sample-agent', 'paddock-sample'))) &&
        (await made(() =>
          cluster.kube
            .resource(CORE_KINDS.networkPolicy)
            .get('agent-sample-agent', 'paddock-sample'),
        )) &&
        (await made(() =>
          cluster.kube.resource(CORE_KINDS.service).get('sample-agent', 'paddock-sample'),
        )) &&
        (await made(() =>
          cluster.kube.resource(CORE_KINDS.secret).get(PROOF_SECRET_NAME, 'paddock-sample'),
        )),
      30_000,
      100,
    );
    const signing = (await cluster.kube
      .resource(CORE_KINDS.secret)
      .get(PROOF_SECRET_NAME, SYSTEM)) as KubeObject & { data: Record<string, string> };
    assert.ok(signing.data[PROOF_SIGNING_KEY]);
    assert.doesNotMatch(operator?.output() ?? '', /forbidden/i);
  });

  it('lets the dashboard’s ServiceAccount read and create Workspaces, mint workspace tokens and read the proof key, and nothing more', async () => {
    const workspaceKind = KINDS.find((k) => k.kind === 'Workspace')!;
    await cluster.kube.resource<Workspace>(workspaceKind).create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'dashboard-sees' },
      spec: { displayName: 'Seen', namespace: { name: 'team-seen', create: true } },
    });
    const dashboard = await as(SYSTEM, 'paddock-dashboard');
    const workspaces = dashboard.resource<Workspace>(workspaceKind);
    assert.ok((await workspaces.list()).items.some((w) => w.metadata.name === 'dashboard-sees'));
    await workspaces.patch('dashboard-sees', { metadata: { annotations: { seen: 'yes' } } });
    // The operator makes the workspace's accounts.
    await eventually(
      'the workspace ServiceAccounts',
      async () => {
        try {
          return await cluster.kube
            .resource(CORE_KINDS.serviceAccount)
            .get('workspace-viewer', 'team-seen');
        } catch (err) {
          if (err instanceof NotFoundError) return undefined;
          throw err;
        }
      },
      30_000,
      100,
    );
    const { token } = await dashboard.requestToken('team-seen', 'workspace-viewer');
    assert.ok(token.length > 0);
    // The identity-proof signing key, which the operator made for the agent example.
    const proof = (await dashboard
      .resource(CORE_KINDS.secret)
      .get(PROOF_SECRET_NAME, SYSTEM)) as KubeObject & { data: Record<string, string> };
    assert.ok(proof.data[PROOF_SIGNING_KEY]);
    await assert.rejects(
      dashboard.resource(CORE_KINDS.secret).get('paddock-dashboard', SYSTEM),
      ForbiddenError,
    );
    await assert.rejects(
      dashboard.resource(CORE_KINDS.secret).get(PROOF_SECRET_NAME, 'paddock-sample'),
      ForbiddenError,
    );
    await assert.rejects(
      dashboard.resource(CORE_KINDS.secret).list({ namespace: SYSTEM }),
      ForbiddenError,
    );
    await assert.rejects(dashboard.resource(CORE_KINDS.secret).list(), ForbiddenError);
    await assert.rejects(
      dashboard.resource(CORE_KINDS.namespace).create({ metadata: { name: 'not-allowed' } }),
      ForbiddenError,
    );
    // It creates Workspaces for the dashboard's admins, and never deletes one.
    await workspaces.create({
      apiVersion: 'paddock.dev/v1alpha1',
      kind: 'Workspace',
      metadata: { name: 'dashboard-made' },
      spec: { displayName: 'Made', namespace: { name: 'team-made', create: true } },
    });
    await assert.rejects(workspaces.delete('dashboard-made'), ForbiddenError);
  });

  it('gives the operator’s ServiceAccount nothing beyond its roles', async () => {
    const operatorKube = await as(SYSTEM, 'paddock-operator');
    await assert.rejects(operatorKube.resource(CORE_KINDS.secret).list(), ForbiddenError);
    // Secrets by name only: the identity-proof one, never another.
    await assert.rejects(
      operatorKube.resource(CORE_KINDS.secret).get('paddock-dashboard', SYSTEM),
      ForbiddenError,
    );
    // Pods are watched, never written.
    await assert.rejects(
      operatorKube
        .resource(CORE_KINDS.pod)
        .create({ metadata: { name: 'not-allowed', namespace: SYSTEM } }),
      ForbiddenError,
    );
    await assert.rejects(
      operatorKube.resource(CORE_KINDS.clusterRole).create({ metadata: { name: 'escalate' } }),
      ForbiddenError,
    );
    await assert.rejects(
      operatorKube.resource(CORE_KINDS.lease).get('someone-else', SYSTEM),
      ForbiddenError,
    );
  });
});
