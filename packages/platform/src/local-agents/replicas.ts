import { createHash } from 'node:crypto';
import {
  agentOwnerReference,
  DEFAULT_AGENT_IMAGE,
  LABEL_AGENT,
  type AgentRuntime,
} from '@paddock/kube';
import type { Pod } from './pod.js';

/** Which pods an AgentRuntime should have, and what each looks like. Pure. */

/** The one container of an agent's pod. */
export const AGENT_CONTAINER = 'agent';
/** The node every local pod is bound to: this machine. */
export const LOCAL_NODE = 'paddock-local';
/** The address every local pod answers on. */
export const LOCAL_IP = '127.0.0.1';
/** How long a stopping replica has between SIGTERM and SIGKILL. */
export const STOP_GRACE_SECONDS = 8;
/**
 * The hash of the spec a pod was made from, as a Deployment's pods carry: a pod whose hash is not
 * the agent's current one (another image or env) is replaced.
 */
export const LABEL_TEMPLATE_HASH = 'pod-template-hash';

/** The repository of an image reference, without tag or digest. */
function repositoryOf(image: string): string {
  const withoutDigest = image.split('@')[0]!;
  const colon = withoutDigest.lastIndexOf(':');
  return colon > withoutDigest.lastIndexOf('/') ? withoutDigest.slice(0, colon) : withoutDigest;
}

const SANDBOX_IMAGE_NAME = repositoryOf(DEFAULT_AGENT_IMAGE);

/**
 * Whether this machine can run the image: only the sandbox's (`paddock-sandbox` with any tag, from
 * any registry), since what runs is the local paddock-sandbox command, not the image.
 */
export function runsLocally(image: string): boolean {
  const repository = repositoryOf(image);
  return repository.slice(repository.lastIndexOf('/') + 1) === SANDBOX_IMAGE_NAME;
}

export function imageOf(agent: AgentRuntime): string {
  return agent.spec.image ?? DEFAULT_AGENT_IMAGE;
}

export function wantedReplicas(agent: AgentRuntime): number {
  return agent.metadata.deletionTimestamp === undefined ? (agent.spec.replicas ?? 1) : 0;
}

export function podName(agent: string, index: number): string {
  return `${agent}-${index}`;
}

export function templateHash(agent: AgentRuntime): string {
  const env = Object.entries(agent.spec.env ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return createHash('sha256')
    .update(JSON.stringify([imageOf(agent), env]))
    .digest('hex')
    .slice(0, 10);
}

/** Whether the AgentRuntime is the pod's controller. */
export function ownedBy(pod: Pod, agent: AgentRuntime): boolean {
  return (
    pod.metadata.ownerReferences?.some(
      (o) => o.controller === true && o.uid === agent.metadata.uid,
    ) ?? false
  );
}

/**
 * Replica `index` of the agent: labelled with the agent's name, owned by it (so that the cluster's
 * garbage collector deletes it with the agent), bound to this machine, with the port its MCP
 * listener will take when the image runs here.
 */
export function agentPod(agent: AgentRuntime, index: number, port: number | undefined): Pod {
  const { name, namespace, uid } = agent.metadata;
  if (uid === undefined) throw new TypeError(`AgentRuntime ${name} has no uid`);
  const env = Object.entries(agent.spec.env ?? {}).map(([key, value]) => ({ name: key, value }));
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podName(name, index),
      ...(namespace === undefined ? {} : { namespace }),
      labels: { [LABEL_AGENT]: name, [LABEL_TEMPLATE_HASH]: templateHash(agent) },
      ownerReferences: [agentOwnerReference(name, uid)],
    },
    spec: {
      nodeName: LOCAL_NODE,
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: STOP_GRACE_SECONDS,
      containers: [
        {
          name: AGENT_CONTAINER,
          image: imageOf(agent),
          ...(env.length > 0 ? { env } : {}),
          ...(port === undefined
            ? {}
            : { ports: [{ name: 'mcp', containerPort: port, protocol: 'TCP' }] }),
        },
      ],
    },
  };
}

export interface ReplicaPlan {
  /** Replica indexes to create: no pod of their name exists. */
  create: number[];
  /** Names of the agent's pods to stop and delete: beyond the replica count, or outdated. */
  remove: string[];
  /** The agent's pods to keep running. */
  keep: Pod[];
}

/**
 * What to do so that the agent has pods `<agent>-0` to `<agent>-<replicas-1>`, made from its current
 * spec. `pods` are those labelled with the agent's name in its namespace. A pod of a wanted name that
 * is not the agent's (a deleted namesake's, still being collected) or is terminating is waited
 * for, not replaced.
 */
export function replicaPlan(agent: AgentRuntime, pods: readonly Pod[]): ReplicaPlan {
  const wanted = wantedReplicas(agent);
  const hash = templateHash(agent);
  const remove: string[] = [];
  const keep: Pod[] = [];
  for (const pod of pods) {
    if (!ownedBy(pod, agent) || pod.metadata.deletionTimestamp !== undefined) continue;
    const index = indexOf(agent.metadata.name, pod.metadata.name);
    const current = pod.metadata.labels?.[LABEL_TEMPLATE_HASH] === hash;
    if (index === undefined || index >= wanted || !current) remove.push(pod.metadata.name);
    else keep.push(pod);
  }
  const names = new Set(pods.map((p) => p.metadata.name));
  const create = Array.from({ length: wanted }, (_, i) => i).filter(
    (i) => !names.has(podName(agent.metadata.name, i)),
  );
  return { create, remove, keep };
}

function indexOf(agent: string, pod: string): number | undefined {
  const suffix = pod.startsWith(`${agent}-`) ? pod.slice(agent.length + 1) : '';
  return /^(0|[1-9]\d*)$/.test(suffix) ? Number(suffix) : undefined;
}
