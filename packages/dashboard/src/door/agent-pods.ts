import { CORE_KINDS, LABEL_AGENT, NotFoundError, type Kube } from '@paddock/kube';
import { ExpiringCache } from '../expiring-cache.js';
import type { DoorPod } from './pod-target.js';

/**
 * How long a pod read for the door is used: the door answers many requests a second for one
 * terminal or file tree, and a pod's address changes only when it is replaced; a request that
 * finds the pod gone forgets it at once.
 */
export const POD_CACHE_MS = 2_000;
const MAX_CACHED = 5_000;

/** An agent's pods as the door reads them, each read kept for POD_CACHE_MS. */
export class AgentPods {
  private readonly pods = new ExpiringCache<string, DoorPod | null>(MAX_CACHED, POD_CACHE_MS);
  private readonly lists = new ExpiringCache<string, DoorPod[]>(MAX_CACHED, POD_CACHE_MS);

  constructor(private readonly now: () => number = Date.now) {}

  /** The pod, or undefined when there is none of that name. */
  async pod(kube: Kube, namespace: string, name: string): Promise<DoorPod | undefined> {
    const key = `${namespace}/${name}`;
    const now = this.now();
    const cached = this.pods.get(key, now);
    if (cached !== undefined) return cached ?? undefined;
    let pod: DoorPod | null;
    try {
      pod = await kube.resource<DoorPod>(CORE_KINDS.pod).get(name, namespace);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      pod = null;
    }
    this.pods.set(key, pod, now);
    return pod ?? undefined;
  }

  /** The agent's pods. */
  async ofAgent(kube: Kube, namespace: string, agent: string): Promise<DoorPod[]> {
    const key = `${namespace}/${agent}`;
    const now = this.now();
    const cached = this.lists.get(key, now);
    if (cached !== undefined) return cached;
    const { items } = await kube
      .resource<DoorPod>(CORE_KINDS.pod)
      .listAll({ namespace, labelSelector: `${LABEL_AGENT}=${agent}` });
    this.lists.set(key, items, now);
    return items;
  }

  /** Forgets what was read of a pod that did not answer, so the next request reads it again. */
  forget(namespace: string, name: string, agent: string): void {
    this.pods.delete(`${namespace}/${name}`);
    this.lists.delete(`${namespace}/${agent}`);
  }
}
