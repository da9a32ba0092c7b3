import type { Logger } from '@paddock/common';
import type { WorkQueue } from '@paddock/kube/work-queue';
import { ApiError } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import type { Resources } from '../api/resources.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import type { StoredChange, Store } from '../storage/store.js';
import { controllerQueue } from './controller-queue.js';

const NAMESPACES = 'namespaces';

/**
 * Kubernetes' namespace controllers: every namespace gets a `default` ServiceAccount, and a deleted
 * namespace (phase Terminating) has its content deleted, then goes itself once it is empty.
 */
export class NamespaceController {
  /** `sa/<namespace>`: its default ServiceAccount; `ns/<namespace>`: a terminating one's cleanup. */
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
    const namespace = key.slice(slash + 1);
    if (key.slice(0, slash) === 'sa') this.defaultServiceAccount(namespace);
    else this.clean(namespace);
  }

  start(): () => void {
    for (const namespace of this.store.list(NAMESPACES)) {
      const name = metaOf(namespace).name!;
      if (metaOf(namespace).deletionTimestamp) this.queue.add(`ns/${name}`);
    }
    return this.store.subscribe((change) => this.onChange(change));
  }

  private onChange(change: StoredChange): void {
    if (change.resource === NAMESPACES) {
      const name = change.name;
      if (change.type === 'ADDED') this.queue.add(`sa/${name}`);
      else if (change.type === 'MODIFIED' && metaOf(change.object).deletionTimestamp) {
        this.queue.add(`ns/${name}`);
      }
      return;
    }
    if (change.type !== 'DELETED' || change.namespace === '') return;
    const namespace = this.store.get(NAMESPACES, '', change.namespace);
    if (namespace && metaOf(namespace).deletionTimestamp) {
      this.queue.add(`ns/${change.namespace}`);
    }
  }

  private defaultServiceAccount(namespace: string): void {
    const ns = this.store.get(NAMESPACES, '', namespace);
    if (!ns || metaOf(ns).deletionTimestamp) return;
    if (this.store.get('serviceaccounts', namespace, 'default')) return;
    const type = this.resources.registry.get('', 'v1', 'serviceaccounts')!;
    try {
      this.resources.create(type, namespace, { metadata: { name: 'default' } }, this.context());
    } catch (err) {
      if (!(
        err instanceof ApiError &&
        (err.code === 409 || err.code === 404 || err.code === 403)
      )) {
        throw err;
      }
    }
  }

  /** Deletes what is left in a terminating namespace; removes the namespace once nothing is. */
  private clean(namespace: string): void {
    const ns = this.store.get(NAMESPACES, '', namespace);
    if (!ns || !metaOf(ns).deletionTimestamp) return;
    const types = new Map(this.resources.registry.storedTypes().map((t) => [t.storage, t]));
    let remaining = 0;
    for (const storage of this.store.resourceNames()) {
      if (storage === NAMESPACES) continue;
      for (const object of this.store.list(storage, namespace)) {
        remaining++;
        const meta = metaOf(object);
        if (meta.deletionTimestamp) continue;
        const type = types.get(storage);
        if (!type) this.store.remove(storage, namespace, meta.name!);
        else this.resources.delete(type, namespace, meta.name!, {}, this.context());
      }
    }
    if (remaining > 0) {
      // Objects deleted at once come back here through their DELETED changes; those waiting on
      // finalizers do when their last one goes.
      return;
    }
    const type = this.resources.registry.get('', 'v1', NAMESPACES)!;
    this.resources.mutate(
      type,
      '',
      namespace,
      (object) => {
        if (isRecord(object['spec'])) object['spec']['finalizers'] = [];
      },
      this.context(),
      'finalize',
    );
  }
}
