import { silentLogger, type Logger } from '@paddock/common';
import {
  AlreadyExistsError,
  API_VERSION,
  ConflictError,
  CORE_KINDS,
  EventRecorder,
  Informer,
  sameJson,
  KINDS,
  LABEL_AGENT,
  NotFoundError,
  type AgentRuntime,
  type Kube,
  type KubeObject,
  type ResourceClient,
} from '@paddock/kube';
import { agentStatus } from './local-agents/agent-status.js';
import { KUBELET_BACK_OFF, type BackOffPolicy } from './local-agents/back-off.js';
import { LocalReplica } from './local-agents/local-replica.js';
import type { Pod } from './local-agents/pod.js';
import {
  agentPod,
  imageOf,
  podName,
  replicaPlan,
  runsLocally,
  STOP_GRACE_SECONDS,
} from './local-agents/replicas.js';
import { freePort } from './local-agents/sandbox-process.js';
import { binOf } from './package-bins.js';

/** The component the local agents' events name as their source, like a kubelet's. */
export const EVENT_SOURCE = 'paddock-local-agents';

export interface LocalAgentsOptions {
  kube: Kube;
  /** Each replica's workspace is <workspacesDir>/<namespace>/<pod>. */
  workspacesDir: string;
  /** The paddock-sandbox command file; the @paddock/sandbox package's by default. */
  sandboxBin?: string;
  /** The kubelet's by default (10 s doubling to 5 min). */
  backOff?: BackOffPolicy;
  /** Between SIGTERM and SIGKILL when a replica stops. */
  stopGraceMs?: number;
  logger?: Logger;
}

/** After a failed pass over an agent, the next one. */
const RETRY_MS = 1000;

const agentRuntimeKind = KINDS.find((k) => k.kind === 'AgentRuntime')!;

const keyOf = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;

/**
 * A local kubelet for agents, for the embedded cluster, which runs no containers: it keeps the
 * pods `<agent>-0` to `<agent>-<replicas-1>` of every AgentRuntime, runs each pod of a
 * paddock-sandbox agent as a local paddock-sandbox process (its output becomes the pod's log),
 * leaves the pods of any other image Pending, and keeps the AgentRuntimes' status as a controller
 * would. Passes over one agent run one at a time; changes meanwhile queue one more.
 */
export class LocalAgents {
  private readonly agents: Informer<AgentRuntime>;
  private readonly pods: Informer<Pod>;
  private readonly agentClient: ResourceClient<AgentRuntime>;
  private readonly podClient: ResourceClient<Pod>;
  private readonly events: EventRecorder;
  private readonly logger: Logger;
  /** The replicas running here, by namespace/pod. */
  private readonly replicas = new Map<string, LocalReplica>();
  private readonly dirty = new Set<string>();
  private readonly active = new Map<string, Promise<void>>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private synced = false;
  private stopped = false;

  constructor(private readonly options: LocalAgentsOptions) {
    const { kube } = options;
    this.logger = options.logger ?? silentLogger();
    const onError = (err: unknown) => this.logger.warn({ err }, 'watch failed; retrying');
    this.agentClient = kube.resource<AgentRuntime>(agentRuntimeKind);
    this.podClient = kube.resource<Pod>(CORE_KINDS.pod);
    this.agents = new Informer(this.agentClient, {}, onError);
    this.pods = new Informer(this.podClient, { labelSelector: LABEL_AGENT }, onError);
    this.events = new EventRecorder({
      kube,
      component: EVENT_SOURCE,
      onError: (err, event) => this.logger.warn({ err, ...event }, 'could not record an event'),
    });
  }

  /** Resolves once both kinds are listed and a pass over every agent is queued. */
  async start(): Promise<void> {
    this.agents.on((_, agent) =>
      this.enqueue(keyOf(agent.metadata.namespace, agent.metadata.name)),
    );
    this.pods.on((_, pod) => {
      const agent = pod.metadata.labels?.[LABEL_AGENT];
      if (agent !== undefined) this.enqueue(keyOf(pod.metadata.namespace, agent));
    });
    this.agents.start();
    this.pods.start();
    await Promise.all([this.agents.synced, this.pods.synced]);
    // Passes wait for both lists: with agents but no pods yet, every pod would look missing.
    this.synced = true;
    for (const key of [...this.dirty]) this.kick(key);
  }

  /** Stops watching, lets passes in progress end, then stops every replica's process. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.agents.stop();
    this.pods.stop();
    for (const timer of this.retries) clearTimeout(timer);
    while (this.active.size > 0) await Promise.all(this.active.values());
    await Promise.all([...this.replicas.values()].map((r) => r.stop('shutdown')));
    this.replicas.clear();
  }

  /** SIGKILL to every replica's process, synchronously: for an exit handler. */
  killNow(): void {
    for (const replica of this.replicas.values()) replica.killNow();
  }

  /** The processes running now, by pod. */
  processes(): { namespace: string; pod: string; pid: number }[] {
    return [...this.replicas.values()].flatMap((r) =>
      r.pid === undefined ? [] : [{ namespace: r.namespace, pod: r.name, pid: r.pid }],
    );
  }

