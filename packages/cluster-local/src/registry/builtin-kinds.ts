import type { KubeObject } from '../contracts.js';
import { textOf, valueAt } from '../objects/json-path.js';
import { AGE_COLUMN, BUILTIN_COLUMNS, NAME_COLUMN } from '../table/columns.js';
import { selectorText } from '../table/label-selector-text.js';
import { eventsV1Conversion } from './event-conversion.js';
import { groupResource, STANDARD_VERBS, STATUS_VERBS, type ResourceType } from './resource-type.js';

interface KindSpec {
  group?: string;
  version?: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  verbs?: string[];
  subresources?: Record<string, string[]>;
  storage?: string;
  stored?: boolean;
  fieldSelectors?: ResourceType['fieldSelectors'];
  allowCreateOnUpdate?: boolean;
  returnDeletedObject?: boolean;
  conversion?: ResourceType['conversion'];
  scale?: ResourceType['scale'];
}

function kind(spec: KindSpec): ResourceType {
  const group = spec.group ?? '';
  return {
    group,
    version: spec.version ?? 'v1',
    kind: spec.kind,
    listKind: `${spec.kind}List`,
    plural: spec.plural,
    singular: spec.kind.toLowerCase(),
    namespaced: spec.namespaced,
    shortNames: spec.shortNames ?? [],
    categories: spec.categories ?? [],
    verbs: spec.verbs ?? STANDARD_VERBS,
    subresources: spec.subresources ?? {},
    storage: spec.storage ?? groupResource(group, spec.plural),
    storedApiVersion: spec.conversion
      ? 'v1'
      : group === ''
        ? 'v1'
        : `${group}/${spec.version ?? 'v1'}`,
    stored: spec.stored ?? true,
    columns: [NAME_COLUMN, ...(BUILTIN_COLUMNS[spec.plural] ?? [AGE_COLUMN])],
    fieldSelectors: spec.fieldSelectors ?? {},
    strategicMerge: true,
    allowUnconditionalUpdate: true,
    allowCreateOnUpdate: spec.allowCreateOnUpdate ?? false,
    returnDeletedObject: spec.returnDeletedObject ?? false,
    ...(spec.conversion ? { conversion: spec.conversion } : {}),
    ...(spec.scale ? { scale: spec.scale } : {}),
  };
}

const field = (path: string) => (object: KubeObject) => {
  const value = valueAt(object, path);
  return value === undefined ? undefined : textOf(value);
};

const EVENT_FIELDS = [
  'kind',
  'namespace',
  'name',
  'uid',
  'apiVersion',
  'resourceVersion',
  'fieldPath',
];

const coreEventSelectors: ResourceType['fieldSelectors'] = {
  ...Object.fromEntries(
    EVENT_FIELDS.map((f) => [`involvedObject.${f}`, field(`involvedObject.${f}`)]),
  ),
  reason: field('reason'),
  reportingComponent: field('reportingComponent'),
  source: field('source.component'),
  type: field('type'),
};

/** Create-only kinds that answer a question instead of storing anything. */
const review = (group: string, kindName: string, plural: string, namespaced = false) =>
  kind({ group, kind: kindName, plural, namespaced, verbs: ['create'], stored: false });

