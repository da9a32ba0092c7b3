import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@paddock/common';
import {
  CORE_KINDS,
  kubeTime,
  LABEL_AGENT,
  NotFoundError,
  sameJson,
  type EventRecorder,
  type Kube,
  type KubeObject,
  type ResourceClient,
} from '@paddock/kube';
import { crashesAfterExit, restartDelay, type BackOffPolicy } from './back-off.js';
import { LogBatcher } from './log-batcher.js';
import type { Container, Pod, PodStatus } from './pod.js';
import {
  CONTAINER_CREATING,
  CRASH_LOOP_BACK_OFF,
  ERR_IMAGE_NEVER_PULL,
  podStatus,
  terminatedState,
  type ReplicaState,
} from './pod-status.js';
import {
  AGENT_CONTAINER,
  LOCAL_IP,
  LOCAL_NODE,
  STOP_GRACE_SECONDS,
  runsLocally,
} from './replicas.js';
import { SandboxProcess, freePort, portIsFree } from './sandbox-process.js';

export interface ReplicaDeps {
  kube: Kube;
  events: EventRecorder;
  /** The paddock-sandbox command file. */
  sandboxBin: string;
  /** Each replica's workspace is <workspacesDir>/<namespace>/<pod>. */
  workspacesDir: string;
  backOff: BackOffPolicy;
  stopGraceMs: number;
  logger: Logger;
}

/**
 * What a kubelet does for one pod of an agent: runs its container as a paddock-sandbox process,
 * restarts it with back-off whenever it exits (restartPolicy Always), copies its output into the
 * pod's log, and reports its status and events. A pod whose image cannot run here stays Pending.
 */
