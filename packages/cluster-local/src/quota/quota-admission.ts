import type { AdmissionCheck, AdmissionRequest } from '../api/resources.js';
import { errors } from '../api/api-error.js';
import type { KubeObject } from '../contracts.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import { evaluatorFor, podConstraintProblem } from './evaluators.js';
import {
  addLists,
  exceededNames,
  listText,
  maskList,
  parseResourceList,
  subtractListsAtLeastZero,
  withoutZeros,
  type ResourceList,
} from './resource-list.js';
import { quotaCovers } from './scopes.js';

export const RESOURCE_QUOTAS = 'resourcequotas';

/** What the admission reads: the namespace's quotas and the usage already in it. */
export interface QuotaUsageSource {
  /** The ResourceQuotas of a namespace, in the order they are checked (by name). */
  quotas(namespace: string): KubeObject[];
  /** What the objects of a resource in a namespace covered by the quota consume now. */
  used(quota: KubeObject, storage: string): ResourceList;
  now(): number;
}

/** One write, as the quota decision sees it. */
export interface QuotaRequest {
  operation: 'CREATE' | 'UPDATE';
  storage: string;
  object: KubeObject;
  old?: KubeObject;
}

/** A quota's limits: spec.hard (the status copy lags behind it by a controller's turn). */
export function hardOf(quota: KubeObject): ResourceList {
  return parseResourceList(isRecord(quota['spec']) ? quota['spec']['hard'] : undefined);
}

/**
 * Why the write would break a quota, in kube-apiserver's words (without the `<resource> "<name>" is
 * forbidden: ` it prefixes), or undefined when every quota of the namespace allows it. Pure.
 */
export function quotaRefusal(request: QuotaRequest, source: QuotaUsageSource): string | undefined {
  const evaluator = evaluatorFor(request.storage);
  if (!evaluator.handles(request.operation)) return undefined;
  const namespace = metaOf(request.object).namespace ?? '';
  const quotas = source.quotas(namespace).filter((quota) => !metaOf(quota).deletionTimestamp);
  const now = source.now();
  for (const quota of quotas) {
    if (!quotaCovers(quota, request.storage, request.object)) continue;
    const hard = hardOf(quota);
    const limited = [...hard.keys()].filter((name) => evaluator.matches(name));
    if (limited.length === 0) continue;
    const name = metaOf(quota).name ?? '';
    if (request.storage === 'pods') {
      const problem = podConstraintProblem(request.object, limited);
      if (problem) return `failed quota: ${name}: ${problem}`;
    }
    let delta = evaluator.usage(request.object, now);
    // An update is charged for what it adds, when the old object was charged under this quota.
    if (request.old && quotaCovers(quota, request.storage, request.old)) {
      delta = subtractListsAtLeastZero(delta, evaluator.usage(request.old, now));
    }
    const requested = withoutZeros(maskList(delta, limited));
    if (requested.size === 0) continue;
    const used = maskList(source.used(quota, request.storage), requested.keys());
    const exceeded = exceededNames(addLists(used, requested), hard);
    if (exceeded.length > 0) {
      return `exceeded quota: ${name}, requested: ${listText(maskList(requested, exceeded))}, used: ${listText(maskList(used, exceeded))}, limited: ${listText(maskList(hard, exceeded))}`;
    }
  }
  return undefined;
}

/**
 * kube-apiserver's ResourceQuota admission: a create (or an update that grows a Service's or a
 * claim's usage) that would take a namespace past a quota's hard limits is refused with 403.
 * Usage is read from the store in the same synchronous call that writes the object, so two
 * creates can never both take the last unit.
 */
export function resourceQuotaAdmission(source: QuotaUsageSource): AdmissionCheck {
  return (request: AdmissionRequest) => {
    if (!request.type.namespaced || request.subresource) return;
    const refusal = quotaRefusal(
      {
        operation: request.operation,
        storage: request.type.storage,
        object: request.object,
        ...(request.old ? { old: request.old } : {}),
      },
      source,
    );
    if (refusal === undefined) return;
    const name = metaOf(request.object).name ?? '';
    const qualified = request.type.group
      ? `${request.type.plural}.${request.type.group}`
      : request.type.plural;
    throw errors.forbidden(
      `${qualified} ${JSON.stringify(name)} is forbidden: ${refusal}`,
      request.type,
      name,
    );
  };
}