  private enqueue(key: string): void {
    if (this.stopped) return;
    this.dirty.add(key);
    if (this.synced) this.kick(key);
  }

  private kick(key: string): void {
    if (this.stopped || this.active.has(key) || !this.dirty.delete(key)) return;
    const pass = this.reconcile(key)
      .catch((err: unknown) => {
        this.logger.warn({ err, agent: key }, 'could not reconcile the agent; retrying');
        const timer = setTimeout(() => {
          this.retries.delete(timer);
          this.enqueue(key);
        }, RETRY_MS);
        this.retries.add(timer);
      })
      .finally(() => {
        this.active.delete(key);
        this.kick(key);
      });
    this.active.set(key, pass);
  }

  private async reconcile(key: string): Promise<void> {
    const slash = key.indexOf('/');
    const namespace = key.slice(0, slash);
    const name = key.slice(slash + 1);
    const agent = this.agents.get(name, namespace);
    const pods = this.pods
      .list()
      .filter(
        (p) => p.metadata.namespace === namespace && p.metadata.labels?.[LABEL_AGENT] === name,
      );
    if (agent === undefined) {
      // Deleted: its processes stop now; the cluster's garbage collector deletes its pods.
      await this.stopReplicas(namespace, name, new Set());
      return;
    }
    const plan = replicaPlan(agent, pods);
    await Promise.all(plan.remove.map((pod) => this.removePod(agent, pod)));
    await this.stopReplicas(namespace, name, new Set(plan.keep.map((p) => p.metadata.uid)));
    if (this.stopped) return;
    for (const pod of plan.keep) {
      const podKey = keyOf(namespace, pod.metadata.name);
      if (this.replicas.has(podKey)) continue;
      const replica = new LocalReplica(pod, {
        kube: this.options.kube,
        events: this.events,
        sandboxBin: this.options.sandboxBin ?? binOf('@paddock/sandbox', 'paddock-sandbox'),
        workspacesDir: this.options.workspacesDir,
        backOff: this.options.backOff ?? KUBELET_BACK_OFF,
        stopGraceMs: this.options.stopGraceMs ?? STOP_GRACE_SECONDS * 1000,
        logger: this.logger,
      });
      this.replicas.set(podKey, replica);
      replica.start();
    }
    // Every local pod gets a port of its own, even if the OS offers one another pod was given.
    const taken = new Set(
      this.pods
        .list()
        .flatMap((p) => p.spec.containers.flatMap((c) => c.ports ?? []))
        .map((p) => p.containerPort),
    );
    for (const index of plan.create) await this.createPod(agent, index, taken);
    await this.writeStatus(agent, pods);
  }

  /** Stops the agent's replicas whose pod is not one of `keep` (by uid): gone, or replaced. */
  private async stopReplicas(namespace: string, agent: string, keep: Set<string | undefined>) {
    const stopping: Promise<void>[] = [];
    for (const [key, replica] of this.replicas) {
      const ofAgent = replica.namespace === namespace && replica.agent === agent;
      if (ofAgent && !keep.has(replica.uid)) {
        this.replicas.delete(key);
        stopping.push(replica.stop('deleted'));
      }
    }
    await Promise.all(stopping);
  }

  private async createPod(agent: AgentRuntime, index: number, taken: Set<number>): Promise<void> {
    let port = runsLocally(imageOf(agent)) ? await freePort() : undefined;
    while (port !== undefined && taken.has(port)) port = await freePort();
    if (port !== undefined) taken.add(port);
    const name = podName(agent.metadata.name, index);
    try {
      await this.podClient.create(agentPod(agent, index, port));
    } catch (err) {
      // The watch had not shown it yet: the next pass sees it.
      if (err instanceof AlreadyExistsError) return;
      throw err;
    }
    void this.events.normal(agentRef(agent), 'SuccessfulCreate', `Created pod: ${name}`);
  }

  /** Stops the pod's process, then deletes the pod, as a graceful deletion would. */
  private async removePod(agent: AgentRuntime, name: string): Promise<void> {
    const key = keyOf(agent.metadata.namespace, name);
    const replica = this.replicas.get(key);
    this.replicas.delete(key);
    await replica?.stop('deleted');
    try {
      await this.podClient.delete(name, agent.metadata.namespace);
    } catch (err) {
      if (err instanceof NotFoundError) return;
      throw err;
    }
    void this.events.normal(agentRef(agent), 'SuccessfulDelete', `Deleted pod: ${name}`);
  }

  private async writeStatus(agent: AgentRuntime, pods: readonly Pod[]): Promise<void> {
    const status = agentStatus(agent, pods);
    if (sameJson(agent.status, status)) return;
    try {
      await this.agentClient.replaceStatus({ ...agent, status });
    } catch (err) {
      // Deleted, or changed since: the watch brings the change, which queues another pass.
      if (err instanceof NotFoundError || err instanceof ConflictError) return;
      throw err;
    }
  }
}

function agentRef(agent: AgentRuntime): KubeObject {
  const { name, namespace, uid } = agent.metadata;
  return { apiVersion: API_VERSION, kind: 'AgentRuntime', metadata: { name, namespace, uid } };
}
