import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CORE_KINDS, podEndpoint, type ApiResource, type KubeObject } from '@paddock/kube';
import { createProofKeys, PROOF_HEADER, signIdentityProof } from '@paddock/common';
import { assertDies, eventually, isAlive } from '@paddock/testing';
import { POD_NICENESS } from '../src/local-node/sandbox-process.js';
import {
  PERSISTENT_VOLUME_CLAIMS,
  type Container,
  type PersistentVolumeClaim,
  type Pod,
} from '../src/local-node/pod.js';
import { LocalNodeSuite } from './local-node-suite.js';

const NAMESPACE = 'team';
const STATEFUL_SETS: ApiResource = {
  group: 'apps',
  version: 'v1',
  kind: 'StatefulSet',
  plural: 'statefulsets',
  namespaced: true,
};
const PROOF_SECRET = 'paddock-sandbox-proof';

/** The sandbox container as the operator makes it (desired-statefulset.ts), probes quickened. */
function sandboxContainer(set: string, namespace: string): Container {
  return {
    name: 'sandbox',
    image: 'paddock-sandbox:latest',
    args: [
      '-addr',
      '0.0.0.0:7070',
      '-allow-unauthenticated-mcp',
      '-api-addr',
      '0.0.0.0:7071',
      '-enable-api',
      '-enable-exec',
      '-workspace',
      '/workspace',
    ],
    env: [
      { name: 'GREETING', value: 'hello from $(PADDOCK_POD_NAME)' },
      { name: 'PADDOCK_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'SVC_API_PROOF_AUDIENCE', value: `$(PADDOCK_POD_NAME).${set}.${namespace}.svc` },
      {
        name: 'SVC_API_PROOF_PUBLIC_KEY',
        valueFrom: { secretKeyRef: { name: PROOF_SECRET, key: 'public-key' } },
      },
      { name: 'SVC_LOG_FORMAT', value: 'json' },
    ],
    ports: [
      { name: 'mcp', containerPort: 7070, protocol: 'TCP' },
      { name: 'api', containerPort: 7071, protocol: 'TCP' },
    ],
    readinessProbe: {
      httpGet: { path: '/readyz', port: 'mcp' },
      periodSeconds: 5,
      timeoutSeconds: 3,
      failureThreshold: 3,
    },
    livenessProbe: {
      httpGet: { path: '/healthz', port: 'mcp' },
      initialDelaySeconds: 10,
      periodSeconds: 10,
      timeoutSeconds: 3,
      failureThreshold: 3,
    },
    volumeMounts: [
      { name: 'workspace', mountPath: '/workspace' },
      { name: 'tmp', mountPath: '/tmp' },
    ],
  };
}

/** A StatefulSet shaped like the operator's for an agent. */
function statefulSet(name: string, namespace: string, replicas: number, container?: Container) {
  const labels = { 'app.kubernetes.io/name': 'paddock-agent', 'paddock.dev/agent': name };
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace, labels },
    spec: {
      replicas,
      serviceName: name,
      selector: { matchLabels: labels },
      podManagementPolicy: 'Parallel',
      updateStrategy: { type: 'RollingUpdate' },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete', whenScaled: 'Retain' },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          terminationGracePeriodSeconds: 15,
          containers: [container ?? sandboxContainer(name, namespace)],
          volumes: [{ name: 'tmp', emptyDir: { sizeLimit: '1Gi' } }],
        },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'workspace', labels },
          spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
        },
      ],
    },
  };
}

