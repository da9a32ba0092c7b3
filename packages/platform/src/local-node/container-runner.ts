import { mkdir } from 'node:fs/promises';
import type { Logger } from '@paddock/common';
import {
  CORE_KINDS,
  kubeTime,
  NotFoundError,
  type EventRecorder,
  type Kube,
  type KubeObject,
} from '@paddock/kube';
import { crashesAfterExit, restartDelay, type BackOffPolicy } from './back-off.js';
import { containerProgram, type LocalProgram, type ProgramBins } from './container-program.js';
import { containerEnv, envSources, type ReadSources } from './container-env.js';
import { expandArgs } from './dependent-vars.js';
import { LogBatcher } from './log-batcher.js';
import { containerMounts, hostPathOf, podFolder, tmpDirOf, type HostMount } from './mounts.js';
import { HOST_IP, podListenArg } from './pod-addresses.js';
import {
  CONTAINER_CREATING,
  CRASH_LOOP_BACK_OFF,
  CREATE_CONTAINER_CONFIG_ERROR,
  restarts,
  terminatedState,
  type ContainerRunState,
  type RestartPolicy,
} from './pod-status.js';
import type { Container, ContainerStatus, HttpProbe, Pod } from './pod.js';
import { probeSettings, probeUrl, Prober } from './probes.js';
import { ProjectionError, type ProjectedVolumes } from './projected-volumes.js';
import { SandboxProcess, type Exit } from './sandbox-process.js';
import { MAX_START_MS, type LeaveStart, type StartGate } from './start-gate.js';

/** What every container of a node shares: the node's means. */
export interface ContainerDeps {
  kube: Kube;
  events: EventRecorder;
  /** The command files of the sandbox image's commands. */
  bins: ProgramBins;
  dataDir: string;
  nodeName: string;
  /** Restarts of an exited container (the kubelet's crash-loop back-off). */
  backOff: BackOffPolicy;
  /** Retries of a container that cannot be made yet (a missing Secret, claim). */
  configRetry: BackOffPolicy;
  /** The environment every process starts from (PATH, HOME, ...), before the container's. */
  baseEnv: Record<string, string>;
  /** KUBERNETES_SERVICE_HOST and _PORT, for every container. */
  serviceEnv: readonly (readonly [string, string])[];
  claims: {
    exists(namespace: string, claim: string): boolean;
    prepare(namespace: string, claim: string): Promise<string>;
  };
  /** The bound on containers starting at once, which every container's start goes through. */
  starts: StartGate;
}

