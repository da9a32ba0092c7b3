import { createHash } from 'node:crypto';
import type { KubeObject } from '../contracts.js';
import { copy, isRecord, jsonEqual, metaOf, type OwnerReference } from '../objects/object-meta.js';

/** The label naming a StatefulSet pod (kube-controller-manager sets it for per-pod Services). */
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** The label naming the template revision a pod was made from. */
export const REVISION_LABEL = 'controller-revision-hash';
/** The label holding a pod's ordinal (Kubernetes 1.28 and later). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** How many hex digits of the template's SHA-256 name a revision. */
export const REVISION_HASH_LENGTH = 10;

export type RetentionChoice = 'Retain' | 'Delete';

/** What a StatefulSet asks for, with Kubernetes' defaults applied. */
export interface StatefulSetSpec {
  name: string;
  namespace: string;
  uid: string;
  generation: number;
  replicas: number;
  serviceName: string;
  selectorLabels: Record<string, string>;
  template: Record<string, unknown>;
  volumeClaimTemplates: KubeObject[];
  podManagementPolicy: 'OrderedReady' | 'Parallel';
  /** RollingUpdate replaces pods; OnDelete waits for someone else to delete them. */
  updateStrategy: 'RollingUpdate' | 'OnDelete';
  partition: number;
  whenDeleted: RetentionChoice;
  whenScaled: RetentionChoice;
  status: Record<string, unknown>;
}

/** One step the controller takes; the plan lists them in the order they are to be taken. */
export type StatefulSetAction =
  | { type: 'createClaim'; claim: KubeObject }
  | { type: 'setClaimOwners'; name: string; ownerReferences: OwnerReference[] }
  | { type: 'deleteClaim'; name: string }
  | { type: 'createPod'; pod: KubeObject }
  | { type: 'deletePod'; name: string }
  | { type: 'writeStatus'; status: Record<string, unknown> };

const str = (value: unknown, fallback: string): string =>
  typeof value === 'string' ? value : fallback;
const stringMap = (value: unknown): Record<string, string> =>
  isRecord(value)
    ? Object.fromEntries(
        Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
      )
    : {};

/** Reads a stored StatefulSet, filling in what Kubernetes defaults. */
export function statefulSetSpecOf(object: KubeObject): StatefulSetSpec {
  const meta = metaOf(object);
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const selector = isRecord(spec['selector']) ? spec['selector'] : {};
  const update = isRecord(spec['updateStrategy']) ? spec['updateStrategy'] : {};
  const rolling = isRecord(update['rollingUpdate']) ? update['rollingUpdate'] : {};
  const retention = isRecord(spec['persistentVolumeClaimRetentionPolicy'])
    ? spec['persistentVolumeClaimRetentionPolicy']
    : {};
  return {
    name: meta.name ?? '',
    namespace: meta.namespace ?? '',
    uid: meta.uid ?? '',
    generation: meta.generation ?? 1,
    replicas: typeof spec['replicas'] === 'number' ? spec['replicas'] : 1,
    serviceName: str(spec['serviceName'], ''),
    selectorLabels: stringMap(selector['matchLabels']),
    template: isRecord(spec['template']) ? spec['template'] : {},
    volumeClaimTemplates: Array.isArray(spec['volumeClaimTemplates'])
      ? spec['volumeClaimTemplates'].filter(isRecord)
      : [],
    podManagementPolicy: spec['podManagementPolicy'] === 'Parallel' ? 'Parallel' : 'OrderedReady',
    updateStrategy: update['type'] === 'OnDelete' ? 'OnDelete' : 'RollingUpdate',
    partition: typeof rolling['partition'] === 'number' ? rolling['partition'] : 0,
    whenDeleted: retention['whenDeleted'] === 'Delete' ? 'Delete' : 'Retain',
    whenScaled: retention['whenScaled'] === 'Delete' ? 'Delete' : 'Retain',
    status: isRecord(object['status']) ? object['status'] : {},
  };
}

/**
 * The revision of a pod template, as `<set>-<hash>`: the first REVISION_HASH_LENGTH hex digits of
 * the SHA-256 of the template's JSON with its keys sorted, so equal templates give equal revisions
 * whatever order their fields were written in.
 */
