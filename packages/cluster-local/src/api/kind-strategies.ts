import type { FieldError, KubeObject } from '../contracts.js';
import { isRecord, metaOf } from '../objects/object-meta.js';
import { crdSpecOf } from '../registry/crd-kinds.js';
import { clusterIpsOf, freeClusterIp } from './cluster-ips.js';
import { rbacStrategies } from './rbac-validation.js';
import type { KindStrategy } from './kind-strategy.js';
import { statefulSets } from './statefulset-strategy.js';

export const NAMESPACE_FINALIZER = 'kubernetes';
export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';

/** The labels Kubernetes puts on every namespace so that selectors can name it. */
function labelNamespace(object: KubeObject): void {
  const meta = metaOf(object);
  meta.labels = { ...meta.labels, 'kubernetes.io/metadata.name': meta.name! };
}

const namespaces: KindStrategy = {
  prepareForCreate(object) {
    object['spec'] = { finalizers: [NAMESPACE_FINALIZER] };
    object['status'] = { phase: 'Active' };
    labelNamespace(object);
  },
  prepareForUpdate(object, old) {
    object['spec'] = old['spec'];
    labelNamespace(object);
  },
  waitsOnDelete: (object) => {
    const finalizers = isRecord(object['spec']) ? object['spec']['finalizers'] : undefined;
    return Array.isArray(finalizers) && finalizers.length > 0;
  },
};

const pods: KindStrategy = {
  prepareForCreate(object) {
    const spec = isRecord(object['spec']) ? object['spec'] : (object['spec'] = {});
    spec['serviceAccountName'] ??= 'default';
    spec['restartPolicy'] ??= 'Always';
    object['status'] = { phase: 'Pending', qosClass: 'BestEffort' };
  },
};

/**
 * Services get the lowest cluster IP no stored Service holds. The create that allocates one
 * stores its Service in the same synchronous call, so no other create can take it meanwhile.
 */
const services = (storedServices: () => KubeObject[]): KindStrategy => ({
  prepareForCreate(object) {
    const spec = isRecord(object['spec']) ? object['spec'] : (object['spec'] = {});
    spec['type'] ??= 'ClusterIP';
    if (spec['clusterIP'] === undefined) {
      // Nothing routes to it; kubectl and clients expect one to be set.
      const ip = freeClusterIp(clusterIpsOf(storedServices()));
      if (ip === undefined) throw new Error('no cluster IP is free: the service range is full');
      spec['clusterIP'] = ip;
      spec['clusterIPs'] = [ip];
    }
    if (Array.isArray(spec['ports'])) {
      for (const port of spec['ports']) {
        if (!isRecord(port)) continue;
        port['protocol'] ??= 'TCP';
        port['targetPort'] ??= port['port'];
      }
    }
    object['status'] = { loadBalancer: {} };
  },
  prepareForUpdate(object, old) {
    const spec = isRecord(object['spec']) ? object['spec'] : (object['spec'] = {});
    const oldSpec = isRecord(old['spec']) ? old['spec'] : {};
    spec['clusterIP'] ??= oldSpec['clusterIP'];
    spec['clusterIPs'] ??= oldSpec['clusterIPs'];
  },
});

/** stringData is write-only: merged into data, base64-encoded, as the API server does. */
function foldStringData(object: KubeObject): void {
  object['type'] ??= 'Opaque';
  const stringData = object['stringData'];
  if (!isRecord(stringData)) return;
  const data = isRecord(object['data']) ? { ...object['data'] } : {};
  for (const [key, value] of Object.entries(stringData)) {
    data[key] = Buffer.from(String(value)).toString('base64');
  }
  object['data'] = data;
  delete object['stringData'];
}

const secrets: KindStrategy = {
  prepareForCreate: foldStringData,
  prepareForUpdate: foldStringData,
};

const resourceQuotas: KindStrategy = {
  prepareForCreate(object) {
    object['status'] = {};
  },
};

/** The generation of most kinds that have one follows their spec. */
const specGeneration = (object: KubeObject): unknown => object['spec'];

/** Kinds with a generation and no other strategy, as kube-apiserver's registry gives them one. */
const SPEC_GENERATION: KindStrategy = { generation: specGeneration };

/** Deployments also count annotation changes: the controller copies them onto ReplicaSets. */
const deployments: KindStrategy = {
  generation: (object) => [object['spec'], metaOf(object).annotations],
};

/** An EndpointSlice has no spec: everything outside metadata, and its labels, count. */
const endpointSlices: KindStrategy = {
  generation: (object) => {
    const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = object;
    return [rest, metaOf(object).labels];
  },
};

/** Parses checkStructural's `path: Reason text` problems into StatusCauses. */
function structuralProblem(problem: string): FieldError {
  const at = problem.indexOf(': ');
  const field = at < 0 ? '' : problem.slice(0, at);
  const message = at < 0 ? problem : problem.slice(at + 2);
  const reason = message.startsWith('Required value')
    ? 'FieldValueRequired'
    : message.startsWith('Forbidden')
      ? 'FieldValueForbidden'
      : message.startsWith('Unsupported value')
        ? 'FieldValueNotSupported'
        : 'FieldValueInvalid';
  return { reason, field, message };
}

