import type { CompiledSchema, KubeObject } from '../contracts.js';

/** A column of `kubectl get`'s table (meta.k8s.io/v1 TableColumnDefinition plus how to fill it). */
export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description: string;
  priority: number;
  cell: (object: KubeObject, now: number) => unknown;
}

/** Where a custom resource keeps its replicas (the CRD's scale subresource). */
export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
  /** A built-in kind's selector, as the Scale's status.selector string (StatefulSet: spec.selector). */
  selectorOf?: (object: KubeObject) => string | undefined;
}

/** Translates objects of a kind served at a version that differs from how they are stored. */
export interface Conversion {
  toStored(object: KubeObject): KubeObject;
  fromStored(object: KubeObject): KubeObject;
}

/** Everything the server knows about one resource at one group version. */
export interface ResourceType {
  group: string;
  version: string;
  kind: string;
  listKind: string;
  plural: string;
  singular: string;
  namespaced: boolean;
  shortNames: string[];
  categories: string[];
  verbs: string[];
  /** Subresource name to its verbs, e.g. `{ status: ['get', 'patch', 'update'] }`. */
  subresources: Record<string, string[]>;
  /** The group-qualified plural objects are stored under (shared by every served version). */
  storage: string;
  /** The apiVersion objects are stored with. */
  storedApiVersion: string;
  /** False for kinds that only answer a request, like SelfSubjectAccessReview. */
  stored: boolean;
  columns: PrinterColumn[];
  /** Field selectors beyond metadata.name and metadata.namespace. */
  fieldSelectors: Record<string, (object: KubeObject) => string | undefined>;
  /** Built-in kinds accept strategic merge patches; custom resources do not. */
  strategicMerge: boolean;
  /** Whether an update without metadata.resourceVersion is allowed. */
  allowUnconditionalUpdate: boolean;
  allowCreateOnUpdate: boolean;
  /** DELETE answers with the object rather than a Status. */
  returnDeletedObject: boolean;
  /** A custom resource's compiled schema for this version. */
  schema?: CompiledSchema;
  /** And the schema as its CustomResourceDefinition gives it (for /openapi/v3). */
  openAPIV3Schema?: Record<string, unknown>;
  scale?: ScaleSubresource;
  /** The CustomResourceDefinition that defines the kind. */
  crd?: string;
  conversion?: Conversion;
}

export function apiVersionOf(type: Pick<ResourceType, 'group' | 'version'>): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}

/** `pods`, `workspaces.paddock.dev`: how Kubernetes writes a GroupResource. */
export function groupResource(group: string, plural: string): string {
  return group === '' ? plural : `${plural}.${group}`;
}

export const STANDARD_VERBS = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];

export const STATUS_VERBS = ['get', 'patch', 'update'];