export function revisionOf(set: Pick<StatefulSetSpec, 'name' | 'template'>): string {
  const hash = createHash('sha256').update(canonicalJson(set.template)).digest('hex');
  return `${set.name}-${hash.slice(0, REVISION_HASH_LENGTH)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isRecord(value)) {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The ordinal a pod name `<set>-<n>` carries, or undefined when it is not one of the set's. */
export function ordinalOf(setName: string, podName: string): number | undefined {
  if (!podName.startsWith(`${setName}-`)) return undefined;
  const rest = podName.slice(setName.length + 1);
  return /^(0|[1-9][0-9]*)$/.test(rest) ? Number(rest) : undefined;
}

export function claimName(template: KubeObject, setName: string, ordinal: number): string {
  return `${metaOf(template).name ?? ''}-${setName}-${ordinal}`;
}

/** Running with its Ready condition True, as the kubelet reports it. */
export function isRunningAndReady(pod: KubeObject): boolean {
  const status = isRecord(pod['status']) ? pod['status'] : {};
  if (status['phase'] !== 'Running') return false;
  const conditions = Array.isArray(status['conditions']) ? status['conditions'] : [];
  return conditions.some((c) => isRecord(c) && c['type'] === 'Ready' && c['status'] === 'True');
}

const isTerminating = (pod: KubeObject) => metaOf(pod).deletionTimestamp !== undefined;
const isFailed = (pod: KubeObject) =>
  isRecord(pod['status']) &&
  (pod['status']['phase'] === 'Failed' || pod['status']['phase'] === 'Succeeded');
const revisionLabel = (pod: KubeObject) => metaOf(pod).labels?.[REVISION_LABEL];

function ownerOf(set: StatefulSetSpec): OwnerReference {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    name: set.name,
    uid: set.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The pod of one ordinal, from the template: labels, owner, hostname and claims. */
export function podFor(set: StatefulSetSpec, ordinal: number, revision: string): KubeObject {
  const name = `${set.name}-${ordinal}`;
  const template = copy(set.template);
  const templateMeta = isRecord(template['metadata']) ? template['metadata'] : {};
  const spec = isRecord(template['spec']) ? template['spec'] : {};
  const claims = set.volumeClaimTemplates.map((t) => ({
    name: metaOf(t).name ?? '',
    persistentVolumeClaim: { claimName: claimName(t, set.name, ordinal) },
  }));
  const claimed = new Set(claims.map((c) => c.name));
  const volumes: unknown[] = (Array.isArray(spec['volumes']) ? spec['volumes'] : []).filter(
    (v) => !(isRecord(v) && claimed.has(str(v['name'], ''))),
  );
  const annotations = stringMap(templateMeta['annotations']);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: set.namespace,
      labels: {
        ...stringMap(templateMeta['labels']),
        [POD_NAME_LABEL]: name,
        [REVISION_LABEL]: revision,
        [POD_INDEX_LABEL]: String(ordinal),
      },
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ownerReferences: [ownerOf(set)],
    },
    spec: {
      ...spec,
      hostname: name,
      ...(set.serviceName ? { subdomain: set.serviceName } : {}),
      ...(volumes.length + claims.length > 0 ? { volumes: [...volumes, ...claims] } : {}),
    },
  };
}

/** The owner references a claim of a live ordinal should carry under the retention policy. */
function claimOwners(set: StatefulSetSpec, claim: KubeObject | undefined): OwnerReference[] {
  const others = (claim ? (metaOf(claim).ownerReferences ?? []) : []).filter(
    (r) => r.uid !== set.uid,
  );
  return set.whenDeleted === 'Delete' ? [...others, ownerOf(set)] : others;
}

export function claimFor(set: StatefulSetSpec, template: KubeObject, ordinal: number): KubeObject {
  const templateMeta = metaOf(template);
  const owners = claimOwners(set, undefined);
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: {
      name: claimName(template, set.name, ordinal),
      namespace: set.namespace,
      labels: { ...(templateMeta.labels ?? {}), ...set.selectorLabels },
      ...(templateMeta.annotations ? { annotations: templateMeta.annotations } : {}),
      ...(owners.length > 0 ? { ownerReferences: owners } : {}),
    },
    spec: copy(isRecord(template['spec']) ? template['spec'] : {}),
  };
}

/**
 * What kube-controller-manager's StatefulSet controller would do next, given the set, the pods it
 * controls and the claims in its namespace: create the claims then the pod of each missing ordinal
 * (OrderedReady: only when every lower ordinal is Running and Ready, one at a time; Parallel: all
 * at once), delete failed pods so they are made again, delete ordinals at or above `replicas` from
 * the highest (with their claims when whenScaled is Delete), replace pods of an older revision from
 * the highest ordinal down to the partition, one at a time and only while the others are ready, and
 * write the status when it differs from the stored one.
 */
export function planStatefulSet(
  set: StatefulSetSpec,
  pods: KubeObject[],
  claims: KubeObject[],
): StatefulSetAction[] {
  const actions: StatefulSetAction[] = [];
  const updateRevision = revisionOf(set);
  const byOrdinal = new Map<number, KubeObject>();
  for (const pod of pods) {
    const ordinal = ordinalOf(set.name, metaOf(pod).name ?? '');
    if (ordinal !== undefined) byOrdinal.set(ordinal, pod);
  }
  const claimsByName = new Map(claims.map((c) => [metaOf(c).name ?? '', c]));
  const ordered = set.podManagementPolicy === 'OrderedReady';

  // The ordinals that stay: claims first (created or given the owners the policy asks for).
  for (let ordinal = 0; ordinal < set.replicas; ordinal++) {
    for (const template of set.volumeClaimTemplates) {
      const name = claimName(template, set.name, ordinal);
      const claim = claimsByName.get(name);
      if (!claim) {
        if (!byOrdinal.has(ordinal)) continue; // made just before its pod, below
        actions.push({ type: 'createClaim', claim: claimFor(set, template, ordinal) });
        continue;
      }
      const owners = claimOwners(set, claim);
      if (!jsonEqual(owners, metaOf(claim).ownerReferences ?? [])) {
        actions.push({ type: 'setClaimOwners', name, ownerReferences: owners });
      }
    }
  }

  let waiting = false;
  for (let ordinal = 0; ordinal < set.replicas && !waiting; ordinal++) {
    const pod = byOrdinal.get(ordinal);
    if (pod && isFailed(pod) && !isTerminating(pod)) {
      actions.push({ type: 'deletePod', name: metaOf(pod).name! });
      if (ordered) waiting = true;
      continue;
    }
    if (!pod) {
      for (const template of set.volumeClaimTemplates) {
        if (!claimsByName.has(claimName(template, set.name, ordinal))) {
          actions.push({ type: 'createClaim', claim: claimFor(set, template, ordinal) });
        }
      }
      actions.push({ type: 'createPod', pod: podFor(set, ordinal, updateRevision) });
      if (ordered) waiting = true;
      continue;
    }
    if (ordered && (isTerminating(pod) || !isRunningAndReady(pod))) waiting = true;
  }

  // Condemned ordinals, highest first.
  const condemned = [...byOrdinal.keys()].filter((o) => o >= set.replicas).sort((a, b) => b - a);
  if (!waiting) {
    for (const ordinal of condemned) {
      const pod = byOrdinal.get(ordinal)!;
      if (isTerminating(pod)) {
        if (ordered) break;
        continue;
      }
      actions.push({ type: 'deletePod', name: metaOf(pod).name! });
      if (set.whenScaled === 'Delete') {
        for (const template of set.volumeClaimTemplates) {
          const name = claimName(template, set.name, ordinal);
          if (claimsByName.has(name)) actions.push({ type: 'deleteClaim', name });
        }
      }
      if (ordered) {
        waiting = true;
        break;
      }
    }
  }

  // Rolling update: the highest ordinal of an older revision goes, once everything else is ready.
  if (!waiting && condemned.length === 0 && set.updateStrategy === 'RollingUpdate') {
    for (let ordinal = set.replicas - 1; ordinal >= set.partition; ordinal--) {
      const pod = byOrdinal.get(ordinal);
      if (!pod) break;
      if (revisionLabel(pod) !== updateRevision && !isTerminating(pod)) {
        actions.push({ type: 'deletePod', name: metaOf(pod).name! });
        break;
      }
      if (!isRunningAndReady(pod)) break;
    }
  }

  const status = statusOf(set, [...byOrdinal.values()], updateRevision);
  if (!jsonEqual(status, set.status)) actions.push({ type: 'writeStatus', status });
  return actions;
}

/** The status the pods give, with currentRevision moving to updateRevision once all are updated and ready. */
export function statusOf(
  set: StatefulSetSpec,
  pods: KubeObject[],
  updateRevision: string,
): Record<string, unknown> {
  const live = pods.filter((p) => !isTerminating(p));
  const ready = live.filter(isRunningAndReady).length;
  const updated = live.filter((p) => revisionLabel(p) === updateRevision).length;
  let currentRevision = str(set.status['currentRevision'], updateRevision);
  if (updated === set.replicas && ready === set.replicas && live.length === set.replicas) {
    currentRevision = updateRevision;
  }
  const current = live.filter((p) => revisionLabel(p) === currentRevision).length;
  return {
    observedGeneration: set.generation,
    replicas: live.length,
    readyReplicas: ready,
    currentReplicas: current,
    updatedReplicas: updated,
    availableReplicas: ready,
    currentRevision,
    updateRevision,
    collisionCount:
      typeof set.status['collisionCount'] === 'number' ? set.status['collisionCount'] : 0,
  };
}
