import type { Logger } from '@paddock/common';
import type { WorkQueue } from '@paddock/kube/work-queue';
import { ApiError } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import { FOREGROUND_FINALIZER, ORPHAN_FINALIZER, type Resources } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { StoredChange, Store } from '../storage/store.js';
import { objectKey, parseObjectKey } from './object-ref.js';
import { controllerQueue } from './controller-queue.js';

/**
 * Kubernetes' garbage collector, by ownerReference uid: when an owner goes, its dependents with no
 * other live owner are deleted (in the background, so transitively); Orphan deletions strip the
 * reference instead, and Foreground deletions wait for the dependents before the owner goes.
 */
export class GarbageCollector {
  /** Owner uid to the keys of the objects that name it. */
  private readonly dependents = new Map<string, Set<string>>();
  /** uid to key of every stored object. */
  private readonly byUid = new Map<string, string>();

  /** `gc/<uid>`: an owner is gone; `orphan/<uid>`, `fg/<uid>`: an Orphan or Foreground deletion. */
  readonly queue: WorkQueue;

  constructor(
    private readonly store: Store,
    private readonly resources: Resources,
    private readonly context: () => RequestContext,
    logger: Logger,
  ) {
    this.queue = controllerQueue((key) => this.process(key), logger);
  }

  private process(key: string): void {
    const slash = key.indexOf('/');
    const uid = key.slice(slash + 1);
    switch (key.slice(0, slash)) {
      case 'gc':
        return this.ownerGone(uid);
      case 'orphan':
        return this.orphan(uid);
      case 'fg':
        return this.foreground(uid);
    }
  }

  /** Indexes what is stored, catches up on work a stop interrupted, then follows changes. */
  start(): () => void {
    for (const storage of this.store.resourceNames()) {
      for (const object of this.store.list(storage)) this.index(storage, object);
    }
    for (const owner of this.dependents.keys()) {
      if (!this.byUid.has(owner)) this.queue.add(`gc/${owner}`);
    }
    for (const storage of this.store.resourceNames()) {
      for (const object of this.store.list(storage)) this.watchDeletion(object);
    }
    return this.store.subscribe((change) => this.onChange(change));
  }

  private onChange(change: StoredChange): void {
    if (change.previous) this.unindex(change.resource, change.previous);
    const meta = metaOf(change.object);
    if (change.type === 'DELETED') {
      this.unindex(change.resource, change.object);
      const uid = meta.uid;
      if (uid && this.dependents.has(uid)) this.queue.add(`gc/${uid}`);
      for (const ref of meta.ownerReferences ?? []) {
        const owner = this.ownerObject(ref.uid);
        if (owner && metaOf(owner).finalizers?.includes(FOREGROUND_FINALIZER)) {
          this.queue.add(`fg/${ref.uid}`);
        }
      }
      return;
    }
    this.index(change.resource, change.object);
    for (const ref of meta.ownerReferences ?? []) {
      if (!this.byUid.has(ref.uid)) this.queue.add(`gc/${ref.uid}`);
    }
    this.watchDeletion(change.object);
  }

  private watchDeletion(object: KubeObject): void {
    const meta = metaOf(object);
    if (!meta.deletionTimestamp || !meta.uid) return;
    const uid = meta.uid;
    if (meta.finalizers?.includes(ORPHAN_FINALIZER)) {
      this.queue.add(`orphan/${uid}`);
    }
    if (meta.finalizers?.includes(FOREGROUND_FINALIZER)) {
      this.queue.add(`fg/${uid}`);
    }
  }

  private index(storage: string, object: KubeObject): void {
    const meta = metaOf(object);
    const key = objectKey(storage, object);
    if (meta.uid) this.byUid.set(meta.uid, key);
    for (const ref of meta.ownerReferences ?? []) {
      let set = this.dependents.get(ref.uid);
      if (!set) this.dependents.set(ref.uid, (set = new Set()));
      set.add(key);
    }
  }

  private unindex(storage: string, object: KubeObject): void {
    const meta = metaOf(object);
    const key = objectKey(storage, object);
    if (meta.uid && this.byUid.get(meta.uid) === key) this.byUid.delete(meta.uid);
    for (const ref of meta.ownerReferences ?? []) {
      const set = this.dependents.get(ref.uid);
      set?.delete(key);
      if (set?.size === 0) this.dependents.delete(ref.uid);
    }
  }

  /** The owner is gone: delete the dependents it was the last live owner of. */
  private ownerGone(uid: string): void {
    if (this.byUid.has(uid)) return;
    for (const key of [...(this.dependents.get(uid) ?? [])]) {
      const dependent = this.objectAt(key);
      if (!dependent) continue;
      const refs = metaOf(dependent).ownerReferences ?? [];
      const live = refs.filter((r) => r.uid !== uid && this.byUid.has(r.uid));
      if (live.length === 0) {
        if (!metaOf(dependent).deletionTimestamp) this.deleteAt(key, 'Background');
      } else {
        this.changeAt(key, (object) => {
          metaOf(object).ownerReferences = live;
        });
      }
    }
  }

  /** An Orphan deletion: the dependents lose their reference, then the owner goes. */
  private orphan(uid: string): void {
    for (const key of [...(this.dependents.get(uid) ?? [])]) {
      this.changeAt(key, (object) => {
        const meta = metaOf(object);
        meta.ownerReferences = (meta.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (meta.ownerReferences.length === 0) delete meta.ownerReferences;
      });
    }
    this.removeFinalizer(uid, ORPHAN_FINALIZER);
  }

  /** A Foreground deletion: the dependents go first, then the owner. */
  private foreground(uid: string): void {
    const keys = [...(this.dependents.get(uid) ?? [])];
    if (keys.length === 0) {
      this.removeFinalizer(uid, FOREGROUND_FINALIZER);
      return;
    }
    for (const key of keys) {
      const dependent = this.objectAt(key);
      if (dependent && !metaOf(dependent).deletionTimestamp) this.deleteAt(key, 'Foreground');
    }
  }

  private removeFinalizer(uid: string, finalizer: string): void {
    const key = this.byUid.get(uid);
    if (!key) return;
    this.changeAt(key, (object) => {
      const meta = metaOf(object);
      meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== finalizer);
    });
  }

  private ownerObject(uid: string): KubeObject | undefined {
    const key = this.byUid.get(uid);
    return key ? this.objectAt(key) : undefined;
  }

  private objectAt(key: string): KubeObject | undefined {
    const { storage, namespace, name } = parseObjectKey(key);
    return this.store.get(storage, namespace, name);
  }

  private typeOf(storage: string): ResourceType | undefined {
    return this.resources.registry.storedTypes().find((t) => t.storage === storage);
  }

  private deleteAt(key: string, policy: 'Background' | 'Foreground'): void {
    const { storage, namespace, name } = parseObjectKey(key);
    const type = this.typeOf(storage);
    ignoreGone(() => {
      if (type)
        this.resources.delete(type, namespace, name, { propagationPolicy: policy }, this.context());
      else this.store.remove(storage, namespace, name);
    });
  }

  private changeAt(key: string, change: (object: KubeObject) => void): void {
    const { storage, namespace, name } = parseObjectKey(key);
    const type = this.typeOf(storage);
    if (!type) return;
    ignoreGone(() => this.resources.mutate(type, namespace, name, change, this.context()));
  }
}

/** An object deleted meanwhile needs nothing more. */
function ignoreGone(work: () => void): void {
  try {
    work();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 404)) throw err;
  }
}
