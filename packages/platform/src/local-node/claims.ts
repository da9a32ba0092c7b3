import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@paddock/common';
import {
  Informer,
  NotFoundError,
  sameJson,
  WorkQueue,
  type Kube,
  type ResourceClient,
} from '@paddock/kube';
import { KeyedSerializer } from './keyed-serializer.js';
import { claimFolder } from './mounts.js';
import { PERSISTENT_VOLUME_CLAIMS, type PersistentVolumeClaim } from './pod.js';

export interface LocalClaimsOptions {
  kube: Kube;
  dataDir: string;
  logger: Logger;
  /**
   * Resolves once no pod that used the claim when it was deleted runs any more: its folder is
   * removed only then, as Kubernetes' claim protection keeps a claim until its pods are gone.
   */
  whenUnused: (namespace: string, claim: string) => Promise<void>;
  /**
   * Folders a claim's volume starts as a copy of, by `<namespace>/<claim>`: the local platform's
   * sample agent begins with the sample workspace. Given by whoever runs the node, never by the
   * cluster, so no pod can have a folder of this machine copied into its volume.
   */
  seeds?: ReadonlyMap<string, string>;
}

/** The status a claim provisioned here has: Bound, with what it asked for. Pure. */
export function boundStatus(claim: PersistentVolumeClaim): PersistentVolumeClaim['status'] {
  const storage = claim.spec.resources?.requests?.storage;
  return {
    ...claim.status,
    phase: 'Bound',
    ...(claim.spec.accessModes === undefined ? {} : { accessModes: claim.spec.accessModes }),
    ...(storage === undefined ? {} : { capacity: { storage } }),
  };
}

/** After a failed status write, the next try. */
const BIND_RETRY_MS = 1000;

const keyOf = (namespace: string, claim: string) => `${namespace}/${claim}`;
const splitKey = (key: string) => {
  const slash = key.indexOf('/');
  return { namespace: key.slice(0, slash), claim: key.slice(slash + 1) };
};

/**
 * The local provisioner and volume plugin in one: every claim is Bound at once to a folder of its
 * own under <data>/volumes/<namespace>/<claim>, made at first use, kept across pods and restarts,
 * and removed when the claim is deleted. Work on one folder (make, remove) goes one at a time.
 */
export class LocalClaims {
  private readonly informer: Informer<PersistentVolumeClaim>;
  private readonly client: ResourceClient<PersistentVolumeClaim>;
  /** Operations on a folder (make, remove), one at a time per folder. */
  private readonly folders = new KeyedSerializer();
  /** Claims whose status is to say Bound, by namespace/claim. */
  private readonly bindings: WorkQueue;

  constructor(private readonly options: LocalClaimsOptions) {
    this.client = options.kube.resource<PersistentVolumeClaim>(PERSISTENT_VOLUME_CLAIMS);
    this.informer = new Informer(this.client, {}, (err) =>
      options.logger.warn({ err }, 'claims watch failed; retrying'),
    );
    this.bindings = new WorkQueue((key) => this.bind(key), {
      workers: Number.POSITIVE_INFINITY,
      baseRetryMs: BIND_RETRY_MS,
      maxRetryMs: BIND_RETRY_MS,
      onProcessed: (key, outcome, _seconds, err) => {
        if (outcome === 'error') {
          options.logger.warn({ err, claim: splitKey(key).claim }, 'could not bind a claim');
        }
      },
    });
  }

  /** Resolves once the claims are listed, every one is Bound, and folders of gone claims are queued for removal. */
  async start(): Promise<void> {
    this.informer.on((event, claim) => {
      const { name, namespace = '' } = claim.metadata;
      if (event === 'delete') void this.remove(namespace, name);
      else this.bindings.add(keyOf(namespace, name));
    });
    this.bindings.start();
    this.informer.start();
    await this.informer.synced;
    await this.sweep();
  }

  async stop(): Promise<void> {
    this.informer.stop();
    await this.bindings.shutdown();
    await this.folders.idle();
  }

  exists(namespace: string, claim: string): boolean {
    return this.informer.get(claim, namespace) !== undefined;
  }

  /** The claim's folder, made when missing (after any removal of an earlier claim of the name). */
  prepare(namespace: string, claim: string): Promise<string> {
    const folder = claimFolder(this.options.dataDir, namespace, claim);
    const seed = this.options.seeds?.get(keyOf(namespace, claim));
    return this.queue(namespace, claim, async () => {
      const made = await stat(folder).then(
        () => true,
        () => false,
      );
      if (made) return;
      if (seed === undefined) return void (await mkdir(folder, { recursive: true }));
      // Copied beside, then renamed: a node stopped mid-copy leaves no half-seeded volume.
      const partial = `${folder}.seeding`;
      await rm(partial, { recursive: true, force: true });
      await cp(seed, partial, { recursive: true });
      await rename(partial, folder);
      this.options.logger.info({ namespace, claim, seed }, 'volume seeded');
    }).then(() => folder);
  }

  private remove(namespace: string, claim: string): Promise<void> {
    const folder = claimFolder(this.options.dataDir, namespace, claim);
    const unused = this.options.whenUnused(namespace, claim);
    return this.queue(namespace, claim, async () => {
      await unused;
      await rm(folder, { recursive: true, force: true });
      this.options.logger.info({ namespace, claim }, 'claim deleted: its folder is removed');
    });
  }

  /** Runs a step on the claim's folder after those queued before it; a failure is logged. */
  private queue(namespace: string, claim: string, step: () => Promise<void>): Promise<void> {
    return this.folders.run(keyOf(namespace, claim), step).catch((err: unknown) => {
      this.options.logger.warn(
        { err, namespace, claim },
        'could not prepare or remove a claim folder',
      );
    });
  }

  /** Folders whose claim is gone (deleted while the node was stopped) are removed. */
  private async sweep(): Promise<void> {
    const root = join(this.options.dataDir, 'volumes');
    const namespaces = await readdir(root).catch(() => [] as string[]);
    const removals: Promise<void>[] = [];
    for (const namespace of namespaces) {
      const claims = await readdir(join(root, namespace)).catch(() => [] as string[]);
      for (const claim of claims) {
        if (!this.exists(namespace, claim)) removals.push(this.remove(namespace, claim));
      }
    }
    await Promise.all(removals);
  }

  /** Writes the claim's Bound status, as it is now in the cache; a failure is retried. */
  private async bind(key: string): Promise<void> {
    const { namespace, claim: name } = splitKey(key);
    const claim = this.informer.get(name, namespace);
    if (claim === undefined || claim.metadata.deletionTimestamp !== undefined) return;
    const status = boundStatus(claim);
    if (sameJson(claim.status, status)) return;
    try {
      await this.client.patch(name, { status }, { namespace, subresource: 'status' });
    } catch (err) {
      // Deleted meanwhile: nothing to bind.
      if (err instanceof NotFoundError) return;
      throw err;
    }
  }
}