/** What the containers of one pod share: the pod, the node's means, and where status goes. */
export interface PodContext extends ContainerDeps {
  pod: Pod;
  namespace: string;
  uid: string;
  /** The pod as events name it. */
  ref: KubeObject;
  /** The pod's own loopback address, which all its containers share. */
  address: string | undefined;
  policy: RestartPolicy;
  graceMs: number;
  volumes: ProjectedVolumes;
  log: Logger;
  /** Whether the pod is being stopped: nothing starts any more. */
  stopping(): boolean;
  /** One of its containers' states changed: the pod's status is to be written. */
  changed(): void;
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

/** A waiting status a container ran, or was going to run again, before (a node agent restart). */
const ranBefore = (previous: ContainerStatus | undefined) =>
  previous !== undefined &&
  (previous.state.running !== undefined ||
    previous.state.terminated !== undefined ||
    previous.state.waiting?.reason === CRASH_LOOP_BACK_OFF);

/**
 * What a kubelet does for one container of a pod: runs it as a local process with its args, env
 * and volumes, restarts it under the pod's restart policy with its own back-off, probes it, copies
 * its output into the pod's log under its name, and keeps its state for the pod's status.
 */
export class ContainerRunner {
  state: ContainerRunState;
  private process: SandboxProcess | undefined;
  private probers: Prober[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Set while this container holds a place at the start gate: ends its start. */
  private leaveStart: LeaveStart | undefined;
  private startTimer: NodeJS.Timeout | undefined;
  private crashes = 0;
  private configFailures = 0;
  private stopped = false;
  private readonly logs: LogBatcher;

  constructor(
    readonly container: Container,
    private readonly pod: PodContext,
    /** Set when the container cannot run beside the pod's others (a port one of them declares). */
    private readonly refusal?: { reason: string; message: string },
  ) {
    const { namespace } = pod;
    const name = pod.pod.metadata.name;
    this.logs = new LogBatcher(
      (text) => pod.kube.appendPodLog(namespace, name, text, container.name),
      {
        onError: (err) => {
          if (!(err instanceof NotFoundError))
            this.log.warn({ err }, 'could not write the pod log');
        },
      },
    );
    // A pod this node ran before (the node agent restarted) carries on from its status.
    const previous = pod.pod.status?.containerStatuses?.find((c) => c.name === container.name);
    this.state = {
      container: { waiting: { reason: CONTAINER_CREATING } },
      lastState: previous?.state.terminated ? previous.state : (previous?.lastState ?? {}),
      restartCount: (previous?.restartCount ?? 0) + (ranBefore(previous) ? 1 : 0),
      ready: false,
    };
  }

  get name(): string {
    return this.container.name;
  }

  get pid(): number | undefined {
    return this.process?.running ? this.process.pid : undefined;
  }

  private get log(): Logger {
    return this.pod.log.child({ container: this.container.name });
  }

  start(): void {
    const program = this.refusal ?? containerProgram(this.container, this.pod.bins);
    if ('reason' in program || this.pod.address === undefined) {
      const { reason, message } =
        'reason' in program ? program : { reason: CONTAINER_CREATING, message: 'no address' };
      const reported = this.pod.pod.status?.containerStatuses?.some(
        (c) => c.name === this.container.name && c.state.waiting?.reason === reason,
      );
      this.update({ container: { waiting: { reason, message } } });
      // Once per pod, even across restarts of the node agent: its status remembers it was said.
      if (!reported) void this.pod.events.warning(this.pod.ref, reason, message);
      return;
    }
    this.runOrRetry(program);
  }

  /** Stops the process (SIGTERM, SIGKILL after the grace period) and writes its last output. */
  async stop(reason: 'deleted' | 'shutdown', graceMs: number): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.endStart();
    this.stopProbes();
    const process = this.process;
    if (process?.running) {
      if (reason === 'deleted') {
        void this.pod.events.normal(
          this.pod.ref,
          'Killing',
          `Stopping container ${this.container.name}`,
        );
      }
      await process.stop(graceMs);
      this.log.info({ pid: process.pid, reason }, 'stopped');
    }
    await process?.exited;
    await this.logs.flush();
  }

  /** SIGKILL, synchronously, for an exit handler. */
  killNow(): void {
    this.process?.killNow();
  }

  /** Runs the process; a failure to even start it counts as an exit, and is retried the same way. */
  private runOrRetry(program: LocalProgram): void {
    const startedAt = kubeTime(new Date());
    this.run(program).catch((err: unknown) => {
      if (err instanceof NotYet) return this.retryLater(err, program);
      const error = err instanceof Error ? err : new Error(String(err));
      this.onExit(undefined, { code: null, signal: null, error }, startedAt, program);
    });
  }

