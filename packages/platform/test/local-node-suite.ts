import { CORE_KINDS, type Kube, type KubeObject } from '@paddock/kube';
import {
  assertDies,
  claimPodAddressRange,
  startEmbeddedCluster,
  tempDir,
  type EmbeddedCluster,
  type PodAddressRange,
} from '@paddock/testing';
import type { BackOffPolicy } from '../src/local-node/back-off.js';
import type { NodeClock } from '../src/local-node/node-clock.js';
import { LocalNode } from '../src/local-node.js';

/** Restarts quick enough for a test to see several, slow enough to see the pod unready. */
const BACK_OFF: BackOffPolicy = { initialMs: 300, maxMs: 600, resetAfterMs: 60_000 };
/** Retries of a container that waits for a Secret or a claim, quick for the same reason. */
const CONFIG_RETRY: BackOffPolicy = {
  initialMs: 200,
  maxMs: 400,
  resetAfterMs: Number.POSITIVE_INFINITY,
};

/**
 * An embedded cluster and a local node for one suite: `start` in its `before`, `stop` in its
 * `after`. The node has a range of addresses of its own, so that other suites' nodes on this
 * machine take other addresses, and a data folder of its own.
 */
export class LocalNodeSuite {
  cluster!: EmbeddedCluster;
  kube!: Kube;
  dir!: { path: string; remove: () => Promise<void> };
  addresses!: PodAddressRange;
  node!: LocalNode;
  /** Every process the node was seen running, to check at the end that none outlives it. */
  readonly seen = new Set<number>();

  constructor(
    private readonly options: {
      /** Made before the node starts. */
      namespaces: readonly string[];
      /** What projected tokens are renewed by; the system's clock by default. */
      clock?: NodeClock;
    },
  ) {}

  async start(): Promise<void> {
    this.addresses = await claimPodAddressRange();
    this.cluster = await startEmbeddedCluster();
    this.kube = this.cluster.kube;
    for (const name of this.options.namespaces) {
      await this.kube.resource<KubeObject>(CORE_KINDS.namespace).create({ metadata: { name } });
    }
    this.dir = await tempDir();
    await this.startNode();
  }

  /** Starts a new node on the same cluster, addresses and folder (the last one stopped first). */
  async startNode(): Promise<void> {
    this.node = new LocalNode({
      kube: this.kube,
      dataDir: this.dir.path,
      addresses: this.addresses,
      backOff: BACK_OFF,
      configRetry: CONFIG_RETRY,
      clock: this.options.clock,
    });
    await this.node.start();
  }

  /** Stops the node and checks that no process it was seen running outlives it, then the rest. */
  async stop(): Promise<void> {
    await this.node?.stop();
    for (const pid of this.seen) await assertDies(pid);
    await this.cluster?.stop();
    await this.dir?.remove();
    await this.addresses?.release();
  }
}
