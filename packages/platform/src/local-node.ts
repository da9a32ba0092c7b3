import { readdir, rm } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { silentLogger, type Logger } from '@paddock/common';
import {
  ConflictError,
  CORE_KINDS,
  EventRecorder,
  Informer,
  NotFoundError,
  WorkQueue,
  type Kube,
  type ResourceClient,
} from '@paddock/kube';
import { KUBELET_BACK_OFF, type BackOffPolicy } from './local-node/back-off.js';
import { LocalClaims } from './local-node/claims.js';
import type { ProgramBins } from './local-node/container-program.js';
import { apiServerEnv } from './local-node/container-env.js';
import { SYSTEM_CLOCK, type NodeClock } from './local-node/node-clock.js';
import {
  allocateAddress,
  DEFAULT_POD_ADDRESSES,
  type AddressRange,
} from './local-node/pod-addresses.js';
import { PodWorker } from './local-node/pod-worker.js';
import { startLimit, StartGate } from './local-node/start-gate.js';
import type { Pod } from './local-node/pod.js';
import { runsLocally } from './local-node/sandbox-image.js';
import { portsAreFree } from './local-node/sandbox-process.js';
import { binOf } from './package-bins.js';

/** The one node of the embedded cluster: this machine. */
export const LOCAL_NODE_NAME = 'paddock-local';
/** The component the node's events name as their source, like a kubelet's. */
export const EVENT_SOURCE = 'paddock-node';
/** At shutdown, a pod has at most this long between SIGTERM and SIGKILL (the sandbox needs < 10 s). */
export const SHUTDOWN_GRACE_SECONDS = 10;
/**
 * Retries of a container that cannot be made yet (a Secret or claim missing): sooner than the
 * crash back-off, since what it waits for is usually being created at that moment.
 */
export const CONFIG_RETRY: BackOffPolicy = {
  initialMs: 1000,
  maxMs: 30_000,
  resetAfterMs: Number.POSITIVE_INFINITY,
};
/** The environment a process gets from the node agent's own; nothing else leaks into pods. */
const INHERITED_ENV = ['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LC_ALL', 'TZ'];

export interface LocalNodeOptions {
  kube: Kube;
  /** Claims' folders go under <dataDir>/volumes, pods' own under <dataDir>/pods. */
  dataDir: string;
  nodeName?: string;
  /** The paddock-sandbox command file; the @paddock/sandbox package's by default. */
  sandboxBin?: string;
  /** The paddock-agent command file; the @paddock/agent package's by default. */
  agentBin?: string;
  /**
   * The API server as pods reach it (KUBERNETES_SERVICE_HOST and _PORT); the kubeconfig's server
   * by default.
   */
  apiServer?: string;
  /** What projected tokens are renewed by; the system's clock by default. */
  clock?: NodeClock;
  /** The kubelet's by default (10 s doubling to 5 min). */
  backOff?: BackOffPolicy;
  configRetry?: BackOffPolicy;
  /** The loopback addresses pods get; 127.1.0.1 upward by default. */
  addresses?: AddressRange;
  /** Folders a claim's volume starts as a copy of, by `<namespace>/<claim>` (see LocalClaims). */
  seeds?: ReadonlyMap<string, string>;
  logger?: Logger;
}

/** After a failed pass or binding, the next try. */
const RETRY_MS = 1000;
/** Pod names whose last address is remembered for a successor of the same name. */
const MAX_REMEMBERED_ADDRESSES = 10_000;
/** Addresses tried for a pod before giving up for now (others may be held by other programs). */
const ADDRESS_ATTEMPTS = 32;

const keyOf = (namespace: string | undefined, name: string) => `${namespace ?? ''}/${name}`;
const splitKey = (key: string) => {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
};

/**
 * The embedded cluster's node: a kubelet and a one-node scheduler for this machine. It binds every
 * unscheduled pod to itself, runs each container of the sandbox's image of each pod bound to it as
 * a local process (PodWorker), and provisions every claim as a folder (LocalClaims). Passes
 * over one pod name run one at a time, so a replaced pod's process has stopped before its
 * successor of the same name starts; changes meanwhile queue one more pass.
 */
export class LocalNode {
  readonly nodeName: string;
  private readonly assigned: Informer<Pod>;
  private readonly unscheduled: Informer<Pod>;
  private readonly podClient: ResourceClient<Pod>;
  private readonly claims: LocalClaims;
  /** Containers start a few at a time, each until ready: all at once, none would (start-gate). */
  private readonly starts = new StartGate(startLimit(availableParallelism()));
  private readonly events: EventRecorder;
  private readonly logger: Logger;
  private readonly addresses: AddressRange;
  /** The pods running here, by namespace/name. */
  private readonly workers = new Map<string, PodWorker>();
  /** Workers being stopped: their claims are still in use until they end. */
  private readonly stopping = new Set<PodWorker>();
  /** The address each pod name last had, so that a replacement gets it again. */
  private readonly lastAddress = new Map<string, string>();
  /** Pod names to pass over (see reconcile): every name at once, each one pass at a time. */
  private readonly passes: WorkQueue;
  /** Unscheduled pods to bind here, by namespace/name. */
  private readonly bindings: WorkQueue;
  private stopped = false;
  private readonly bins: ProgramBins;
  private readonly serviceEnv: [string, string][];

