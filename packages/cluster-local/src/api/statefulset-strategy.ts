import type { FieldError, KubeObject } from '../contracts.js';
import { isRecord, jsonEqual } from '../objects/object-meta.js';
import { matchesLabelSelector } from '../query/label-selector.js';
import type { KindStrategy } from './kind-strategy.js';

/** The spec fields an update may change (the rest are fixed when the set is created). */
const MUTABLE_FIELDS = [
  'replicas',
  'ordinals',
  'template',
  'updateStrategy',
  'persistentVolumeClaimRetentionPolicy',
  'minReadySeconds',
];

const specOf = (object: KubeObject): Record<string, unknown> =>
  isRecord(object['spec']) ? object['spec'] : (object['spec'] = {});

/** The defaults the API server gives a StatefulSet (apps/v1 SetDefaults_StatefulSet). */
function applyDefaults(object: KubeObject): void {
  const spec = specOf(object);
  spec['replicas'] ??= 1;
  spec['podManagementPolicy'] ??= 'OrderedReady';
  spec['revisionHistoryLimit'] ??= 10;
  if (!isRecord(spec['updateStrategy'])) spec['updateStrategy'] = { type: 'RollingUpdate' };
  const update = spec['updateStrategy'] as Record<string, unknown>;
  update['type'] ??= 'RollingUpdate';
  if (update['type'] === 'RollingUpdate') {
    if (!isRecord(update['rollingUpdate'])) update['rollingUpdate'] = {};
    (update['rollingUpdate'] as Record<string, unknown>)['partition'] ??= 0;
  }
  if (!isRecord(spec['persistentVolumeClaimRetentionPolicy'])) {
    spec['persistentVolumeClaimRetentionPolicy'] = {};
  }
  const retention = spec['persistentVolumeClaimRetentionPolicy'] as Record<string, unknown>;
  retention['whenDeleted'] ??= 'Retain';
  retention['whenScaled'] ??= 'Retain';
  if (Array.isArray(spec['volumeClaimTemplates'])) {
    for (const claim of spec['volumeClaimTemplates']) {
      if (!isRecord(claim)) continue;
      claim['apiVersion'] ??= 'v1';
      claim['kind'] ??= 'PersistentVolumeClaim';
      const claimSpec = isRecord(claim['spec']) ? claim['spec'] : (claim['spec'] = {});
      claimSpec['volumeMode'] ??= 'Filesystem';
    }
  }
}

const required = (field: string): FieldError => ({
  reason: 'FieldValueRequired',
  field,
  message: 'Required value',
});

const invalid = (field: string, value: unknown, message: string): FieldError => ({
  reason: 'FieldValueInvalid',
  field,
  message: `Invalid value: ${JSON.stringify(value)}: ${message}`,
});

const RETENTION = ['Retain', 'Delete'];

function problemsOf(object: KubeObject, old: KubeObject | undefined): FieldError[] {
  const spec = specOf(object);
  const problems: FieldError[] = [];
  const replicas = spec['replicas'];
  if (typeof replicas !== 'number' || !Number.isInteger(replicas) || replicas < 0) {
    problems.push(invalid('spec.replicas', replicas, 'must be greater than or equal to 0'));
  }
  const selector = spec['selector'];
  const matchLabels =
    isRecord(selector) && isRecord(selector['matchLabels']) ? selector['matchLabels'] : undefined;
  if (!matchLabels || Object.keys(matchLabels).length === 0) {
    problems.push(required('spec.selector'));
  }
  const template = isRecord(spec['template']) ? spec['template'] : undefined;
  const templateMeta = template && isRecord(template['metadata']) ? template['metadata'] : {};
  const labels = isRecord(templateMeta['labels']) ? templateMeta['labels'] : {};
  if (matchLabels && !matchesLabelSelector(selector, labels)) {
    problems.push(
      invalid(
        'spec.template.metadata.labels',
        labels,
        '`selector` does not match template `labels`',
      ),
    );
  }
  const containers =
    template && isRecord(template['spec']) ? template['spec']['containers'] : undefined;
  if (!Array.isArray(containers) || containers.length === 0) {
    problems.push(required('spec.template.spec.containers'));
  }
  if (!['OrderedReady', 'Parallel'].includes(String(spec['podManagementPolicy']))) {
    problems.push(
      invalid(
        'spec.podManagementPolicy',
        spec['podManagementPolicy'],
        'supported values: "OrderedReady", "Parallel"',
      ),
    );
  }
  const update = isRecord(spec['updateStrategy']) ? spec['updateStrategy'] : {};
  if (!['RollingUpdate', 'OnDelete'].includes(String(update['type']))) {
    problems.push(
      invalid(
        'spec.updateStrategy.type',
        update['type'],
        'supported values: "OnDelete", "RollingUpdate"',
      ),
    );
  }
  const retention = isRecord(spec['persistentVolumeClaimRetentionPolicy'])
    ? spec['persistentVolumeClaimRetentionPolicy']
    : {};
  for (const when of ['whenDeleted', 'whenScaled']) {
    if (!RETENTION.includes(String(retention[when]))) {
      problems.push(
        invalid(
          `spec.persistentVolumeClaimRetentionPolicy.${when}`,
          retention[when],
          'supported values: "Delete", "Retain"',
        ),
      );
    }
  }
  const claims = Array.isArray(spec['volumeClaimTemplates']) ? spec['volumeClaimTemplates'] : [];
  claims.forEach((claim, i) => {
    const name =
      isRecord(claim) && isRecord(claim['metadata']) ? claim['metadata']['name'] : undefined;
    if (typeof name !== 'string' || name === '') {
      problems.push(required(`spec.volumeClaimTemplates[${i}].metadata.name`));
    }
  });
  if (old) {
    const oldSpec = isRecord(old['spec']) ? old['spec'] : {};
    const fixed = (s: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(s).filter(([k]) => !MUTABLE_FIELDS.includes(k)));
    if (!jsonEqual(fixed(spec), fixed(oldSpec))) {
      problems.push({
        reason: 'FieldValueForbidden',
        field: 'spec',
        message:
          "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
      });
    }
  }
  return problems;
}

/** StatefulSet: Kubernetes' defaults, and the checks the API server makes before storing one. */
export const statefulSets: KindStrategy = {
  generation: (object) => object['spec'],
  prepareForCreate(object) {
    applyDefaults(object);
    delete object['status'];
  },
  prepareForUpdate(object) {
    applyDefaults(object);
  },
  validate: problemsOf,
};