  /** What the container needs from the cluster and this machine: its env and its mounts. */
  private async prepare(
    address: string,
  ): Promise<{ env: [string, string][]; mounts: HostMount[] }> {
    const { pod } = this;
    const mounts = containerMounts(pod.pod, this.container, pod.dataDir);
    if (!mounts.ok) throw new NotYet(CREATE_CONTAINER_CONFIG_ERROR, 'Failed', mounts.message);
    for (const { claim } of mounts.mounts) {
      if (claim !== undefined && !pod.claims.exists(pod.namespace, claim)) {
        throw new NotYet(
          CONTAINER_CREATING,
          'FailedMount',
          `persistentvolumeclaim "${claim}" not found`,
        );
      }
    }
    const env = containerEnv(pod.pod, this.container, await this.readSources(), {
      nodeName: pod.nodeName,
      podIP: address,
      hostIP: HOST_IP,
      serviceEnv: pod.serviceEnv,
    });
    if (!env.ok) throw new NotYet(CREATE_CONTAINER_CONFIG_ERROR, 'Failed', env.message);
    for (const { claim, projected, hostPath } of mounts.mounts) {
      if (projected !== undefined) {
        try {
          await pod.volumes.ensure(projected);
        } catch (err) {
          if (err instanceof ProjectionError) {
            throw new NotYet(CONTAINER_CREATING, 'FailedMount', err.message);
          }
          throw err;
        }
        continue;
      }
      // A claim's folder is made in turn with its removals; a subPath in it, like an emptyDir, here.
      if (claim !== undefined) await pod.claims.prepare(pod.namespace, claim);
      await mkdir(hostPath, { recursive: true });
    }
    return { env: env.env, mounts: mounts.mounts };
  }

