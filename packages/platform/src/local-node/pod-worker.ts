import { mkdir, rm } from 'node:fs/promises';
import type { Logger } from '@paddock/common';
import {
  CORE_KINDS,
  InvalidError,
  kubeTime,
  NotFoundError,
  sameJson,
  type EventRecorder,
  type Kube,
  type KubeObject,
  type ResourceClient,
} from '@paddock/kube';
import { crashesAfterExit, restartDelay, type BackOffPolicy } from './back-off.js';
import { containerEnv, envSources, type ReadSources } from './container-env.js';
import { expandArgs } from './dependent-vars.js';
import { LogBatcher } from './log-batcher.js';
import { containerMounts, hostPathOf, podFolder, tmpDirOf, type HostMount } from './mounts.js';
import { HOST_IP, podListenArg } from './pod-addresses.js';
import {
  CONTAINER_CREATING,
  CRASH_LOOP_BACK_OFF,
  CREATE_CONTAINER_CONFIG_ERROR,
  ERR_IMAGE_NEVER_PULL,
  podStatus,
  restarts,
  terminatedState,
  type ContainerRunState,
  type RestartPolicy,
} from './pod-status.js';
import type { Container, HttpProbe, Pod, PodStatus } from './pod.js';
import { probeSettings, probeUrl, Prober } from './probes.js';
import { imageRefusal, runsLocally } from './sandbox-image.js';
import { SandboxProcess, type Exit } from './sandbox-process.js';

/** Kubernetes' default terminationGracePeriodSeconds. */
export const DEFAULT_GRACE_SECONDS = 30;

/** What every pod worker of a node shares. */
export interface PodWorkerDeps {
  kube: Kube;
  events: EventRecorder;
  /** The paddock-sandbox command file. */
  sandboxBin: string;
  dataDir: string;
  nodeName: string;
  /** Restarts of an exited container (the kubelet's crash-loop back-off). */
  backOff: BackOffPolicy;
  /** Retries of a container that cannot be made yet (a missing Secret, claim). */
  configRetry: BackOffPolicy;
  /** The environment every process starts from (PATH, HOME, ...), before the container's. */
  baseEnv: Record<string, string>;
  /** At most this long between SIGTERM and SIGKILL when the node shuts down. */
  shutdownGraceMs: number;
  claims: {
    exists(namespace: string, claim: string): boolean;
    prepare(namespace: string, claim: string): Promise<string>;
  };
  logger: Logger;
}

