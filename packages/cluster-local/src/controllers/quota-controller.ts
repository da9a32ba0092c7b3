import type { Logger } from '@paddock/common';
import type { WorkQueue } from '@paddock/kube/work-queue';
import { ApiError } from '../api/api-error.js';
import type { RequestContext } from '../api/request-context.js';
import type { Resources } from '../api/resources.js';
import type { KubeObject } from '../contracts.js';
import { isRecord, jsonEqual, metaOf } from '../objects/object-meta.js';
import { quotaUsed } from '../quota/namespace-usage.js';
import { hardOf, RESOURCE_QUOTAS } from '../quota/quota-admission.js';
import { resourceListJson } from '../quota/resource-list.js';
import type { StoredChange, Store } from '../storage/store.js';
import { controllerQueue } from './controller-queue.js';

/** A quota's status as the controller keeps it: its hard limits and what the namespace uses. Pure. */
export function quotaStatus(
  quota: KubeObject,
  objectsOf: (storage: string, namespace: string) => KubeObject[],
  now: number,
): { hard: Record<string, string>; used: Record<string, string> } {
  const hard = hardOf(quota);
  const namespace = metaOf(quota).namespace ?? '';
  const used = quotaUsed(quota, [...hard.keys()], namespace, objectsOf, now);
  return { hard: resourceListJson(hard), used: resourceListJson(used) };
}

/**
 * kube-controller-manager's resource quota controller: every ResourceQuota's status.hard and
 * status.used follow its spec and the objects of its namespace, recomputed when the quota changes
 * and when anything in a namespace with quotas comes, changes or goes.
 */
export class QuotaController {
  /** Namespaces whose quotas to recompute. */
  readonly queue: WorkQueue;

  constructor(
    private readonly store: Store,
    private readonly resources: Resources,
    private readonly context: () => RequestContext,
    logger: Logger,
  ) {
    this.queue = controllerQueue((namespace) => this.sync(namespace), logger);
  }

  start(): () => void {
    const namespaces = new Set(
      this.store.list(RESOURCE_QUOTAS).map((quota) => metaOf(quota).namespace ?? ''),
    );
    for (const namespace of namespaces) this.queue.add(namespace);
    return this.store.subscribe((change) => this.onChange(change));
  }

  private onChange(change: StoredChange): void {
    if (change.namespace === '') return;
    if (
      change.resource === RESOURCE_QUOTAS ||
      this.store.list(RESOURCE_QUOTAS, change.namespace).length > 0
    ) {
      this.queue.add(change.namespace);
    }
  }

  private sync(namespace: string): void {
    const type = this.resources.registry.get('', 'v1', RESOURCE_QUOTAS)!;
    const context = this.context();
    const objectsOf = (storage: string, ns: string) => this.store.list(storage, ns);
    for (const quota of this.store.list(RESOURCE_QUOTAS, namespace)) {
      const meta = metaOf(quota);
      if (meta.deletionTimestamp) continue;
      const status = quotaStatus(quota, objectsOf, context.now);
      const current = isRecord(quota['status']) ? quota['status'] : {};
      if (
        jsonEqual(current['hard'] ?? {}, status.hard) &&
        jsonEqual(current['used'] ?? {}, status.used)
      ) {
        continue;
      }
      try {
        this.resources.mutate(
          type,
          namespace,
          meta.name!,
          (object) => {
            object['status'] = status;
          },
          context,
          'status',
        );
      } catch (err) {
        // Deleted meanwhile: nothing to keep.
        if (!(err instanceof ApiError && err.code === 404)) throw err;
      }
    }
  }
}