  constructor(private readonly options: LocalNodeOptions) {
    const { kube } = options;
    this.bins = programBins(options);
    const server = options.apiServer ?? kube.config.getCurrentCluster()?.server;
    if (server === undefined) throw new Error('the kubeconfig names no API server');
    this.serviceEnv = apiServerEnv(server);
    this.nodeName = options.nodeName ?? LOCAL_NODE_NAME;
    this.logger = options.logger ?? silentLogger();
    this.addresses = options.addresses ?? DEFAULT_POD_ADDRESSES;
    const onError = (err: unknown) => this.logger.warn({ err }, 'pod watch failed; retrying');
    this.podClient = kube.resource<Pod>(CORE_KINDS.pod);
    this.assigned = new Informer(
      this.podClient,
      { fieldSelector: `spec.nodeName=${this.nodeName}` },
      onError,
    );
    this.unscheduled = new Informer(this.podClient, { fieldSelector: 'spec.nodeName=' }, onError);
    this.claims = new LocalClaims({
      kube,
      dataDir: options.dataDir,
      logger: this.logger,
      whenUnused: (namespace, claim) => this.whenUnused(`${namespace}/${claim}`),
      ...(options.seeds === undefined ? {} : { seeds: options.seeds }),
    });
    this.events = new EventRecorder({
      kube,
      component: EVENT_SOURCE,
      onError: (err, event) => this.logger.warn({ err, ...event }, 'could not record an event'),
    });
    // A failed pass or binding is tried again after RETRY_MS, every time.
    const retry = {
      workers: Number.POSITIVE_INFINITY,
      baseRetryMs: RETRY_MS,
      maxRetryMs: RETRY_MS,
    };
    this.passes = new WorkQueue((key) => this.reconcile(key), {
      ...retry,
      onProcessed: (key, outcome, _seconds, err) => {
        if (outcome === 'error') {
          this.logger.warn({ err, pod: key }, 'could not reconcile the pod; retrying');
        }
      },
    });
    this.bindings = new WorkQueue((key) => this.bind(key), {
      ...retry,
      onProcessed: (key, outcome, _seconds, err) => {
        if (outcome !== 'error') return;
        const { namespace, name } = splitKey(key);
        this.logger.warn({ err, namespace, pod: name }, 'could not bind the pod; retrying');
      },
    });
  }

  /** Resolves once pods and claims are listed and a pass over every pod here is queued. */
  async start(): Promise<void> {
    this.assigned.on((_, pod) => this.passes.add(keyOf(pod.metadata.namespace, pod.metadata.name)));
    this.unscheduled.on((event, pod) => {
      if (event !== 'delete') this.bindings.add(keyOf(pod.metadata.namespace, pod.metadata.name));
    });
    this.bindings.start();
    this.assigned.start();
    this.unscheduled.start();
    await Promise.all([this.assigned.synced, this.unscheduled.synced, this.claims.start()]);
    await this.sweepPodFolders();
    // Passes wait for the lists: an address in use by a pod not listed yet could be given twice.
    this.passes.start();
  }

  /** Stops watching, lets passes in progress end, then stops every pod's process. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.assigned.stop();
    this.unscheduled.stop();
    await Promise.all([this.passes.shutdown(), this.bindings.shutdown()]);
    await Promise.all([...this.workers.values()].map((w) => w.stop('shutdown')));
    this.workers.clear();
    await this.claims.stop();
  }

  /** SIGKILL to every pod's process, synchronously: for an exit handler. */
  killNow(): void {
    for (const worker of [...this.workers.values(), ...this.stopping]) worker.killNow();
  }

  /** The processes running now, one per running container, in the pods' containers' order. */
  processes(): {
    namespace: string;
    pod: string;
    container: string;
    uid: string;
    pid: number;
    address: string;
  }[] {
    return [...this.workers.values()].flatMap((w) =>
      w.address === undefined
        ? []
        : w.processes.map(({ container, pid }) => ({
            namespace: w.namespace,
            pod: w.name,
            container,
            uid: w.uid,
            pid,
            address: w.address!,
          })),
    );
  }