function crdStrategy(checkStructural: (schema: object, path: string) => string[]): KindStrategy {
  const setStatus = (object: KubeObject, now: string) => {
    const spec = crdSpecOf(object);
    const storage = spec.versions?.find((v) => v.storage)?.name;
    const previous = isRecord(object['status']) ? object['status'] : {};
    const stored = Array.isArray(previous['storedVersions'])
      ? (previous['storedVersions'] as string[])
      : [];
    const condition = (type: string, reason: string, message: string) => ({
      type,
      status: 'True',
      lastTransitionTime: now,
      reason,
      message,
    });
    object['status'] = {
      conditions: [
        condition('NamesAccepted', 'NoConflicts', 'no conflicts found'),
        condition('Established', 'InitialNamesAccepted', 'the initial names have been accepted'),
      ],
      acceptedNames: spec.names,
      storedVersions: storage && !stored.includes(storage) ? [...stored, storage] : stored,
    };
  };
  const defaults = (object: KubeObject) => {
    const spec = crdSpecOf(object);
    if (!isRecord(spec) || !isRecord(spec.names)) return;
    spec.names.singular ??= String(spec.names.kind ?? '').toLowerCase();
    spec.names.listKind ??= `${String(spec.names.kind ?? '')}List`;
    (spec as unknown as Record<string, unknown>)['conversion'] ??= { strategy: 'None' };
  };
  return {
    generation: specGeneration,
    prepareForCreate(object, now) {
      defaults(object);
      const meta = metaOf(object);
      if (!meta.finalizers?.includes(CRD_CLEANUP_FINALIZER)) {
        meta.finalizers = [...(meta.finalizers ?? []), CRD_CLEANUP_FINALIZER];
      }
      setStatus(object, now);
    },
    prepareForUpdate(object, old) {
      defaults(object);
      object['status'] = old['status'];
      const conditions = isRecord(old['status']) ? old['status']['conditions'] : undefined;
      const time =
        Array.isArray(conditions) && isRecord(conditions[0])
          ? String(conditions[0]['lastTransitionTime'])
          : '';
      setStatus(object, time);
    },
    validate(object) {
      const problems: FieldError[] = [];
      const spec = isRecord(object['spec']) ? crdSpecOf(object) : undefined;
      const name = metaOf(object).name ?? '';
      if (!spec)
        return [{ reason: 'FieldValueRequired', field: 'spec', message: 'Required value' }];
      const required = (field: string) =>
        problems.push({ reason: 'FieldValueRequired', field, message: 'Required value' });
      if (!spec.group) required('spec.group');
      if (!spec.names?.plural) required('spec.names.plural');
      if (!spec.names?.kind) required('spec.names.kind');
      if (spec.group && spec.names?.plural && name !== `${spec.names.plural}.${spec.group}`) {
        problems.push({
          reason: 'FieldValueInvalid',
          field: 'metadata.name',
          message: `Invalid value: ${JSON.stringify(name)}: must be spec.names.plural+"."+spec.group`,
        });
      }
      if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
        problems.push({
          reason: 'FieldValueNotSupported',
          field: 'spec.scope',
          message: `Unsupported value: ${JSON.stringify(spec.scope ?? '')}: supported values: "Cluster", "Namespaced"`,
        });
      }
      const versions = Array.isArray(spec.versions) ? spec.versions : [];
      if (versions.length === 0) {
        problems.push({
          reason: 'FieldValueInvalid',
          field: 'spec.versions',
          message: 'Invalid value: null: must have exactly one version marked as storage version',
        });
      } else if (versions.filter((v) => v.storage).length !== 1) {
        problems.push({
          reason: 'FieldValueInvalid',
          field: 'spec.versions',
          message: `Invalid value: ${JSON.stringify(versions)}: must have exactly one version marked as storage version`,
        });
      }
      versions.forEach((version, i) => {
        const schema = version.schema?.openAPIV3Schema;
        const path = `spec.versions[${i}].schema.openAPIV3Schema`;
        if (!schema) {
          problems.push({
            reason: 'FieldValueRequired',
            field: path,
            message: 'Required value: schemas are required',
          });
          return;
        }
        problems.push(...checkStructural(schema, path).map(structuralProblem));
      });
      return problems;
    },
    waitsOnDelete: () => false,
  };
}

/** The strategies of the built-in kinds that need one, by storage. */
export function kindStrategies(options: {
  checkStructural: (schema: object, path: string) => string[];
  /** The Services the cluster stores, whose cluster IPs are taken. */
  storedServices: () => KubeObject[];
}): Record<string, KindStrategy> {
  return {
    namespaces,
    pods,
    services: services(options.storedServices),
    secrets,
    resourcequotas: resourceQuotas,
    'statefulsets.apps': statefulSets,
    'deployments.apps': deployments,
    'replicasets.apps': SPEC_GENERATION,
    'daemonsets.apps': SPEC_GENERATION,
    replicationcontrollers: SPEC_GENERATION,
    'jobs.batch': SPEC_GENERATION,
    'cronjobs.batch': SPEC_GENERATION,
    'ingresses.networking.k8s.io': SPEC_GENERATION,
    'networkpolicies.networking.k8s.io': SPEC_GENERATION,
    'poddisruptionbudgets.policy': SPEC_GENERATION,
    'endpointslices.discovery.k8s.io': endpointSlices,
    'customresourcedefinitions.apiextensions.k8s.io': crdStrategy(options.checkStructural),
    ...rbacStrategies,
  };
}
