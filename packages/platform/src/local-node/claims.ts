import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '@paddock/common';
import { Informer, NotFoundError, sameJson, type Kube, type ResourceClient } from '@paddock/kube';
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

/**
 * The local provisioner and volume plugin in one: every claim is Bound at once to a folder of its
 * own under <data>/volumes/<namespace>/<claim>, made at first use, kept across pods and restarts,
 * and removed when the claim is deleted. Work on one folder (make, remove) goes one at a time.
 */
export class LocalClaims {
  private readonly informer: Informer<PersistentVolumeClaim>;
  private readonly client: ResourceClient<PersistentVolumeClaim>;
  /** Per folder, the last operation queued on it. */
  private readonly chains = new Map<string, Promise<void>>();
  private readonly retries = new Set<NodeJS.Timeout>();
  private stopped = false;

  constructor(private readonly options: LocalClaimsOptions) {
    this.client = options.kube.resource<PersistentVolumeClaim>(PERSISTENT_VOLUME_CLAIMS);
    this.informer = new Informer(this.client, {}, (err) =>
      options.logger.warn({ err }, 'claims watch failed; retrying'),
    );
  }

  /** Resolves once the claims are listed, every one is Bound, and folders of gone claims are queued for removal. */
  async start(): Promise<void> {
    this.informer.on((event, claim) => {
      const { name, namespace = '' } = claim.metadata;
      if (event === 'delete') void this.remove(namespace, name);
      else void this.bind(claim);
    });
    this.informer.start();
    await this.informer.synced;
    await this.sweep();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.informer.stop();
    for (const timer of this.retries) clearTimeout(timer);
    await Promise.all(this.chains.values());
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

  private queue(namespace: string, claim: string, step: () => Promise<void>): Promise<void> {
    const key = keyOf(namespace, claim);
    const next = (this.chains.get(key) ?? Promise.resolve()).then(step).catch((err: unknown) => {
      this.options.logger.warn(
        { err, namespace, claim },
        'could not prepare or remove a claim folder',
      );
    });
    this.chains.set(key, next);
    void next.then(() => {
      if (this.chains.get(key) === next) this.chains.delete(key);
    });
    return next;
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

  private async bind(claim: PersistentVolumeClaim): Promise<void> {
    if (claim.metadata.deletionTimestamp !== undefined) return;
    const status = boundStatus(claim);
    if (sameJson(claim.status, status)) return;
    try {
      await this.client.patch(
        claim.metadata.name,
        { status },
        { namespace: claim.metadata.namespace, subresource: 'status' },
      );
    } catch (err) {
      // Deleted meanwhile: nothing to bind.
      if (err instanceof NotFoundError) return;
      this.options.logger.warn({ err, claim: claim.metadata.name }, 'could not bind a claim');
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        const current = this.informer.get(claim.metadata.name, claim.metadata.namespace);
        if (current && !this.stopped) void this.bind(current);
      }, BIND_RETRY_MS);
      this.retries.add(timer);
    }
  }
}
