import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CORE_KINDS, Informer, Kube, type KubeObject } from '@paddock/kube';
import { assertDies, eventually } from '@paddock/testing';
import type { NodeClock } from '../src/local-node/node-clock.js';
import type { Container, Pod, PodStatus } from '../src/local-node/pod.js';
import { LocalNodeSuite } from './local-node-suite.js';

const NAMESPACE = 'pods';
/** Where Kubernetes mounts a pod's API credentials, and what a client's loadFromCluster reads. */
const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

/** A clock the test moves: timers fire when it passes their time, never on their own. */
class ManualClock implements NodeClock {
  private time = Date.now();
  private timers = new Set<{ at: number; fn: () => void }>();

  now(): number {
    return this.time;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + ms, fn };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** When the pending timers are due, soonest first. */
  pending(): number[] {
    return [...this.timers].map((t) => t.at).sort((a, b) => a - b);
  }

  advance(ms: number): void {
    this.time += ms;
    for (const timer of [...this.timers]) {
      if (timer.at > this.time) continue;
      this.timers.delete(timer);
      timer.fn();
    }
  }
}

/** A sandbox container listening on its own ports, Ready once it serves MCP. */
function sandbox(name: string, port: number, extra: Partial<Container> = {}): Container {
  return {
    name,
    image: 'paddock-sandbox:latest',
    args: ['-addr', `0.0.0.0:${port}`, '-allow-unauthenticated-mcp', '-workspace', '/workspace'],
    ports: [{ name: 'mcp', containerPort: port }],
    readinessProbe: { httpGet: { path: '/readyz', port: 'mcp' }, periodSeconds: 5 },
    volumeMounts: [
      { name: 'work', mountPath: '/workspace' },
      { name: 'tmp', mountPath: '/tmp' },
    ],
    ...extra,
  };
}