describe('the embedded cluster’s local node', () => {
  const suite = new LocalNodeSuite({ namespaces: [NAMESPACE, 'late', 'elsewhere'] });
  const proof = createProofKeys();
  const pods = () => suite.kube.resource<Pod>(CORE_KINDS.pod);
  const sets = () => suite.kube.resource<KubeObject>(STATEFUL_SETS);
  const claims = () => suite.kube.resource<PersistentVolumeClaim>(PERSISTENT_VOLUME_CLAIMS);
  const getPod = (name: string, namespace = NAMESPACE) =>
    pods()
      .get(name, namespace)
      .catch(() => undefined);
  const processOf = (name: string, namespace = NAMESPACE) => {
    const found = suite.node.processes().find((p) => p.pod === name && p.namespace === namespace);
    if (found) suite.seen.add(found.pid);
    return found;
  };
  const isReady = (pod: Pod | undefined) =>
    pod?.status?.phase === 'Running' &&
    pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
  const readyPod = (name: string, namespace = NAMESPACE, other?: string) =>
    eventually(
      `${namespace}/${name} Running and Ready`,
      async () => {
        const pod = await getPod(name, namespace);
        return isReady(pod) && pod!.metadata.uid !== other ? pod : undefined;
      },
      30_000,
      100,
    );
  const eventsOf = async (name: string, namespace = NAMESPACE) =>
    (await suite.kube.eventsFor(namespace, { name, kind: 'Pod' })).map((e) => ({
      type: e.type,
      reason: e.reason,
      message: e.message ?? '',
      count: e.count,
      source: e.source?.component,
    }));
  const createProofSecret = (namespace: string) =>
    suite.kube.resource<KubeObject>(CORE_KINDS.secret).create({
      metadata: { name: PROOF_SECRET, namespace },
      stringData: { 'public-key': proof.publicKeyPem },
    } as KubeObject);
  const mcpClient = async (pod: Pod) => {
    const endpoint = podEndpoint(pod, 'mcp');
    assert.ok(endpoint, 'the pod has an MCP endpoint');
    const client = new Client({ name: 'local-node-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`http://${endpoint.host}:${endpoint.port}/mcp`)),
    );
    return client;
  };
  const apiGet = async (pod: Pod, path: string, audience: string) => {
    const endpoint = podEndpoint(pod, 'api');
    assert.ok(endpoint, 'the pod has a human API endpoint');
    const token = await signIdentityProof({
      privateKey: proof.privateKey,
      audience,
      identity: { sub: 'dev', user: 'dev' },
    });
    return fetch(`http://${endpoint.host}:${endpoint.port}${path}`, {
      headers: { [PROOF_HEADER]: token },
    });
  };
  const claimFolder = (claim: string, namespace = NAMESPACE) =>
    join(suite.dir.path, 'volumes', namespace, claim);

  before(async () => {
    await suite.start();
    await createProofSecret(NAMESPACE);
  });
  after(() => suite.stop());

  it('binds a StatefulSet’s pod, runs it Ready on its own address, its claim Bound to a folder that MCP writes into', async () => {
    await sets().create(statefulSet('web', NAMESPACE, 1));
    const pod = await readyPod('web-0');
    assert.equal(pod.spec.nodeName, 'paddock-local');
    assert.match(
      pod.status?.podIP ?? '',
      new RegExp(`^${suite.addresses.first.split('.').slice(0, 2).join('\\.')}\\.\\d+\\.\\d+$`),
    );
    assert.equal(pod.status?.hostIP, '127.0.0.1');
    const container = pod.status?.containerStatuses?.[0];
    assert.equal(container?.name, 'sandbox');
    assert.equal(container?.ready, true);
    assert.equal(container?.restartCount, 0);

    const claim = await eventually('the claim Bound', async () => {
      const found = await claims().get('workspace-web-0', NAMESPACE);
      return found.status?.phase === 'Bound' ? found : undefined;
    });
    assert.deepEqual(claim.status, {
      phase: 'Bound',
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
    });

    const events = await eventsOf('web-0');
    for (const reason of ['Scheduled', 'Pulled', 'Created', 'Started']) {
      const event = events.find((e) => e.reason === reason);
      assert.equal(event?.type, 'Normal', reason);
      assert.equal(event?.source, 'paddock-node', reason);
    }
    assert.match(
      events.find((e) => e.reason === 'Scheduled')!.message,
      /team\/web-0 to paddock-local/,
    );

    // The process has the container's env, expanded, with /tmp as its TMPDIR.
    const running = processOf('web-0')!;
    assert.equal(running.address, pod.status?.podIP);
    assert.equal(getPriority(running.pid), POD_NICENESS, 'pods yield the CPU to the platform');
    const environ = (await readFile(`/proc/${running.pid}/environ`, 'utf8')).split('\0');
    assert.ok(
      environ.includes('GREETING=hello from $(PADDOCK_POD_NAME)'),
      'a later variable is not seen',
    );
    assert.ok(environ.includes('SVC_API_PROOF_AUDIENCE=web-0.web.team.svc'));
    assert.ok(environ.includes(`TMPDIR=${join(suite.dir.path, 'pods', pod.metadata.uid!, 'tmp')}`));
    assert.ok(
      !environ.some((v) => v.startsWith('NODE_TEST_CONTEXT=')),
      'nothing of the node agent’s own',
    );

    const client = await mcpClient(pod);
    try {
      const result = await client.callTool({
        name: 'Write',
        arguments: { file_path: 'notes/hello.txt', content: 'hi from MCP' },
      });
      assert.notEqual(result.isError, true, JSON.stringify(result));
    } finally {
      await client.close();
    }
    assert.equal(
      await readFile(join(claimFolder('workspace-web-0'), 'notes', 'hello.txt'), 'utf8'),
      'hi from MCP',
    );

    // The human API takes proofs for this pod's own name only: the audience was expanded.
    const own = await apiGet(pod, '/api/file?path=notes/hello.txt', 'web-0.web.team.svc');
    assert.equal(own.status, 200);
    assert.equal(await own.text(), 'hi from MCP');
    const other = await apiGet(pod, '/api/file?path=notes/hello.txt', 'web-1.web.team.svc');
    assert.equal(other.status, 401);

    const log = await eventually('the sandbox’s lines in the pod log', async () => {
      const text = await suite.kube.podLogs(NAMESPACE, 'web-0', { container: 'sandbox' });
      return /MCP server listening/.test(text) ? text : undefined;
    });
    assert.match(log, new RegExp(`${running.address.replaceAll('.', '\\.')}:7070`));
  });

  it('replaces a deleted pod: the old process stops first, the new pod has the same folder and address', async () => {
    const before = (await getPod('web-0'))!;
    const old = processOf('web-0')!;
    await pods().delete('web-0', NAMESPACE);
    const replaced = await readyPod('web-0', NAMESPACE, before.metadata.uid);
    assert.equal(await isAlive(old.pid), false, 'the old process ended before the new one started');
    const now = processOf('web-0')!;
    assert.notEqual(now.pid, old.pid);
    assert.equal(now.uid, replaced.metadata.uid);
    assert.equal(replaced.status?.podIP, before.status?.podIP, 'the name keeps its address');
    assert.ok(
      !existsSync(join(suite.dir.path, 'pods', before.metadata.uid!)),
      'the old pod’s tmp went',
    );

    const client = await mcpClient(replaced);
    try {
      const read = await client.callTool({
        name: 'Read',
        arguments: { file_path: 'notes/hello.txt' },
      });
      assert.match(JSON.stringify(read.content), /hi from MCP/);
    } finally {
      await client.close();
    }
    const killing = (await eventsOf('web-0')).find((e) => e.reason === 'Killing');
    assert.equal(killing?.message, 'Stopping container sandbox');
  });

  it('runs two replicas on two addresses, then keeps a scaled-away claim until it is deleted', async () => {
    await sets().patch('web', { spec: { replicas: 2 } }, { namespace: NAMESPACE });
    const [first, second_] = [await readyPod('web-0'), await readyPod('web-1')];
    assert.notEqual(first.status?.podIP, second_.status?.podIP);
    assert.ok(existsSync(claimFolder('workspace-web-1')));
    const extra = processOf('web-1')!;

    await sets().patch('web', { spec: { replicas: 1 } }, { namespace: NAMESPACE });
    await assertDies(extra.pid);
    await eventually('web-1 gone', async () => ((await getPod('web-1')) ? undefined : true));
    assert.ok(existsSync(claimFolder('workspace-web-1')), 'whenScaled: Retain keeps the claim');

    await claims().delete('workspace-web-1', NAMESPACE);
    await eventually('the claim’s folder removed', () =>
      existsSync(claimFolder('workspace-web-1')) ? undefined : true,
    );
    assert.ok(existsSync(claimFolder('workspace-web-0')), 'others stay');
  });

  it('holds a pod whose Secret is missing in CreateContainerConfigError, and runs it once the Secret exists', async () => {
    await sets().create(statefulSet('late', 'late', 1));
    const waiting = await eventually('the config error', async () => {
      const state = (await getPod('late-0', 'late'))?.status?.containerStatuses?.[0]?.state;
      return state?.waiting?.reason === 'CreateContainerConfigError' ? state.waiting : undefined;
    });
    assert.equal(waiting.message, `secret "${PROOF_SECRET}" not found`);
    assert.equal((await getPod('late-0', 'late'))?.status?.phase, 'Pending');
    const failed = await eventually('the Failed event', async () =>
      (await eventsOf('late-0', 'late')).find((e) => e.reason === 'Failed'),
    );
    assert.equal(failed.type, 'Warning');
    assert.equal(failed.message, `Error: secret "${PROOF_SECRET}" not found`);
    assert.equal(processOf('late-0', 'late'), undefined);

    await createProofSecret('late');
    const pod = await readyPod('late-0', 'late');
    assert.equal(pod.status?.containerStatuses?.[0]?.restartCount, 0);
    await sets().delete('late', 'late');
    await eventually('late-0 stopped', () => (processOf('late-0', 'late') ? undefined : true));
  });

  it('leaves a pod of another image Pending, with one warning that names the image', async () => {
    const image = 'ghcr.io/acme/agent:1.0';
    await pods().create({
      metadata: { name: 'foreign', namespace: 'elsewhere' },
      spec: { containers: [{ name: 'agent', image }] },
    });
    const pod = await eventually('the pod waiting', async () => {
      const found = await getPod('foreign', 'elsewhere');
      return found?.status?.containerStatuses?.[0]?.state.waiting?.reason === 'ErrImageNeverPull'
        ? found
        : undefined;
    });
    assert.equal(pod.spec.nodeName, 'paddock-local', 'bound all the same');
    assert.equal(pod.status?.phase, 'Pending');
    const warnings = await eventually('the warning', async () => {
      const found = (await eventsOf('foreign', 'elsewhere')).filter((e) => e.type === 'Warning');
      return found.length > 0 ? found : undefined;
    });
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]?.count, 1);
    assert.ok(warnings[0]?.message.startsWith('this node runs only paddock-sandbox'));
    assert.ok(warnings[0]?.message.includes(image));
    assert.equal(processOf('foreign', 'elsewhere'), undefined);
  });

  it('restarts a container that dies or fails its liveness probe, and counts the restarts', async () => {
    const container = sandboxContainer('probed', NAMESPACE);
    container.livenessProbe = {
      httpGet: { path: '/no-such-route', port: 7070 },
      initialDelaySeconds: 1,
      periodSeconds: 1,
      failureThreshold: 2,
    };
    await sets().create(statefulSet('probed', NAMESPACE, 1, container));
    const restarted = await eventually(
      'restarted after failing its liveness probe',
      async () => {
        const pod = await getPod('probed-0');
        processOf('probed-0');
        return (pod?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1 ? pod : undefined;
      },
      30_000,
      100,
    );
    assert.ok(restarted.status?.containerStatuses?.[0]?.lastState.terminated);
    const events = await eventsOf('probed-0');
    // The sandbox answers 404 once it listens; on a loaded machine the probes may all come before
    // that and find nothing listening, which fails them too (the messages: probes.test.ts).
    const unhealthy = events.filter((e) => e.reason === 'Unhealthy');
    assert.ok(unhealthy.length > 0);
    for (const event of unhealthy) {
      assert.equal(event.type, 'Warning');
      assert.match(event.message, /^Liveness probe failed: /);
    }
    assert.ok(
      events.some(
        (e) => e.reason === 'Killing' && /failed liveness probe, will be restarted/.test(e.message),
      ),
    );
    await sets().delete('probed', NAMESPACE);
    await eventually('probed-0 stopped', () => (processOf('probed-0') ? undefined : true), 30_000);

    // A process that dies is started again, its exit recorded.
    const before = processOf('web-0')!;
    process.kill(before.pid, 'SIGKILL');
    const again = await eventually(
      'web-0 Running again',
      async () => {
        const pod = await getPod('web-0');
        return isReady(pod) && pod!.status?.containerStatuses?.[0]?.restartCount === 1
          ? pod
          : undefined;
      },
      30_000,
      100,
    );
    assert.equal(again.status?.containerStatuses?.[0]?.lastState.terminated?.exitCode, 137);
    assert.notEqual(processOf('web-0')?.pid, before.pid);
  });

  it('carries on after the node restarts: no process outlives it, and pods keep their addresses', async () => {
    const before = (await getPod('web-0'))!;
    const pids = suite.node.processes().map((p) => p.pid);
    for (const pid of pids) suite.seen.add(pid);
    assert.ok(pids.length > 0);
    await suite.node.stop();
    for (const pid of pids) await assertDies(pid);

    await suite.startNode();
    const again = await eventually(
      'web-0 run again',
      async () => {
        const pod = await getPod('web-0');
        const restarts = pod?.status?.containerStatuses?.[0]?.restartCount ?? 0;
        return isReady(pod) && restarts > (before.status?.containerStatuses?.[0]?.restartCount ?? 0)
          ? pod
          : undefined;
      },
      30_000,
      100,
    );
    assert.equal(again.metadata.uid, before.metadata.uid, 'the same pod');
    assert.equal(again.status?.podIP, before.status?.podIP, 'at the same address');
    const running = processOf('web-0')!;
    assert.ok(await isAlive(running.pid));
    assert.ok(existsSync(join(claimFolder('workspace-web-0'), 'notes', 'hello.txt')));
    const remote = (await eventsOf('foreign', 'elsewhere')).filter((e) => e.type === 'Warning');
    assert.deepEqual(
      remote.map((e) => e.count),
      [1],
      'the image warning is said once, not at every restart',
    );
  });
});
