import { join } from 'node:path';
import { CORE_KINDS, Kube, LABEL_AGENT, type KubeEvent, type KubeObject } from '@paddock/kube';
import { start, type Started } from './processes.js';
import { tempDir } from './temp.js';

const packages = join(import.meta.dirname, '..', '..');
const CLUSTER_BIN = join(packages, 'cluster-local', 'bin', 'paddock-cluster.js');
const OPERATOR_BIN = join(packages, 'operator', 'bin', 'paddock-operator.js');

export interface EmbeddedCluster {
  kube: Kube;
  /** The admin kubeconfig the cluster wrote, for processes such as the operator. */
  kubeconfig: string;
  process: Started;
  /** Stops the cluster and removes its files; safe to call twice. */
  stop: () => Promise<void>;
}

/** The embedded Kubernetes API as a process of its own, on a free port, in a fresh folder. */
export async function startEmbeddedCluster(): Promise<EmbeddedCluster> {
  const dir = await tempDir('paddock-embedded-cluster-');
  const kubeconfig = join(dir.path, 'kubeconfig');
  const process = start(globalThis.process.execPath, [
    CLUSTER_BIN,
    '--listen',
    '127.0.0.1:0',
    '--kubeconfig',
    kubeconfig,
  ]);
  await process.waitForOutput(/"addr":"127\.0\.0\.1:\d+"/, 30_000);
  return {
    kube: Kube.connect({ kubeconfig }),
    kubeconfig,
    process,
    stop: async () => {
      await process.stop();
      await dir.remove();
    },
  };
}

/**
 * The compiled operator against a cluster, one replica (no leader election), until it leads.
 * Extra SVC_OPERATOR_* variables may be given.
 */
export async function startOperator(
  kubeconfig: string,
  env: Record<string, string> = {},
): Promise<Started> {
  const operator = start(globalThis.process.execPath, [OPERATOR_BIN, '--kubeconfig', kubeconfig], {
    env: {
      PATH: globalThis.process.env.PATH,
      SVC_LOG_FORMAT: 'json',
      SVC_OPERATOR_LISTEN_ADDR: '127.0.0.1:0',
      SVC_OPERATOR_LEADER_ELECTION: 'false',
      ...env,
    },
  });
  await operator.waitForOutput(/leading: controllers started/, 60_000);
  return operator;
}

/**
 * A pod of an agent as its runner leaves it on the embedded cluster: labelled with the agent's
 * name, one `agent` container, the given log text, and the Started event a kubelet records. Made
 * before the agent's AgentRuntime: once the operator has made the StatefulSet, the cluster's
 * StatefulSet controller makes a pod of the same name, and this create would fail as a duplicate.
 */
export async function agentPod(
  kube: Kube,
  namespace: string,
  agent: string,
  log: string,
): Promise<string> {
  const name = `${agent}-0`;
  const pod = await kube.resource<KubeObject>(CORE_KINDS.pod).create({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace, labels: { [LABEL_AGENT]: agent } },
    spec: { containers: [{ name: 'agent', image: 'paddock-sandbox:latest' }] },
  } as KubeObject);
  await kube.appendPodLog(namespace, name, log);
  const now = new Date().toISOString();
  await kube.resource<KubeEvent>(CORE_KINDS.event).create({
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${name}.started`, namespace },
    involvedObject: { kind: 'Pod', name, namespace, uid: pod.metadata?.uid },
    reason: 'Started',
    message: 'Started container agent',
    type: 'Normal',
    firstTimestamp: now,
    lastTimestamp: now,
  });
  return name;
}
