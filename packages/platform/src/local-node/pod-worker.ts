import { rm } from 'node:fs/promises';
import type { Logger } from '@paddock/common';
import {
  CORE_KINDS,
  InvalidError,
  kubeTime,
  NotFoundError,
  sameJson,
  type ResourceClient,
} from '@paddock/kube';
import { ContainerRunner, type ContainerDeps, type PodContext } from './container-runner.js';
import { portClash } from './container-program.js';
import { podFolder } from './mounts.js';
import type { NodeClock } from './node-clock.js';
import { HOST_IP } from './pod-addresses.js';
import { CREATE_CONTAINER_ERROR, podStatus, type RestartPolicy } from './pod-status.js';
import type { Pod, PodStatus } from './pod.js';
import { ProjectedVolumes } from './projected-volumes.js';

/** Kubernetes' default terminationGracePeriodSeconds. */
const DEFAULT_GRACE_SECONDS = 30;

/** What every pod worker of a node shares: what the containers share, and what the worker uses. */
export interface PodWorkerDeps extends ContainerDeps {
  /** What projected tokens are renewed by. */
  clock: NodeClock;
  /** At most this long between SIGTERM and SIGKILL when the node shuts down. */
  shutdownGraceMs: number;
  logger: Logger;
}

/**
 * What a kubelet does for one pod bound to this node: runs each of its containers (a
 * ContainerRunner each, all on the pod's one address), keeps its projected volumes, and reports
 * the pod's status from its containers' states. A container whose image or command cannot run
 * here waits, and the pod stays Pending.
 */
export class PodWorker {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** Resolves once the worker stopped and its last output and status are written. */
  readonly ended: Promise<void>;
  private readonly runners: ContainerRunner[];
  private readonly volumes: ProjectedVolumes;
  private readonly pods: ResourceClient<Pod>;
  private readonly policy: RestartPolicy;
  private readonly graceMs: number;
  private readonly startTime: string;
  private stopping = false;
  private markEnded!: () => void;
  /** The status last written: unchanged statuses are not written again. */
  private written: PodStatus | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly pod: Pod,
    /** The pod's own loopback address; undefined for a pod none of whose containers runs here. */
    readonly address: string | undefined,
    private readonly deps: PodWorkerDeps,
  ) {
    const { name, namespace = 'default', uid = '' } = pod.metadata;
    this.name = name;
    this.namespace = namespace;
    this.uid = uid;
    this.policy = pod.spec.restartPolicy ?? 'Always';
    this.graceMs = (pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
    this.startTime = pod.status?.startTime ?? kubeTime(new Date());
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    this.pods = deps.kube.resource<Pod>(CORE_KINDS.pod);
    this.written = pod.status;
    this.volumes = new ProjectedVolumes(pod, {
      kube: deps.kube,
      dataDir: deps.dataDir,
      clock: deps.clock,
      logger: this.log,
      node: { nodeName: deps.nodeName, podIP: address ?? '', hostIP: HOST_IP },
    });
    // The containers share the node's means; the clock and the node's logger stay the worker's.
    const { clock: _clock, shutdownGraceMs: _grace, logger: _logger, ...shared } = deps;
    const context: PodContext = {
      ...shared,
      pod,
      namespace,
      uid,
      ref: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, uid } },
      address,
      policy: this.policy,
      graceMs: this.graceMs,
      volumes: this.volumes,
      log: this.log,
      stopping: () => this.stopping,
      changed: () => this.writeStatus(),
    };
    const containers = pod.spec.containers;
    this.runners = containers.map((container, i) => {
      const clash = portClash(containers, i);
      return new ContainerRunner(
        container,
        context,
        clash === undefined ? undefined : { reason: CREATE_CONTAINER_ERROR, message: clash },
      );
    });
  }

  /** The processes running now, one per running container. */
  get processes(): { container: string; pid: number }[] {
    return this.runners.flatMap((r) =>
      r.pid === undefined ? [] : [{ container: r.name, pid: r.pid }],
    );
  }

  /** The claims the pod mounts, as namespace/claim. */
  get claims(): string[] {
    return (this.pod.spec.volumes ?? []).flatMap((v) =>
      v.persistentVolumeClaim ? [`${this.namespace}/${v.persistentVolumeClaim.claimName}`] : [],
    );
  }

  private get log(): Logger {
    return this.deps.logger.child({ namespace: this.namespace, pod: this.name });
  }

  start(): void {
    for (const runner of this.runners) runner.start();
  }

  /**
   * Stops every container at once (SIGTERM, SIGKILL after the grace period) and writes their last
   * output. A deleted pod's own folders (emptyDir and projected volumes) go with it.
   */
  async stop(reason: 'deleted' | 'shutdown'): Promise<void> {
    if (this.stopping) return this.ended;
    this.stopping = true;
    const grace =
      reason === 'shutdown' ? Math.min(this.graceMs, this.deps.shutdownGraceMs) : this.graceMs;
    await Promise.all([this.volumes.stop(), ...this.runners.map((r) => r.stop(reason, grace))]);
    await this.writes;
    if (reason === 'deleted') {
      await rm(podFolder(this.deps.dataDir, this.uid), { recursive: true, force: true });
    }
    this.markEnded();
  }

  /** SIGKILL to every container, synchronously, for an exit handler. */
  killNow(): void {
    for (const runner of this.runners) runner.killNow();
  }

  /**
   * Queues a write of the current states' status; writes go one at a time, in order, and only to
   * this pod: a new pod of the same name (another uid) is never written.
   */
  private writeStatus(): void {
    if (this.stopping) return;
    const states = this.runners.map((r) => r.state);
    const now = kubeTime(new Date());
    const run = {
      startTime: this.startTime,
      ...(this.address === undefined ? {} : { ip: this.address }),
    };
    this.writes = this.writes
      .then(async () => {
        const next = podStatus(
          this.pod.spec.containers,
          this.policy,
          run,
          states,
          this.written,
          now,
        );
        if (sameJson(this.written, next)) return;
        await this.pods.patch(
          this.name,
          [
            { op: 'test', path: '/metadata/uid', value: this.uid },
            { op: 'add', path: '/status', value: next },
          ],
          { namespace: this.namespace, subresource: 'status', type: 'json' },
        );
        this.written = next;
      })
      .catch((err: unknown) => {
        // Gone, or replaced by a pod of the same name: nothing of this one to report.
        if (err instanceof NotFoundError) return;
        if (err instanceof InvalidError && /test operation failed/i.test(err.message)) return;
        this.log.warn({ err }, 'could not write the pod status');
      });
  }
}
