import { kubeTime } from '@paddock/kube';
import type { Condition } from '@paddock/kube';

export type { Condition };
export type ConditionStatus = Condition['status'];

/** What a controller decides about one condition; the transition time is derived. */
export interface ConditionUpdate {
  type: string;
  status: ConditionStatus;
  reason: string;
  message: string;
  observedGeneration?: number;
}

export { kubeTime };

/**
 * The conditions with `next` set in place of its type (appended when new). lastTransitionTime moves
 * to `now` only when the status changes, so that an unchanged condition writes nothing new.
 */
export function setCondition(
  conditions: readonly Condition[] | undefined,
  next: ConditionUpdate,
  now: Date,
): Condition[] {
  const list = conditions ?? [];
  const old = list.find((c) => c.type === next.type);
  const condition: Condition = {
    type: next.type,
    status: next.status,
    reason: next.reason,
    message: next.message,
    lastTransitionTime:
      old !== undefined && old.status === next.status && old.lastTransitionTime !== undefined
        ? old.lastTransitionTime
        : kubeTime(now),
    ...(next.observedGeneration === undefined
      ? {}
      : { observedGeneration: next.observedGeneration }),
  };
  return old === undefined
    ? [...list, condition]
    : list.map((c) => (c.type === next.type ? condition : c));
}

/** The conditions without the given type (e.g. NetworkPolicyReady once isolation is off). */
export function removeCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

export function conditionOf(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((c) => c.type === type);
}

export function isTrue(conditions: readonly Condition[] | undefined, type: string): boolean {
  return conditionOf(conditions, type)?.status === 'True';
}
