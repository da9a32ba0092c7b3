import { API_VERSION } from './api-group.js';

/** The metadata fields Paddock reads and writes on its objects (a subset of Kubernetes' ObjectMeta). */
export interface ObjectMeta {
  name: string;
  /** Absent on cluster-scoped kinds such as Workspace. */
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  finalizers?: string[];
  ownerReferences?: OwnerReference[];
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
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
