import type { KubeObject } from '@paddock/kube';
import {
  AGENT_DATA_SIZE,
  type AgentNetworkPolicyObject,
  type ServiceObject,
  type StatefulSetObject,
} from '../../agentruntime/index.js';
import { covers } from '../workspace/covers.js';
import { spelledAs } from './quantities.js';

/** A StatefulSet, Service or NetworkPolicy as read from the API server. */
export type StoredObject = KubeObject & {
  metadata?: KubeObject['metadata'];
  spec?: Record<string, unknown>;
};

/**
 * The StatefulSet fields an update may change; Kubernetes fixes the others (selector, serviceName,
 * podManagementPolicy, volumeClaimTemplates) when the StatefulSet is created.
 */
export const MUTABLE_STATEFULSET_FIELDS = [
  'replicas',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
] as const;

/** Who controls a stored object: this agent, another owner, or nobody (someone made it by hand). */
export function controlledBy(stored: StoredObject, uid: string): 'agent' | 'other' | 'none' {
  const controller = stored.metadata?.ownerReferences?.find((ref) => ref.controller === true);
  if (controller === undefined) return 'none';
  return controller.uid === uid ? 'agent' : 'other';
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The desired StatefulSet with its amounts spelt as the stored one has them (when equal). */
function withStoredSpelling(desired: StatefulSetObject, stored: StoredObject): StatefulSetObject {
  const storedPod = record(record(stored.spec?.['template'])['spec']);
  const storedContainers = list(storedPod['containers']).map(record);
  const storedVolumes = list(storedPod['volumes']).map(record);
  const pod = desired.spec.template.spec;
  const [first, ...rest] = pod.containers.map((container) => {
    const storedResources = record(
      record(storedContainers.find((c) => c['name'] === container.name))['resources'],
    );
    return {
      ...container,
      resources: {
        requests: spelledAs(container.resources.requests, storedResources['requests']),
        limits: spelledAs(container.resources.limits, storedResources['limits']),
      },
    };
  });
  return withPod(desired, {
    ...pod,
    containers: [first!, ...rest],
    volumes: pod.volumes.map((volume) => {
      if (!('emptyDir' in volume)) return volume;
      const twin = record(storedVolumes.find((v) => v['name'] === volume.name));
      return { ...volume, emptyDir: spelledAs(volume.emptyDir, twin['emptyDir']) };
    }),
  });
}

type PodSpec = StatefulSetObject['spec']['template']['spec'];

/** The StatefulSet with another pod spec, and other fields of its own spec. */
function withPod(
  set: StatefulSetObject,
  pod: PodSpec,
  spec: Partial<StatefulSetObject['spec']> = {},
): StatefulSetObject {
  return { ...set, spec: { ...set.spec, ...spec, template: { ...set.spec.template, spec: pod } } };
}

function mutablePart(statefulSet: StatefulSetObject): Record<string, unknown> {
  return Object.fromEntries(MUTABLE_STATEFULSET_FIELDS.map((key) => [key, statefulSet.spec[key]]));
}

/**
 * What of `mutable` the stored object can hold. A server that drops a field we send (the claim
 * retention policy before Kubernetes 1.27, where its feature gate is off) would otherwise see a
 * difference on every pass: a field the server always defaults is absent only when it dropped it.
 */
function comparable(
  mutable: Record<string, unknown>,
  stored: StoredObject,
): Record<string, unknown> {
  const retention = 'persistentVolumeClaimRetentionPolicy';
  if (stored.spec !== undefined && stored.spec[retention] === undefined) {
    return Object.fromEntries(Object.entries(mutable).filter(([key]) => key !== retention));
  }
  return mutable;
}

/** The metadata we set on an owned object: the agent's labels and the agent as its owner. */
type OurMetadata = StatefulSetObject['metadata'];

/** What of an owned object is ours to compare with the stored one: labels, owner and `spec`. */
function ourPart(metadata: OurMetadata, spec: unknown) {
  return { metadata: { labels: metadata.labels, ownerReferences: metadata.ownerReferences }, spec };
}

/** The stored object with our labels added to its own, our owner, and `spec`. */
function withOurs(
  stored: StoredObject,
  metadata: OurMetadata,
  spec: Record<string, unknown>,
): StoredObject {
  return {
    ...stored,
    metadata: {
      ...stored.metadata,
      labels: { ...stored.metadata?.labels, ...metadata.labels },
      ownerReferences: metadata.ownerReferences,
    },
    spec,
  };
}

/**
 * The StatefulSet to write over the stored one, or undefined when the stored one already holds
 * what the agent asks: its labels, owner and mutable fields. Only what we set is compared, so what
 * the API server defaults never counts as a difference; the fixed fields keep their stored values.
 */
export function statefulSetUpdate(
  stored: StoredObject,
  desired: StatefulSetObject,
): StoredObject | undefined {
  const wanted = withStoredSpelling(desired, stored);
  const mutable = mutablePart(wanted);
  if (covers(stored, ourPart(wanted.metadata, comparable(mutable, stored)))) return undefined;
  return withOurs(stored, wanted.metadata, { ...stored.spec, ...mutable });
}

/**
 * The fixed StatefulSet fields whose stored value differs from the agent's wish (in practice the
 * volumeClaimTemplates, after a change of spec.storage): they keep their stored value.
 */
export function fixedFieldsDiffering(stored: StoredObject, desired: StatefulSetObject): string[] {
  const wanted = desired.spec as unknown as Record<string, unknown>;
  const claims = list(stored.spec?.['volumeClaimTemplates']).map(record);
  return Object.keys(wanted)
    .filter((key) => !(MUTABLE_STATEFULSET_FIELDS as readonly string[]).includes(key))
    .filter((key) => {
      if (key !== 'volumeClaimTemplates') return !covers(stored.spec?.[key], wanted[key]);
      return !desired.spec.volumeClaimTemplates.every((claim, i) => {
        const twin = claims[i];
        if (twin === undefined) return false;
        const spec = record(twin['spec']);
        const storage = record(record(spec['resources'])['requests'])['storage'];
        const requests = spelledAs(claim.spec.resources.requests, { storage });
        return covers(twin, { ...claim, spec: { ...claim.spec, resources: { requests } } });
      });
    });
}

/**
 * The desired StatefulSet for one made before the agent named a provider: Kubernetes cannot add a
 * claim template to a StatefulSet, so the agent loop's data volume is an emptyDir there (its runs
 * are not kept across pod restarts; the AgentRuntime's events say so). Unchanged otherwise.
 */
export function withClaimsOf(
  stored: StoredObject | undefined,
  desired: StatefulSetObject,
): { desired: StatefulSetObject; missing: string[] } {
  if (stored === undefined) return { desired, missing: [] };
  const names = new Set(
    list(stored.spec?.['volumeClaimTemplates']).map((t) => record(record(t)['metadata'])['name']),
  );
  const [first, ...rest] = desired.spec.volumeClaimTemplates;
  const missing = rest.filter((t) => !names.has(t.metadata.name)).map((t) => t.metadata.name);
  if (missing.length === 0) return { desired, missing };
  const pod = desired.spec.template.spec;
  const volumes = [
    ...pod.volumes,
    ...missing.map((name) => ({ name, emptyDir: { sizeLimit: AGENT_DATA_SIZE } })),
  ];
  return {
    missing,
    desired: withPod(
      desired,
      { ...pod, volumes },
      { volumeClaimTemplates: [first, ...rest.filter((t) => names.has(t.metadata.name))] },
    ),
  };
}

/** The Service to write over the stored one, or undefined when it already holds what we set. */
export function serviceUpdate(
  stored: StoredObject,
  desired: ServiceObject,
): StoredObject | undefined {
  // publishNotReadyAddresses is a plain bool in Kubernetes: false is stored as absent.
  const { publishNotReadyAddresses, ...rest } = desired.spec;
  const spec =
    stored.spec?.['publishNotReadyAddresses'] === undefined && !publishNotReadyAddresses
      ? rest
      : desired.spec;
  if (covers(stored, ourPart(desired.metadata, spec))) return undefined;
  // Fields the API server set (clusterIPs, ipFamilies, sessionAffinity) stay.
  return withOurs(stored, desired.metadata, { ...stored.spec, ...desired.spec });
}

/**
 * The NetworkPolicy to write over the stored one, or undefined when it already holds what we set.
 * Its spec is ours alone (the API server adds nothing to it), so it is written whole: rules someone
 * added go, and turning isolation off removes the egress rules.
 */
export function networkPolicyUpdate(
  stored: StoredObject,
  desired: AgentNetworkPolicyObject,
): StoredObject | undefined {
  const egress = stored.spec?.['egress'];
  const extraEgress =
    desired.spec.egress === undefined && Array.isArray(egress) && egress.length > 0;
  if (covers(stored, ourPart(desired.metadata, desired.spec)) && !extraEgress) return undefined;
  return withOurs(stored, desired.metadata, desired.spec);
}
