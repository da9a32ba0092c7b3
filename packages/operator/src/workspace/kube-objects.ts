/**
 * The shapes of the built-in Kubernetes objects the Workspace controller generates, limited to the
 * fields it sets. They are plain JSON, ready to send to the API server.
 */

export interface Metadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface NamespaceObject {
  apiVersion: 'v1';
  kind: 'Namespace';
  metadata: Metadata;
}

export interface ServiceAccountObject {
  apiVersion: 'v1';
  kind: 'ServiceAccount';
  metadata: Metadata & { namespace: string };
  automountServiceAccountToken: boolean;
}

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

export interface ClusterRoleObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'ClusterRole';
  metadata: Metadata;
  rules: PolicyRule[];
}

export type Subject =
  | { kind: 'User' | 'Group'; apiGroup: 'rbac.authorization.k8s.io'; name: string }
  | { kind: 'ServiceAccount'; name: string; namespace: string };

export interface RoleBindingObject {
  apiVersion: 'rbac.authorization.k8s.io/v1';
  kind: 'RoleBinding';
  metadata: Metadata & { namespace: string };
  roleRef: { apiGroup: 'rbac.authorization.k8s.io'; kind: 'ClusterRole'; name: string };
  subjects: Subject[];
}

export interface ResourceQuotaObject {
  apiVersion: 'v1';
  kind: 'ResourceQuota';
  metadata: Metadata & { namespace: string };
  spec: { hard: Record<string, string> };
}

export interface LabelSelectorRequirement {
  key: string;
  operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface NetworkPolicyPeer {
  namespaceSelector?: LabelSelector;
  podSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicyPort {
  protocol: 'TCP' | 'UDP' | 'SCTP';
  port?: number;
}

export interface NetworkPolicyIngressRule {
  from?: NetworkPolicyPeer[];
  ports?: NetworkPolicyPort[];
}

export interface NetworkPolicyEgressRule {
  to?: NetworkPolicyPeer[];
  ports?: NetworkPolicyPort[];
}

export interface NetworkPolicyObject {
  apiVersion: 'networking.k8s.io/v1';
  kind: 'NetworkPolicy';
  metadata: Metadata & { namespace: string };
  spec: {
    podSelector: LabelSelector;
    policyTypes: ['Ingress', 'Egress'];
    ingress: NetworkPolicyIngressRule[];
    egress: NetworkPolicyEgressRule[];
  };
}