  /** The Secrets and ConfigMaps the env names, read now (a missing one is undefined). */
  private async readSources(): Promise<ReadSources> {
    const { secrets, configMaps } = envSources(this.container);
    const read = async (kind: 'secret' | 'configMap', name: string) => {
      try {
        const object = await this.pod.kube
          .resource<KubeObject & { data?: Record<string, string> }>(CORE_KINDS[kind])
          .get(name, this.pod.namespace);
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

  private async run(program: LocalProgram): Promise<void> {
    const { bin, args: rawArgs, nodeFlags } = program;
    const { pod } = this;
    const { events } = pod;
    const address = pod.address!;
    const { env, mounts } = await this.prepare(address);
    if (this.stopped) return;
    this.configFailures = 0;
    const args = expandArgs(rawArgs, env).map((arg) =>
      podListenArg(hostPathOf(arg, mounts), address),
    );
    const tmp = tmpDirOf(mounts);
    const cwd = podFolder(pod.dataDir, pod.uid);
    await mkdir(cwd, { recursive: true });
    if (this.stopped) return;
    // Its turn to start: it holds the place until it is ready, ends, or MAX_START_MS passed.
    const leave = await pod.starts.enter();
    if (this.stopped || pod.stopping()) return leave();
    this.leaveStart = leave;
    this.startTimer = setTimeout(() => this.endStart(), MAX_START_MS);
    const processEnv: Record<string, string> = {
      ...pod.baseEnv,
      HOSTNAME: pod.pod.metadata.name,
      ...(tmp === undefined ? {} : { TMPDIR: tmp }),
      ...Object.fromEntries(env.map(([name, value]) => [name, hostPathOf(value, mounts)])),
    };
    const name = this.container.name;
    void events.normal(
      pod.ref,
      'Pulled',
      `Container image "${this.container.image}" already present on machine`,
    );
    const process = new SandboxProcess({
      bin,
      nodeFlags,
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
    void process.exited.then((exit) => this.onExit(process, exit, startedAt, program));
    if (process.pid === undefined) return;
    void events.normal(pod.ref, 'Created', `Created container ${name}`);
    void events.normal(pod.ref, 'Started', `Started container ${name}`);
    this.log.info({ pid: process.pid, address, restartCount: this.state.restartCount }, 'started');
    const readiness = this.container.readinessProbe;
    this.update({ container: { running: { startedAt } }, ready: readiness === undefined });
    if (readiness) this.probe(process, 'Readiness', readiness, address);
    else this.endStart();
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
    const { events, ref } = this.pod;
    const target = probeUrl(probe, this.container, address);
    if ('error' in target) {
      void events.warning(ref, 'Unhealthy', `${kind} probe errored: ${target.error}`);
      return;
    }
    const prober = new Prober({
      url: target.url,
      settings: probeSettings(probe),
      initiallyHealthy: kind === 'Liveness',
      onChange: (healthy, message) => {
        if (this.process !== process || this.stopped) return;
        if (!healthy) void events.warning(ref, 'Unhealthy', `${kind} probe failed: ${message}`);
        if (kind === 'Readiness') {
          if (healthy) this.endStart();
          return this.update({ ready: healthy });
        }
        if (healthy) return;
        // A failed liveness probe restarts the container: its exit goes the usual way.
        const name = this.container.name;
        void events.normal(
          ref,
          'Killing',
          `Container ${name} failed liveness probe, will be restarted`,
        );
        void process.stop(this.pod.graceMs);
      },
    });
    this.probers.push(prober);
  }

  /** Gives this container's place at the start gate to the next one, if it holds one. */
  private endStart(): void {
    clearTimeout(this.startTimer);
    const leave = this.leaveStart;
    this.leaveStart = undefined;
    leave?.();
  }

  private stopProbes(): void {
    for (const prober of this.probers) prober.stop();
    this.probers = [];
  }

  /** A container that cannot be made yet waits with its reason and is tried again with back-off. */
  private retryLater(problem: NotYet, program: LocalProgram): void {
    if (this.stopped) return;
    const { configRetry } = this.pod;
    this.configFailures++;
    const wait = Math.max(
      configRetry.initialMs,
      restartDelay(this.configFailures + 1, configRetry),
    );
    this.log.warn(
      { reason: problem.reason, message: problem.message, retryInMs: wait },
      'cannot start the container yet',
    );
    this.update({ container: { waiting: { reason: problem.reason, message: problem.message } } });
    void this.pod.events.warning(this.pod.ref, problem.event, `Error: ${problem.message}`);
    this.timer = setTimeout(() => this.runOrRetry(program), wait);
  }

  /** Takes the container's new state and has the pod's status written. */
  private update(next: Partial<ContainerRunState>): void {
    this.state = { ...this.state, ...next };
    this.pod.changed();
  }

  private onExit(
    process: SandboxProcess | undefined,
    exit: Exit,
    startedAt: string,
    program: LocalProgram,
  ): void {
    if (this.process !== process || this.stopped || this.pod.stopping()) {
      if (this.process === process) this.endStart();
      return;
    }
    this.process = undefined;
    this.endStart();
    this.stopProbes();
    const { events, ref } = this.pod;
    const finishedAt = kubeTime(new Date());
    const name = this.container.name;
    if (exit.error) void events.warning(ref, 'Failed', `Error: ${exit.error.message}`);
    const terminated = terminatedState(exit, startedAt, finishedAt);
    const exitCode = terminated.terminated!.exitCode;
    if (!restarts(this.pod.policy, exitCode)) {
      this.log.info({ code: exit.code, signal: exit.signal }, 'exited for good');
      return this.update({ container: terminated, ready: false });
    }
    const { backOff } = this.pod;
    this.crashes = crashesAfterExit(
      this.crashes,
      Date.parse(finishedAt) - Date.parse(startedAt),
      backOff,
    );
    const delay = restartDelay(this.crashes, backOff);
    this.log.warn({ code: exit.code, signal: exit.signal, restartInMs: delay }, 'exited');
    this.update({ container: terminated, ready: false });
    if (delay > 0) {
      const pod = `${this.pod.pod.metadata.name}_${this.pod.namespace}(${this.pod.uid})`;
      this.update({
        container: {
          waiting: {
            reason: CRASH_LOOP_BACK_OFF,
            message: `back-off ${delay / 1000}s restarting failed container=${name} pod=${pod}`,
          },
        },
        lastState: terminated,
      });
      void events.warning(
        ref,
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
      this.runOrRetry(program);
    }, delay);
  }
}