/** Why a container cannot start yet: its waiting reason, message and event. */
class NotYet extends Error {
  constructor(
    readonly reason: string,
    readonly event: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * What a kubelet does for one pod bound to this node: runs its container as a local
 * paddock-sandbox process with the container's args, env and volumes, restarts it under the pod's
 * restart policy with back-off, probes it, copies its output into the pod's log, and reports its
 * status and events. A pod whose image cannot run here stays Pending.
 */
export class PodWorker {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The container this node runs: the pod's first. */
  readonly container: Container;
  /** Resolves once the worker stopped and its last output and status are written. */
  readonly ended: Promise<void>;
  private readonly ref: KubeObject;
  private readonly pods: ResourceClient<Pod>;
  private readonly logs: LogBatcher;
  private readonly policy: RestartPolicy;
  private readonly graceMs: number;
  private state: ContainerRunState;
  private process: SandboxProcess | undefined;
  private probers: Prober[] = [];
  private timer: NodeJS.Timeout | undefined;
  private crashes = 0;
  private configFailures = 0;
  private stopping = false;
  private markEnded!: () => void;
  /** The status last written: unchanged statuses are not written again. */
  private written: PodStatus | undefined;
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly pod: Pod,
    /** The pod's own loopback address; undefined for a pod that cannot run here. */
    readonly address: string | undefined,
    private readonly deps: PodWorkerDeps,
  ) {
    const { name, namespace = 'default', uid = '' } = pod.metadata;
    this.name = name;
    this.namespace = namespace;
    this.uid = uid;
    this.container = pod.spec.containers[0] ?? { name: '', image: '' };
    this.policy = pod.spec.restartPolicy ?? 'Always';
    this.graceMs = (pod.spec.terminationGracePeriodSeconds ?? DEFAULT_GRACE_SECONDS) * 1000;
    this.ended = new Promise((resolve) => (this.markEnded = resolve));
    this.ref = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, uid } };
    this.pods = deps.kube.resource<Pod>(CORE_KINDS.pod);
    this.logs = new LogBatcher(
      (text) => deps.kube.appendPodLog(namespace, name, text, this.container.name),
      {
        onError: (err) => {
          if (!(err instanceof NotFoundError))
            this.log.warn({ err }, 'could not write the pod log');
        },
      },
    );
    // A pod this node ran before (the node agent restarted) carries on from its status.
    const previous = pod.status?.containerStatuses?.find((c) => c.name === this.container.name);
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
      ready: false,
      ...(address === undefined ? {} : { ip: address }),
    };
    this.written = pod.status;
  }

  get pid(): number | undefined {
    return this.process?.running ? this.process.pid : undefined;
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
    const { image } = this.container;
    if (runsLocally(image) && this.address !== undefined) return this.runOrRetry();
    const message = imageRefusal(image);
    const reported = this.pod.status?.containerStatuses?.some(
      (c) => c.state.waiting?.reason === ERR_IMAGE_NEVER_PULL,
    );
    this.state = {
      ...this.state,
      container: { waiting: { reason: ERR_IMAGE_NEVER_PULL, message } },
    };
    this.writeStatus();
    // Once per pod, even across restarts of the node agent: its status remembers it was said.
    if (!reported) void this.deps.events.warning(this.ref, ERR_IMAGE_NEVER_PULL, message);
  }

  /**
   * Stops the process (SIGTERM, SIGKILL after the grace period) and writes its last output. A
   * deleted pod's own folders (emptyDir volumes) go with it.
   */
  async stop(reason: 'deleted' | 'shutdown'): Promise<void> {
    if (this.stopping) return this.ended;
    this.stopping = true;
    clearTimeout(this.timer);
    this.stopProbes();
    const process = this.process;
    if (process?.running) {
      if (reason === 'deleted') {
        void this.deps.events.normal(
          this.ref,
          'Killing',
          `Stopping container ${this.container.name}`,
        );
      }
      const grace =
        reason === 'shutdown' ? Math.min(this.graceMs, this.deps.shutdownGraceMs) : this.graceMs;
      await process.stop(grace);
      this.log.info({ pid: process.pid, reason }, 'stopped');
    }
    await process?.exited;
    await this.logs.flush();
    await this.writes;
    if (reason === 'deleted') {
      await rm(podFolder(this.deps.dataDir, this.uid), { recursive: true, force: true });
    }
    this.markEnded();
  }

  /** SIGKILL, synchronously, for an exit handler. */
  killNow(): void {
    this.process?.killNow();
  }

  /** Runs the process; a failure to even start it counts as an exit, and is retried the same way. */
  private runOrRetry(): void {
    const startedAt = kubeTime(new Date());
    this.run().catch((err: unknown) => {
      if (err instanceof NotYet) return this.retryLater(err);
      const error = err instanceof Error ? err : new Error(String(err));
      this.onExit(undefined, { code: null, signal: null, error }, startedAt);
    });
  }

  /** What the container needs from the cluster and this machine: its env and its mounts. */
  private async prepare(
    address: string,
  ): Promise<{ env: [string, string][]; mounts: HostMount[] }> {
    const mounts = containerMounts(this.pod, this.container, this.deps.dataDir);
    if (!mounts.ok) throw new NotYet(CREATE_CONTAINER_CONFIG_ERROR, 'Failed', mounts.message);
    for (const { claim } of mounts.mounts) {
      if (claim !== undefined && !this.deps.claims.exists(this.namespace, claim)) {
        throw new NotYet(
          CONTAINER_CREATING,
          'FailedMount',
          `persistentvolumeclaim "${claim}" not found`,
        );
      }
    }
    const env = containerEnv(this.pod, this.container, await this.readSources(), {
      nodeName: this.deps.nodeName,
      podIP: address,
      hostIP: HOST_IP,
    });
    if (!env.ok) throw new NotYet(CREATE_CONTAINER_CONFIG_ERROR, 'Failed', env.message);
    for (const { claim, hostPath } of mounts.mounts) {
      // A claim's folder is made in turn with its removals; a subPath in it, like an emptyDir, here.
      if (claim !== undefined) await this.deps.claims.prepare(this.namespace, claim);
      await mkdir(hostPath, { recursive: true });
    }
    return { env: env.env, mounts: mounts.mounts };
  }

  /** The Secrets and ConfigMaps the env names, read now (a missing one is undefined). */
  private async readSources(): Promise<ReadSources> {
    const { secrets, configMaps } = envSources(this.container);
    const read = async (kind: 'secret' | 'configMap', name: string) => {
      try {
        const object = await this.deps.kube
          .resource<KubeObject & { data?: Record<string, string> }>(CORE_KINDS[kind])
          .get(name, this.namespace);
        const data = object.data ?? {};
        // Secret values are base64 on the wire; ConfigMap values are text.
        return kind === 'secret'
          ? Object.fromEntries(
              Object.entries(data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
            )
          : data;
      } catch (err) {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      }
    };
    return {
      secrets: new Map(
        await Promise.all(secrets.map(async (n) => [n, await read('secret', n)] as const)),
      ),
      configMaps: new Map(
        await Promise.all(configMaps.map(async (n) => [n, await read('configMap', n)] as const)),
      ),
    };
  }

  private async run(): Promise<void> {
    const { events } = this.deps;
    const address = this.address!;
    const { env, mounts } = await this.prepare(address);
    if (this.stopping) return;
    this.configFailures = 0;
    const args = expandArgs(this.container.args ?? [], env).map((arg) =>
      podListenArg(hostPathOf(arg, mounts), address),
    );
    const tmp = tmpDirOf(mounts);
    const cwd = podFolder(this.deps.dataDir, this.uid);
    await mkdir(cwd, { recursive: true });
    if (this.stopping) return;
    const processEnv: Record<string, string> = {
      ...this.deps.baseEnv,
      HOSTNAME: this.name,
      ...(tmp === undefined ? {} : { TMPDIR: tmp }),
      ...Object.fromEntries(env.map(([name, value]) => [name, hostPathOf(value, mounts)])),
    };
    const name = this.container.name;
    void events.normal(
      this.ref,
      'Pulled',
      `Container image "${this.container.image}" already present on machine`,
    );
    const process = new SandboxProcess({
      bin: this.deps.sandboxBin,
      args,
      env: processEnv,
      cwd:
        this.container.workingDir === undefined
          ? cwd
          : hostPathOf(this.container.workingDir, mounts),
      onLine: (line) => this.logs.add(line),
    });
    this.process = process;
    const startedAt = kubeTime(new Date());
    void process.exited.then((exit) => this.onExit(process, exit, startedAt));
    if (process.pid === undefined) return;
    void events.normal(this.ref, 'Created', `Created container ${name}`);
    void events.normal(this.ref, 'Started', `Started container ${name}`);
    this.log.info({ pid: process.pid, address, restartCount: this.state.restartCount }, 'started');
    const readiness = this.container.readinessProbe;
    this.state = {
      ...this.state,
      container: { running: { startedAt } },
      ready: readiness === undefined,
    };
    this.writeStatus();
    if (readiness) this.probe(process, 'Readiness', readiness, address);
    if (this.container.livenessProbe) {
      this.probe(process, 'Liveness', this.container.livenessProbe, address);
    }
  }

  private probe(
    process: SandboxProcess,
    kind: 'Readiness' | 'Liveness',
    probe: HttpProbe,
    address: string,
  ): void {
    const target = probeUrl(probe, this.container, address);
    if ('error' in target) {
      void this.deps.events.warning(
        this.ref,
        'Unhealthy',
        `${kind} probe errored: ${target.error}`,
      );
      return;
    }
    const prober = new Prober({
      url: target.url,
      settings: probeSettings(probe),
      initiallyHealthy: kind === 'Liveness',
      onChange: (healthy, message) => {
        if (this.process !== process || this.stopping) return;
        if (!healthy) {
          void this.deps.events.warning(this.ref, 'Unhealthy', `${kind} probe failed: ${message}`);
        }
        if (kind === 'Readiness') {
          this.state = { ...this.state, ready: healthy };
          return this.writeStatus();
        }
        if (healthy) return;
        // A failed liveness probe restarts the container: its exit goes the usual way.
        const name = this.container.name;
        void this.deps.events.normal(
          this.ref,
          'Killing',
          `Container ${name} failed liveness probe, will be restarted`,
        );
        void process.stop(this.graceMs);
      },
    });
    this.probers.push(prober);
  }

  private stopProbes(): void {
    for (const prober of this.probers) prober.stop();
    this.probers = [];
  }

  /** A container that cannot be made yet waits with its reason and is tried again with back-off. */
  private retryLater(problem: NotYet): void {
    if (this.stopping) return;
    this.configFailures++;
    const wait = Math.max(
      this.deps.configRetry.initialMs,
      restartDelay(this.configFailures + 1, this.deps.configRetry),
    );
    this.log.warn(
      { reason: problem.reason, message: problem.message, retryInMs: wait },
      'cannot start the container yet',
    );
    this.state = {
      ...this.state,
      container: { waiting: { reason: problem.reason, message: problem.message } },
    };
    this.writeStatus();
    void this.deps.events.warning(this.ref, problem.event, `Error: ${problem.message}`);
    this.timer = setTimeout(() => this.runOrRetry(), wait);
  }

  private onExit(process: SandboxProcess | undefined, exit: Exit, startedAt: string): void {
    if (this.process !== process || this.stopping) return;
    this.process = undefined;
    this.stopProbes();
    const finishedAt = kubeTime(new Date());
    const name = this.container.name;
    if (exit.error) {
      void this.deps.events.warning(this.ref, 'Failed', `Error: ${exit.error.message}`);
    }
    const terminated = terminatedState(exit, startedAt, finishedAt);
    const exitCode = terminated.terminated!.exitCode;
    if (!restarts(this.policy, exitCode)) {
      this.log.info({ code: exit.code, signal: exit.signal }, 'exited for good');
      this.state = { ...this.state, container: terminated, ready: false };
      return this.writeStatus();
    }
    const { backOff } = this.deps;
    this.crashes = crashesAfterExit(
      this.crashes,
      Date.parse(finishedAt) - Date.parse(startedAt),
      backOff,
    );
    const delay = restartDelay(this.crashes, backOff);
    this.log.warn({ code: exit.code, signal: exit.signal, restartInMs: delay }, 'exited');
    this.state = { ...this.state, container: terminated, ready: false };
    this.writeStatus();
    if (delay > 0) {
      const pod = `${this.name}_${this.namespace}(${this.uid})`;
      this.state = {
        ...this.state,
        container: {
          waiting: {
            reason: CRASH_LOOP_BACK_OFF,
            message: `back-off ${delay / 1000}s restarting failed container=${name} pod=${pod}`,
          },
        },
        lastState: terminated,
      };
      this.writeStatus();
      void this.deps.events.warning(
        this.ref,
        'BackOff',
        `Back-off restarting failed container ${name} in pod ${pod}`,
      );
    }
    this.timer = setTimeout(() => {
      this.state = {
        ...this.state,
        container: { waiting: { reason: CONTAINER_CREATING } },
        lastState: terminated,
        restartCount: this.state.restartCount + 1,
      };
      this.runOrRetry();
    }, delay);
  }

  /**
   * Queues a write of the current state's status; writes go one at a time, in order, and only to
   * this pod: a new pod of the same name (another uid) is never written.
   */
  private writeStatus(): void {
    if (this.stopping) return;
    const state = this.state;
    const now = kubeTime(new Date());
    this.writes = this.writes
      .then(async () => {
        const next = podStatus(this.container, this.policy, state, this.written, now);
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
