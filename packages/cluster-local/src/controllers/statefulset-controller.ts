import type { Logger } from '@paddock/common';
import type { WorkQueue } from '@paddock/kube/work-queue';
import { ApiError } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import type { Resources } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import { metaOf } from '../objects/object-meta.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { StoredChange, Store } from '../storage/store.js';
import {
  planStatefulSet,
  statefulSetSpecOf,
  type StatefulSetAction,
} from '../workloads/statefulset-plan.js';
import { controllerQueue } from './controller-queue.js';

export const STATEFULSETS = 'statefulsets.apps';
const PODS = 'pods';
const CLAIMS = 'persistentvolumeclaims';

/**
 * kube-controller-manager's StatefulSet controller: on every change of a StatefulSet, or of a pod
 * or claim in its namespace, it takes the steps planStatefulSet decides. Pods are records only:
 * whoever runs them writes their status, and a pod's Ready condition moves the set on.
 */
export class StatefulSetController {
  /** StatefulSets to sync, as `<namespace>/<name>`. */
  readonly queue: WorkQueue;

  constructor(
    private readonly store: Store,
    private readonly resources: Resources,
    private readonly context: () => RequestContext,
    private readonly logger: Logger,
  ) {
    this.queue = controllerQueue((key) => {
      const slash = key.indexOf('/');
      this.sync(key.slice(0, slash), key.slice(slash + 1));
    }, logger);
  }

  start(): () => void {
    for (const set of this.store.list(STATEFULSETS)) this.enqueue(set);
    return this.store.subscribe((change) => this.onChange(change));
  }

  private onChange(change: StoredChange): void {
    if (change.resource === STATEFULSETS) {
      if (change.type !== 'DELETED') this.enqueue(change.object);
      return;
    }
    if (change.resource === PODS) {
      for (const ref of metaOf(change.object).ownerReferences ?? []) {
        if (ref.kind === 'StatefulSet' && ref.controller) {
          this.enqueueName(change.namespace, ref.name);
        }
      }
      return;
    }
    if (change.resource === CLAIMS) {
      for (const set of this.store.list(STATEFULSETS, change.namespace)) this.enqueue(set);
    }
  }

  private enqueue(set: KubeObject): void {
    const meta = metaOf(set);
    this.enqueueName(meta.namespace ?? '', meta.name ?? '');
  }

  private enqueueName(namespace: string, name: string): void {
    this.queue.add(`${namespace}/${name}`);
  }

  private sync(namespace: string, name: string): void {
    const object = this.store.get(STATEFULSETS, namespace, name);
    // A set being deleted is left to the garbage collector, as Kubernetes does.
    if (!object || metaOf(object).deletionTimestamp) return;
    const set = statefulSetSpecOf(object);
    const pods = this.store
      .list(PODS, namespace)
      .filter((pod) =>
        (metaOf(pod).ownerReferences ?? []).some((r) => r.controller && r.uid === set.uid),
      );
    const claims = this.store.list(CLAIMS, namespace);
    for (const action of planStatefulSet(set, pods, claims)) {
      this.take(namespace, name, action);
    }
  }

  private take(namespace: string, name: string, action: StatefulSetAction): void {
    const context = this.context();
    const pods = this.type('', PODS);
    const claims = this.type('', CLAIMS);
    try {
      switch (action.type) {
        case 'createClaim':
          this.resources.create(claims, namespace, action.claim, context);
          break;
        case 'setClaimOwners':
          this.resources.mutate(
            claims,
            namespace,
            action.name,
            (claim) => {
              const meta = metaOf(claim);
              if (action.ownerReferences.length > 0) meta.ownerReferences = action.ownerReferences;
              else delete meta.ownerReferences;
            },
            context,
          );
          break;
        case 'deleteClaim':
          this.resources.delete(claims, namespace, action.name, {}, context);
          break;
        case 'createPod':
          this.resources.create(pods, namespace, action.pod, context);
          break;
        case 'deletePod':
          this.resources.delete(pods, namespace, action.name, {}, context);
          break;
        case 'writeStatus':
          this.resources.mutate(
            this.type('apps', 'statefulsets'),
            namespace,
            name,
            (set) => {
              set['status'] = action.status;
            },
            context,
            'status',
          );
          break;
      }
    } catch (err) {
      // Already there or already gone: the change that caused it queues the set again.
      if (err instanceof ApiError && (err.code === 404 || err.code === 409)) return;
      this.logger.error(
        { err, statefulSet: `${namespace}/${name}`, action: action.type },
        'statefulset step failed',
      );
      throw err;
    }
  }

  private type(group: string, plural: string): ResourceType {
    return this.resources.registry.get(group, 'v1', plural)!;
  }
}
