import { API_VERSION } from './api-group.js';

/**
 * The fields of Kubernetes' metav1.ObjectMeta that Paddock's programs read and write: the
 * controllers on their objects, and the embedded cluster on every object it stores.
 */
export interface ObjectMeta {
  name: string;
  /** Asks the server to make a unique name from this prefix (on create, when name is empty). */
  generateName?: string;
  /** Absent on cluster-scoped kinds such as Workspace. */
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
  managedFields?: ManagedFieldsEntry[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Which manager owns which fields of an object, as server-side apply records it. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation?: 'Apply' | 'Update';
  apiVersion?: string;
  time?: string;
  fieldsType?: 'FieldsV1';
  fieldsV1?: Record<string, unknown>;
  subresource?: string;
}

/** The reference by which an object names the AgentRuntime that made it as its controlling owner. */
export function agentOwnerReference(
  name: string,
  uid: string,
): OwnerReference & { controller: true; blockOwnerDeletion: true } {
  return {
    apiVersion: API_VERSION,
    kind: 'AgentRuntime',
    name,
    uid,
    controller: true,
    blockOwnerDeletion: true,
  };
}
