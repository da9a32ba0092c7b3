import type { Logger } from '@paddock/common';
import type { ProcessResult, WorkQueue } from '@paddock/kube/work-queue';
import { CRD_CLEANUP_FINALIZER } from '../api/kind-strategies.js';
import type { RequestContext } from '../api/request-context.js';
import type { Resources } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import { crdKinds, crdSpecOf, type SchemaCompiler } from '../registry/crd-kinds.js';
import { groupResource } from '../registry/resource-type.js';
import type { StoredChange, Store } from '../storage/store.js';
import { controllerQueue } from './controller-queue.js';

export const CRDS = 'customresourcedefinitions.apiextensions.k8s.io';

/**
 * Serves the kinds of each CustomResourceDefinition from the moment it is written (so the next
 * request finds them), and on its deletion deletes its custom resources before it goes.
 */
export class CrdController {
  /** Names of definitions being deleted, whose custom resources are to go. */
  readonly queue: WorkQueue;

  constructor(
    private readonly store: Store,
    private readonly resources: Resources,
    private readonly compile: SchemaCompiler,
    private readonly context: () => RequestContext,
    private readonly logger: Logger,
  ) {
    this.queue = controllerQueue((name) => this.cleanup(name), logger);
  }

  start(): () => void {
    for (const crd of this.store.list(CRDS)) {
      this.register(crd);
      if (metaOf(crd).deletionTimestamp) this.scheduleCleanup(crd);
    }
    return this.store.subscribe((change) => this.onChange(change));
  }

  private onChange(change: StoredChange): void {
    if (change.resource !== CRDS) return;
    if (change.type === 'DELETED') {
      this.resources.registry.removeCrd(change.name);
      return;
    }
    this.register(change.object);
    if (metaOf(change.object).deletionTimestamp) this.scheduleCleanup(change.object);
  }

  private register(crd: KubeObject): void {
    const name = metaOf(crd).name!;
    try {
      this.resources.registry.setCrdKinds(name, crdKinds(crd, this.compile));
    } catch (err) {
      this.logger.error({ err, crd: name }, 'cannot serve the kinds of a CustomResourceDefinition');
    }
  }

  private scheduleCleanup(crd: KubeObject): void {
    const name = metaOf(crd).name!;
    this.queue.add(name);
  }

  /** Deletes the custom resources; once none is left, lets the definition go. */
  private cleanup(name: string): ProcessResult | void {
    const crd = this.store.get(CRDS, '', name);
    if (!crd || !metaOf(crd).deletionTimestamp) return;
    const spec = crdSpecOf(crd);
    const storage = groupResource(spec.group, spec.names.plural);
    const type = this.resources.registry.storedTypes().find((t) => t.storage === storage);
    const left = this.store.list(storage);
    for (const object of left) {
      const meta = metaOf(object);
      if (meta.deletionTimestamp) continue;
      if (type) this.resources.delete(type, meta.namespace ?? '', meta.name!, {}, this.context());
      else this.store.remove(storage, meta.namespace ?? '', meta.name!);
    }
    if (this.store.list(storage).length > 0) {
      // Some wait on finalizers: look again shortly.
      return { requeueAfterMs: 200 };
    }
    const crdType = this.resources.registry.get(
      'apiextensions.k8s.io',
      'v1',
      'customresourcedefinitions',
    )!;
    this.resources.mutate(
      crdType,
      '',
      name,
      (object) => {
        const meta = metaOf(object);
        meta.finalizers = (meta.finalizers ?? []).filter((f) => f !== CRD_CLEANUP_FINALIZER);
      },
      this.context(),
    );
  }
}