export class LocalReplica {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The AgentRuntime the pod is a replica of. */
  readonly agent: string;
  private readonly container: Container;
  private readonly ref: KubeObject;
  private readonly pods: ResourceClient<Pod>;
  private readonly logs: LogBatcher;
  private state: ReplicaState;
  private process: SandboxProcess | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private crashes = 0;
  private stopping = false;
  /** The status last written: unchanged statuses are not written again. */
  private written: PodStatus | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly pod: Pod,
    private readonly deps: ReplicaDeps,
  ) {
    const { name, namespace = '', uid = '' } = pod.metadata;
    this.name = name;
    this.namespace = namespace;
    this.uid = uid;
    this.agent = pod.metadata.labels?.[LABEL_AGENT] ?? '';
    this.container = pod.spec.containers.find((c) => c.name === AGENT_CONTAINER) ??
      pod.spec.containers[0] ?? { name: AGENT_CONTAINER, image: '' };
    this.ref = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, uid } };
    this.pods = deps.kube.resource<Pod>(CORE_KINDS.pod);
    this.logs = new LogBatcher(
      (text) => deps.kube.appendPodLog(namespace, name, text, AGENT_CONTAINER),
      {
        onError: (err) => {
          if (!(err instanceof NotFoundError))
            this.log().warn({ err }, 'could not write the pod log');
        },
      },
    );
    // A pod this machine ran before (the platform restarted) carries on from its status.
    const previous = pod.status?.containerStatuses?.find((c) => c.name === AGENT_CONTAINER);
    const ranBefore =
      previous !== undefined &&
      (previous.state.running !== undefined ||
        previous.state.terminated !== undefined ||
        previous.state.waiting?.reason === CRASH_LOOP_BACK_OFF);
    this.state = {
      startTime: pod.status?.startTime ?? kubeTime(new Date()),
      container: { waiting: { reason: CONTAINER_CREATING } },
      lastState: previous?.state.terminated ? previous.state : (previous?.lastState ?? {}),
      restartCount: (previous?.restartCount ?? 0) + (ranBefore ? 1 : 0),
      ...(pod.status?.podIP === undefined ? {} : { ip: pod.status.podIP }),
    };
    this.written = pod.status;
  }

  get pid(): number | undefined {
    return this.process?.running ? this.process.pid : undefined;
  }

  private get image(): string {
    return this.container.image;
  }

  start(): void {
    const { events } = this.deps;
    if (this.pod.status?.startTime === undefined) {
      void events.normal(
        this.ref,
        'Scheduled',
        `Successfully assigned ${this.namespace}/${this.name} to ${LOCAL_NODE}`,
      );
    }
    if (runsLocally(this.image)) return this.runOrRetry();
    const message = `Container image "${this.image}" cannot run here: the embedded cluster runs no containers, and only the paddock-sandbox image runs on it, as local processes`;
    const reported = this.pod.status?.containerStatuses?.some(
      (c) => c.state.waiting?.reason === ERR_IMAGE_NEVER_PULL,
    );
    this.state = {
      ...this.state,
      container: { waiting: { reason: ERR_IMAGE_NEVER_PULL, message } },
    };
    this.writeStatus();
    // Once per pod, even across restarts of the platform: its status remembers it was said.
    if (!reported) void events.warning(this.ref, ERR_IMAGE_NEVER_PULL, message);
  }

  /** Stops the process (SIGTERM, SIGKILL after the grace period) and writes its last output. */
  async stop(reason: 'deleted' | 'shutdown'): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const process = this.process;
    if (process?.running) {
      if (reason === 'deleted') {
        void this.deps.events.normal(this.ref, 'Killing', `Stopping container ${AGENT_CONTAINER}`);
      }
      await process.stop(this.deps.stopGraceMs);
    }
    if (process) this.log().info({ pid: process.pid, reason }, 'stopped');
    await process?.exited;
    await this.logs.flush();
    await this.writes;
    // The workspace goes with the pod, as an emptyDir volume does.
    if (reason === 'deleted') await rm(this.workspace, { recursive: true, force: true });
  }

  /** SIGKILL, synchronously, for an exit handler. */
  killNow(): void {
    this.process?.killNow();
  }

  private get workspace(): string {
    return join(this.deps.workspacesDir, this.namespace, this.name);
  }

  private log(): Logger {
    return this.deps.logger.child({ namespace: this.namespace, pod: this.name });
  }

  /** Runs the process; a failure to even start it counts as an exit, and is retried the same way. */
  private runOrRetry(): void {
    const startedAt = kubeTime(new Date());
    this.run().catch((error: Error) =>
      this.onExit(undefined, { code: null, signal: null, error }, startedAt),
    );
  }

  private async run(): Promise<void> {
    const { events } = this.deps;
    const declared = this.container.ports?.find((p) => p.name === 'mcp')?.containerPort;
    if (declared !== undefined && !(await portIsFree(declared))) {
      // Another program took the pod's port (while the platform was stopped, say): the pod goes,
      // and its agent makes a new one with a free port, rather than crash-looping on this one.
      void events.warning(
        this.ref,
        'PortInUse',
        `Port ${declared} of container ${AGENT_CONTAINER} is in use by another program: deleting the pod so that its replacement gets a free one`,
      );
      await this.pods.delete(this.name, this.namespace).catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) throw err;
      });
      return;
    }
    const port = declared ?? (await freePort());
    await mkdir(this.workspace, { recursive: true });
    if (this.stopping) return;
    void events.normal(
      this.ref,
      'Pulled',
      `Container image "${this.image}" already present on machine`,
    );
    // The sandbox spends its shutdown grace within the one it is given here, as a kubelet's
    // terminationGracePeriodSeconds: a second less, so it exits 0 before it would be killed.
    const env = {
      SVC_SHUTDOWN_GRACE_MS: String((STOP_GRACE_SECONDS - 1) * 1000),
      ...Object.fromEntries((this.container.env ?? []).map((e) => [e.name, e.value ?? ''])),
    };
    const process = new SandboxProcess({
      bin: this.deps.sandboxBin,
      port,
      workspace: this.workspace,
      env,
      onLine: (line) => this.logs.add(line),
    });
    this.process = process;
    const startedAt = kubeTime(new Date());
    void process.exited.then((exit) => this.onExit(process, exit, startedAt));
    if (process.pid === undefined) return;
    void events.normal(this.ref, 'Created', `Created container ${AGENT_CONTAINER}`);
    void events.normal(this.ref, 'Started', `Started container ${AGENT_CONTAINER}`);
    this.log().info({ pid: process.pid, port, restartCount: this.state.restartCount }, 'started');
    this.writeStatus();
    if (!(await process.ready(port)) || this.process !== process || this.stopping) return;
    this.state = { ...this.state, container: { running: { startedAt } }, ip: LOCAL_IP };
    this.writeStatus();
  }

  private onExit(
    process: SandboxProcess | undefined,
    exit: Awaited<SandboxProcess['exited']>,
    startedAt: string,
  ): void {
    if (this.process !== process || this.stopping) return;
    this.process = undefined;
    const finishedAt = kubeTime(new Date());
    if (exit.error) {
      void this.deps.events.warning(this.ref, 'Failed', `Error: ${exit.error.message}`);
    }
    const { backOff } = this.deps;
    this.crashes = crashesAfterExit(
      this.crashes,
      Date.parse(finishedAt) - Date.parse(startedAt),
      backOff,
    );
    const delay = restartDelay(this.crashes, backOff);
    const terminated = terminatedState(exit, startedAt, finishedAt);
    this.log().warn({ code: exit.code, signal: exit.signal, restartInMs: delay }, 'exited');
    this.state = { ...this.state, container: terminated };
    this.writeStatus();
    if (delay > 0) {
      const pod = `${this.name}_${this.namespace}(${this.uid})`;
      this.state = {
        ...this.state,
        container: {
          waiting: {
            reason: CRASH_LOOP_BACK_OFF,
            message: `back-off ${delay / 1000}s restarting failed container=${AGENT_CONTAINER} pod=${pod}`,
          },
        },
        lastState: terminated,
      };
      this.writeStatus();
      void this.deps.events.warning(
        this.ref,
        'BackOff',
        `Back-off restarting failed container ${AGENT_CONTAINER} in pod ${pod}`,
      );
    }
    this.restartTimer = setTimeout(() => {
      this.state = {
        ...this.state,
        container: { waiting: { reason: CONTAINER_CREATING } },
        lastState: terminated,
        restartCount: this.state.restartCount + 1,
      };
      this.runOrRetry();
    }, delay);
  }

  /** Queues a write of the current state's status; writes go one at a time, in order. */
  private writeStatus(): void {
    if (this.stopping) return;
    const state = this.state;
    const now = kubeTime(new Date());
    this.writes = this.writes
      .then(async () => {
        const next = podStatus(this.image, state, this.written, now);
        if (sameJson(this.written, next)) return;
        await this.pods.patch(
          this.name,
          { status: next },
          { namespace: this.namespace, subresource: 'status' },
        );
        this.written = next;
      })
      .catch((err: unknown) => {
        if (!(err instanceof NotFoundError)) {
          this.log().warn({ err }, 'could not write the pod status');
        }
      });
  }
}