describe('the local node’s pods of several containers, with projected volumes', () => {
  const clock = new ManualClock();
  const suite = new LocalNodeSuite({ namespaces: [NAMESPACE], clock });

  const pods = () => suite.kube.resource<Pod>(CORE_KINDS.pod);
  const getPod = (name: string) =>
    pods()
      .get(name, NAMESPACE)
      .catch(() => undefined);
  const processesOf = (name: string) => {
    const found = suite.node.processes().filter((p) => p.pod === name && p.namespace === NAMESPACE);
    for (const p of found) suite.seen.add(p.pid);
    return Object.fromEntries(found.map((p) => [p.container, p]));
  };
  const isReady = (pod: Pod | undefined) =>
    pod?.status?.phase === 'Running' &&
    pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
  const readyPod = (name: string, check: (pod: Pod) => boolean = () => true) =>
    eventually(
      `${name} Running and Ready`,
      async () => {
        const pod = await getPod(name);
        return isReady(pod) && check(pod!) ? pod : undefined;
      },
      30_000,
      100,
    );
  const statusOf = (pod: Pod | PodStatus | undefined, container: string) =>
    ('status' in (pod ?? {})
      ? (pod as Pod).status
      : (pod as PodStatus | undefined)
    )?.containerStatuses?.find((c) => c.name === container);
  const waitingOf = (name: string, message: RegExp) =>
    eventually(`${name} waiting: ${message}`, async () => {
      const waiting = statusOf(await getPod(name), 'main')?.state.waiting;
      return waiting?.message !== undefined && message.test(waiting.message) ? waiting : undefined;
    });
  const eventsOf = async (name: string) =>
    (await suite.kube.eventsFor(NAMESPACE, { name, kind: 'Pod' })).map((e) => ({
      type: e.type,
      reason: e.reason,
      message: e.message ?? '',
    }));
  const create = (kind: 'serviceAccount' | 'configMap', body: Record<string, unknown>) =>
    suite.kube.resource<KubeObject>(CORE_KINDS[kind]).create(body);

  before(() => suite.start());
  after(() => suite.stop());

  it('runs every container on the pod’s one address, Ready when all are, each restarted on its own, its log its own', async () => {
    // Every status the pod goes through, to see it unready while one container restarts.
    const statuses: PodStatus[] = [];
    const informer = new Informer(
      pods(),
      { namespace: NAMESPACE, fieldSelector: 'metadata.name=pair' },
      () => {},
    );
    informer.on((_, pod) => {
      if (pod.status) statuses.push(pod.status);
    });
    informer.start();
    await informer.synced;
    try {
      await pods().create({
        metadata: { name: 'pair', namespace: NAMESPACE },
        spec: {
          terminationGracePeriodSeconds: 5,
          containers: [sandbox('sandbox', 7070), sandbox('agent', 7080)],
          volumes: [
            { name: 'work', emptyDir: {} },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      });
      const pod = await readyPod('pair');
      assert.deepEqual(
        pod.status?.containerStatuses?.map((c) => [
          c.name,
          c.image,
          c.ready,
          c.restartCount,
          c.state.running !== undefined,
        ]),
        [
          ['sandbox', 'paddock-sandbox:latest', true, 0, true],
          ['agent', 'paddock-sandbox:latest', true, 0, true],
        ],
      );
      const first = processesOf('pair');
      assert.deepEqual(Object.keys(first), ['sandbox', 'agent']);
      assert.notEqual(first['sandbox']!.pid, first['agent']!.pid);
      assert.equal(first['sandbox']!.address, pod.status?.podIP);
      assert.equal(first['agent']!.address, pod.status?.podIP, 'one address for the pod');
      for (const port of [7070, 7080]) {
        const res = await fetch(`http://${pod.status?.podIP}:${port}/readyz`);
        assert.equal(res.status, 200, `port ${port}`);
      }

      // The agent container dies: it alone restarts, and the pod is unready meanwhile.
      process.kill(first['agent']!.pid, 'SIGKILL');
      const again = await readyPod('pair', (p) => statusOf(p, 'agent')?.restartCount === 1);
      assert.equal(statusOf(again, 'agent')?.lastState.terminated?.exitCode, 137);
      assert.equal(statusOf(again, 'sandbox')?.restartCount, 0);
      assert.equal(processesOf('pair')['sandbox']?.pid, first['sandbox']!.pid, 'the other runs on');
      const unready = statuses.find(
        (s) => statusOf(s, 'agent')?.ready === false && statusOf(s, 'sandbox')?.ready === true,
      );
      assert.ok(unready, 'a status with one container unready');
      assert.equal(unready.conditions?.find((c) => c.type === 'Ready')?.status, 'False');
      assert.equal(
        unready.conditions?.find((c) => c.type === 'Ready')?.message,
        'containers with unready status: [agent]',
      );

      // Then the sandbox container dies: the agent's count stays.
      process.kill(first['sandbox']!.pid, 'SIGKILL');
      const third = await readyPod('pair', (p) => statusOf(p, 'sandbox')?.restartCount === 1);
      assert.equal(statusOf(third, 'agent')?.restartCount, 1);
    } finally {
      informer.stop();
    }

    // Each container's lines are in the pod's log under its name; without a name, kube-apiserver
    // refuses a pod of several containers (kubectl picks its default container itself).
    const logOf = (container: string, port: number) =>
      eventually(`${container}’s lines`, async () => {
        const text = await suite.kube.podLogs(NAMESPACE, 'pair', { container });
        const line = text.split('\n').find((l) => l.includes('MCP server listening'));
        return line?.includes(`:${port}"`) ? text : undefined;
      });
    assert.doesNotMatch(await logOf('sandbox', 7070), /:7080/);
    assert.doesNotMatch(await logOf('agent', 7080), /:7070/);
    await assert.rejects(
      suite.kube.podLogs(NAMESPACE, 'pair'),
      /a container name must be specified for pod pair, choose one of: \[sandbox agent\]/,
    );

    // Deleting the pod stops both.
    const last = processesOf('pair');
    await pods().delete('pair', NAMESPACE);
    await assertDies(last['sandbox']!.pid);
    await assertDies(last['agent']!.pid);
    const killing = (await eventsOf('pair')).filter((e) => e.reason === 'Killing');
    assert.deepEqual(killing.map((e) => e.message).sort(), [
      'Stopping container agent',
      'Stopping container sandbox',
    ]);
  });

  it('holds a container whose ServiceAccount or ConfigMap is missing, then writes its projected token, CA and namespace', async () => {
    await pods().create({
      metadata: { name: 'api', namespace: NAMESPACE },
      spec: {
        serviceAccountName: 'runner',
        automountServiceAccountToken: false,
        containers: [
          sandbox('main', 7090, {
            env: [{ name: 'SVC_AGENT_SERVICE_ACCOUNT_DIR', value: SERVICE_ACCOUNT_DIR }],
            volumeMounts: [
              { name: 'work', mountPath: '/workspace' },
              { name: 'tmp', mountPath: '/tmp' },
              { name: 'kube-api-access', mountPath: SERVICE_ACCOUNT_DIR, readOnly: true },
            ],
          }),
        ],
        volumes: [
          { name: 'work', emptyDir: {} },
          { name: 'tmp', emptyDir: {} },
          {
            name: 'kube-api-access',
            projected: {
              sources: [
                { serviceAccountToken: { path: 'token', expirationSeconds: 3600 } },
                {
                  configMap: {
                    name: 'kube-root-ca.crt',
                    items: [{ key: 'ca.crt', path: 'ca.crt' }],
                  },
                },
                { configMap: { name: 'settings', items: [{ key: 'level', path: 'level' }] } },
                {
                  downwardAPI: {
                    items: [
                      { path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } },
                      { path: 'name', fieldRef: { fieldPath: 'metadata.name' } },
                    ],
                  },
                },
              ],
            },
          },
        ],
      },
    });
    const noAccount = await waitingOf('api', /serviceaccounts "runner" not found/);
    assert.equal(noAccount.reason, 'ContainerCreating');
    assert.equal(
      noAccount.message,
      'MountVolume.SetUp failed for volume "kube-api-access" : failed to fetch token: serviceaccounts "runner" not found',
    );
    assert.equal((await getPod('api'))?.status?.phase, 'Pending');
    const failedMount = await eventually('the FailedMount event', async () =>
      (await eventsOf('api')).find((e) => e.reason === 'FailedMount'),
    );
    assert.equal(failedMount.type, 'Warning');
    assert.equal(processesOf('api')['main'], undefined);

    await create('serviceAccount', { metadata: { name: 'runner', namespace: NAMESPACE } });
    await waitingOf('api', /configmap "settings" not found/);
    await create('configMap', {
      metadata: { name: 'settings', namespace: NAMESPACE },
      data: { level: 'debug' },
    });
    const pod = await readyPod('api');
    assert.equal(statusOf(pod, 'main')?.restartCount, 0);

    // The container is told where its credentials are, and where the API server is.
    const running = processesOf('api')['main']!;
    const environ = new Map(
      (await readFile(`/proc/${running.pid}/environ`, 'utf8'))
        .split('\0')
        .filter((v) => v.includes('='))
        .map((v) => [v.slice(0, v.indexOf('=')), v.slice(v.indexOf('=') + 1)] as const),
    );
    const folder = environ.get('SVC_AGENT_SERVICE_ACCOUNT_DIR')!;
    const root = join(suite.dir.path, 'pods', pod.metadata.uid!, '.projected', 'kube-api-access');
    assert.equal(folder, `${root}${SERVICE_ACCOUNT_DIR}`);
    const server = new URL(suite.kube.config.getCurrentCluster()!.server);
    assert.equal(environ.get('KUBERNETES_SERVICE_HOST'), server.hostname);
    assert.equal(environ.get('KUBERNETES_SERVICE_PORT'), server.port);

    assert.equal(await readFile(join(folder, 'namespace'), 'utf8'), NAMESPACE);
    assert.equal(await readFile(join(folder, 'name'), 'utf8'), 'api');
    assert.equal(await readFile(join(folder, 'level'), 'utf8'), 'debug');
    const ca = await readFile(join(folder, 'ca.crt'), 'utf8');
    assert.match(ca, /^-----BEGIN CERTIFICATE-----/);
    for (const file of ['token', 'ca.crt', 'namespace']) {
      assert.equal((await stat(join(folder, file))).mode & 0o777, 0o600, file);
    }
    assert.equal((await stat(folder)).mode & 0o777, 0o700);
    assert.deepEqual((await readdir(folder)).sort(), [
      'ca.crt',
      'level',
      'name',
      'namespace',
      'token',
    ]);

    // A client in the container finds the API server over TLS with these alone, as the
    // ServiceAccount: the CA verifies the server, the token authenticates.
    const whoAmI = async () => {
      const saved = {
        host: process.env.KUBERNETES_SERVICE_HOST,
        port: process.env.KUBERNETES_SERVICE_PORT,
      };
      // The client library's own KubeConfig, the copy @paddock/kube uses.
      const config = new (suite.kube.config.constructor as new () => Kube['config'])();
      try {
        process.env.KUBERNETES_SERVICE_HOST = environ.get('KUBERNETES_SERVICE_HOST');
        process.env.KUBERNETES_SERVICE_PORT = environ.get('KUBERNETES_SERVICE_PORT');
        config.loadFromCluster(root);
      } finally {
        for (const [name, value] of [
          ['KUBERNETES_SERVICE_HOST', saved.host],
          ['KUBERNETES_SERVICE_PORT', saved.port],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
      assert.match(config.getCurrentCluster()!.server, /^https:/);
      const client = new Kube(config);
      try {
        const review = await client.rest.request<{ status?: { userInfo?: { username?: string } } }>(
          'POST',
          '/apis/authentication.k8s.io/v1/selfsubjectreviews',
          { body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' } },
        );
        return review.status?.userInfo?.username;
      } finally {
        client.close();
      }
    };
    assert.equal(await whoAmI(), `system:serviceaccount:${NAMESPACE}:runner`);

    // The token is renewed once 80% of its hour has passed on the node's clock, not before.
    const token = await readFile(join(folder, 'token'), 'utf8');
    const renewal = clock.pending()[0];
    assert.equal(renewal, clock.now() + 2880_000);
    clock.advance(2880_000 - 1);
    assert.deepEqual(clock.pending(), [renewal], 'not yet');
    clock.advance(1);
    const renewed = await eventually('a new token', async () => {
      const now = await readFile(join(folder, 'token'), 'utf8');
      return now !== token ? now : undefined;
    });
    assert.ok(renewed.length > 0);
    assert.deepEqual(
      (await readdir(folder)).sort(),
      ['ca.crt', 'level', 'name', 'namespace', 'token'],
      'written beside and renamed: nothing left over',
    );
    await eventually('the next renewal scheduled', () =>
      clock.pending()[0] === clock.now() + 2880_000 ? true : undefined,
    );
    assert.equal(await whoAmI(), `system:serviceaccount:${NAMESPACE}:runner`);

    await pods().delete('api', NAMESPACE);
    await assertDies(running.pid);
    assert.deepEqual(clock.pending(), [], 'renewals end with the pod');
  });
});