  /** The scheduler's part: binds the pod to this node while it is unscheduled. */
  private async bind(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const pod = this.unscheduled.get(name, namespace);
    if (this.stopped || !pod || pod.spec.nodeName || pod.metadata.deletionTimestamp) return;
    const uid = pod.metadata.uid ?? '';
    try {
      await this.options.kube.bindPod(namespace, name, this.nodeName);
    } catch (err) {
      // Bound meanwhile (409), or gone: nothing to do.
      if (err instanceof ConflictError || err instanceof NotFoundError) return;
      throw err;
    }
    const ref = { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace, uid } };
    const message = `Successfully assigned ${namespace}/${name} to ${this.nodeName}`;
    void this.events.normal(ref, 'Scheduled', message);
  }

  /**
   * One pass over a pod name: a worker whose pod is gone, terminating or replaced (another uid)
   * stops first; then a pod with no worker gets one.
   */
  private async reconcile(key: string): Promise<void> {
    const { namespace, name } = splitKey(key);
    const pod = this.assigned.get(name, namespace);
    const worker = this.workers.get(key);
    const wanted = pod !== undefined && pod.metadata.deletionTimestamp === undefined;
    if (worker && (!wanted || worker.uid !== pod.metadata.uid)) {
      this.workers.delete(key);
      this.stopping.add(worker);
      try {
        await worker.stop('deleted');
      } finally {
        this.stopping.delete(worker);
      }
    } else if (worker) {
      return;
    }
    if (!wanted || this.stopped || isFinished(pod)) return;
    const address = pod.spec.containers.some((c) => runsLocally(c.image))
      ? await this.addressFor(key, pod)
      : undefined;
    if (this.stopped) return;
    const next = new PodWorker(pod, address, {
      kube: this.options.kube,
      events: this.events,
      bins: this.bins,
      serviceEnv: this.serviceEnv,
      clock: this.options.clock ?? SYSTEM_CLOCK,
      dataDir: this.options.dataDir,
      nodeName: this.nodeName,
      backOff: this.options.backOff ?? KUBELET_BACK_OFF,
      configRetry: this.options.configRetry ?? CONFIG_RETRY,
      baseEnv: inheritedEnv(),
      shutdownGraceMs: SHUTDOWN_GRACE_SECONDS * 1000,
      claims: this.claims,
      starts: this.starts,
      logger: this.logger,
    });
    this.workers.set(key, next);
    if (address !== undefined) this.rememberAddress(key, address);
    next.start();
  }

  /** Remembers a name's address, forgetting the oldest names beyond the bound. */
  private rememberAddress(key: string, address: string): void {
    this.lastAddress.delete(key);
    this.lastAddress.set(key, address);
    if (this.lastAddress.size > MAX_REMEMBERED_ADDRESSES) {
      this.lastAddress.delete(this.lastAddress.keys().next().value!);
    }
  }

  /**
   * A loopback address no other pod here has (running, or recorded in its status), whose ports
   * no other program holds: the pod's own from before when it can have it again.
   */
  private async addressFor(key: string, pod: Pod): Promise<string> {
    const taken = new Set<string>();
    for (const worker of [...this.workers.values(), ...this.stopping]) {
      if (worker.address !== undefined) taken.add(worker.address);
    }
    for (const other of this.assigned.list()) {
      const ip = other.status?.podIP;
      if (ip !== undefined && keyOf(other.metadata.namespace, other.metadata.name) !== key) {
        taken.add(ip);
      }
    }
    const ports = [
      ...new Set(pod.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.containerPort))),
    ];
    let preferred = [pod.status?.podIP, this.lastAddress.get(key)];
    for (let attempt = 0; attempt < ADDRESS_ATTEMPTS; attempt++) {
      const address = allocateAddress(taken, this.addresses, preferred);
      if (address === undefined) break;
      if (await portsAreFree(address, ports)) return address;
      this.logger.info({ pod: key, address }, 'address held by another program; trying the next');
      taken.add(address);
      preferred = [];
    }
    throw new Error(`no free pod address in the range from ${this.addresses.first}`);
  }

  /** Resolves once no worker that mounts the claim now (running or stopping) runs any more. */
  private whenUnused(claim: string): Promise<void> {
    const users = [...this.workers.values(), ...this.stopping].filter((w) =>
      w.claims.includes(claim),
    );
    return Promise.all(users.map((w) => w.ended)).then(() => undefined);
  }

  /** Pods' own folders whose pod is no longer here (deleted while the node was stopped) go. */
  private async sweepPodFolders(): Promise<void> {
    const root = join(this.options.dataDir, 'pods');
    const live = new Set(this.assigned.list().map((p) => p.metadata.uid));
    const uids = await readdir(root).catch(() => [] as string[]);
    await Promise.all(
      uids
        .filter((uid) => !live.has(uid))
        .map((uid) => rm(join(root, uid), { recursive: true, force: true })),
    );
  }
}

/** A pod that ran to its end under its restart policy is not run again. */
function isFinished(pod: Pod): boolean {
  return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';
}

/** The command files containers run: those given, else the workspace packages' own. */
export function programBins(options: { sandboxBin?: string; agentBin?: string }): ProgramBins {
  return {
    sandbox: options.sandboxBin ?? binOf('@paddock/sandbox', 'paddock-sandbox'),
    agent: options.agentBin ?? binOf('@paddock/agent', 'paddock-agent'),
  };
}

function inheritedEnv(): Record<string, string> {
  return Object.fromEntries(
    INHERITED_ENV.flatMap((name) => {
      const value = process.env[name];
      return value === undefined ? [] : [[name, value]];
    }),
  );
}