/** The kinds the server knows without any CustomResourceDefinition. */
export function builtinKinds(): ResourceType[] {
  return [
    kind({
      kind: 'Namespace',
      plural: 'namespaces',
      namespaced: false,
      shortNames: ['ns'],
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      subresources: { status: STATUS_VERBS, finalize: ['update'] },
      fieldSelectors: { 'status.phase': field('status.phase') },
      returnDeletedObject: true,
    }),
    kind({
      kind: 'ServiceAccount',
      plural: 'serviceaccounts',
      namespaced: true,
      shortNames: ['sa'],
      subresources: { token: ['create'] },
    }),
    kind({
      kind: 'Pod',
      plural: 'pods',
      namespaced: true,
      shortNames: ['po'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS, log: ['get', 'create'], binding: ['create'] },
      fieldSelectors: Object.fromEntries(
        [
          'spec.nodeName',
          'spec.restartPolicy',
          'spec.schedulerName',
          'spec.serviceAccountName',
          'spec.hostNetwork',
          'status.phase',
          'status.podIP',
          'status.nominatedNodeName',
        ].map((path) => [path, field(path)]),
      ),
      returnDeletedObject: true,
    }),
    kind({
      kind: 'Event',
      plural: 'events',
      namespaced: true,
      shortNames: ['ev'],
      fieldSelectors: coreEventSelectors,
      allowCreateOnUpdate: true,
    }),
    kind({
      group: 'events.k8s.io',
      kind: 'Event',
      plural: 'events',
      namespaced: true,
      shortNames: ['ev'],
      storage: 'events',
      fieldSelectors: {
        ...coreEventSelectors,
        ...Object.fromEntries(
          EVENT_FIELDS.map((f) => [`regarding.${f}`, field(`involvedObject.${f}`)]),
        ),
        reportingController: field('reportingComponent'),
      },
      allowCreateOnUpdate: true,
      conversion: eventsV1Conversion,
    }),
    kind({
      kind: 'Service',
      plural: 'services',
      namespaced: true,
      shortNames: ['svc'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    }),
    kind({ kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'] }),
    // Served and stored, not filled from Services and pods: nothing here gives pods addresses to
    // route to. kubectl's default prune list names them, so `apply --prune` needs them served.
    kind({ kind: 'Endpoints', plural: 'endpoints', namespaced: true, shortNames: ['ep'] }),
    kind({
      group: 'discovery.k8s.io',
      kind: 'EndpointSlice',
      plural: 'endpointslices',
      namespaced: true,
    }),
    kind({
      kind: 'Secret',
      plural: 'secrets',
      namespaced: true,
      fieldSelectors: { type: field('type') },
    }),
    kind({
      kind: 'ResourceQuota',
      plural: 'resourcequotas',
      namespaced: true,
      shortNames: ['quota'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({ kind: 'LimitRange', plural: 'limitranges', namespaced: true, shortNames: ['limits'] }),
    // Stored records only, as pods are: nothing here schedules or runs them, but manifests that
    // hold them (the deploy/ base) apply as they would to a real cluster.
    kind({
      kind: 'PersistentVolumeClaim',
      plural: 'persistentvolumeclaims',
      namespaced: true,
      shortNames: ['pvc'],
      subresources: { status: STATUS_VERBS },
    }),
    // The rest of kubectl's default prune list: stored records, as Deployments are.
    kind({
      kind: 'PersistentVolume',
      plural: 'persistentvolumes',
      namespaced: false,
      shortNames: ['pv'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      kind: 'ReplicationController',
      plural: 'replicationcontrollers',
      namespaced: true,
      shortNames: ['rc'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'batch',
      kind: 'Job',
      plural: 'jobs',
      namespaced: true,
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'batch',
      kind: 'CronJob',
      plural: 'cronjobs',
      namespaced: true,
      shortNames: ['cj'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'networking.k8s.io',
      kind: 'Ingress',
      plural: 'ingresses',
      namespaced: true,
      shortNames: ['ing'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'apps',
      kind: 'DaemonSet',
      plural: 'daemonsets',
      namespaced: true,
      shortNames: ['ds'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'apps',
      kind: 'ReplicaSet',
      plural: 'replicasets',
      namespaced: true,
      shortNames: ['rs'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'apps',
      kind: 'Deployment',
      plural: 'deployments',
      namespaced: true,
      shortNames: ['deploy'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS },
    }),
    kind({
      group: 'apps',
      kind: 'StatefulSet',
      plural: 'statefulsets',
      namespaced: true,
      shortNames: ['sts'],
      categories: ['all'],
      subresources: { status: STATUS_VERBS, scale: STATUS_VERBS },
      scale: {
        specReplicasPath: '.spec.replicas',
        statusReplicasPath: '.status.replicas',
        selectorOf: (o) => selectorText(valueAt(o, 'spec.selector')),
      },
    }),
    kind({
      group: 'policy',
      kind: 'PodDisruptionBudget',
      plural: 'poddisruptionbudgets',
      namespaced: true,
      shortNames: ['pdb'],
      subresources: { status: STATUS_VERBS },
    }),
    ...(
      [
        ['Role', 'roles', true],
        ['RoleBinding', 'rolebindings', true],
        ['ClusterRole', 'clusterroles', false],
        ['ClusterRoleBinding', 'clusterrolebindings', false],
      ] as const
    ).map(([kindName, plural, namespaced]) =>
      kind({ group: 'rbac.authorization.k8s.io', kind: kindName, plural, namespaced }),
    ),
    kind({
      group: 'networking.k8s.io',
      kind: 'NetworkPolicy',
      plural: 'networkpolicies',
      namespaced: true,
      shortNames: ['netpol'],
    }),
    kind({ group: 'coordination.k8s.io', kind: 'Lease', plural: 'leases', namespaced: true }),
    kind({
      group: 'apiextensions.k8s.io',
      kind: 'CustomResourceDefinition',
      plural: 'customresourcedefinitions',
      namespaced: false,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      subresources: { status: STATUS_VERBS },
      returnDeletedObject: true,
    }),
    review('authorization.k8s.io', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews'),
    review('authorization.k8s.io', 'SelfSubjectRulesReview', 'selfsubjectrulesreviews'),
    review('authorization.k8s.io', 'SubjectAccessReview', 'subjectaccessreviews'),
    review('authorization.k8s.io', 'LocalSubjectAccessReview', 'localsubjectaccessreviews', true),
    review('authentication.k8s.io', 'TokenReview', 'tokenreviews'),
    review('authentication.k8s.io', 'SelfSubjectReview', 'selfsubjectreviews'),
  ];
}
