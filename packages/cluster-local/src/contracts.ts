/**
 * The seams between the embedded API server's parts: the server (storage, REST, watch) asks the
 * authenticator who a request is, the authorizer whether RBAC allows it, and a compiled custom
 * resource definition whether an object is valid. Objects are plain Kubernetes JSON.
 */

/** A Kubernetes object as JSON. */
export type KubeObject = Record<string, unknown> & {
  apiVersion?: string;
  kind?: string;
  metadata?: Record<string, unknown>;
};

/** Who made a request, as Kubernetes' authenticators report it. */
export interface UserInfo {
  /** `system:serviceaccount:<namespace>:<name>` for ServiceAccount tokens, `admin` for the admin token. */
  username: string;
  uid?: string;
  /** For ServiceAccounts: `system:serviceaccounts`, `system:serviceaccounts:<namespace>`, `system:authenticated`. */
  groups: string[];
  /** Further attributes an authenticator (or an impersonating caller) attaches, keyed in lower case. */
  extra?: Record<string, string[]>;
}

/** The request attributes RBAC decides on (Kubernetes' authorizer.Attributes). */
export interface RequestAttributes {
  /** get, list, watch, create, update, patch, delete, deletecollection, or bind, escalate, impersonate... */
  verb: string;
  /** '' for the core group. */
  apiGroup: string;
  /** Plural resource name, e.g. 'pods', 'workspaces'. */
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Set for non-resource requests (/api, /apis, /version, /healthz); verb is then the HTTP verb lower-cased. */
  nonResourcePath?: string;
}

/** What RBAC reads: the current Role, ClusterRole, RoleBinding and ClusterRoleBinding objects. */
export interface RbacSource {
  roles(namespace: string): KubeObject[];
  roleBindings(namespace: string): KubeObject[];
  clusterRoles(): KubeObject[];
  clusterRoleBindings(): KubeObject[];
}

export interface Decision {
  allowed: boolean;
  /** Why, in Kubernetes' words where it has them (shown in 403 Status messages). */
  reason: string;
}

/** Issues and checks ServiceAccount tokens (the TokenRequest API). */
export interface TokenAuthority {
  issue(request: {
    namespace: string;
    serviceAccountName: string;
    serviceAccountUid: string;
    audiences?: string[];
    expirationSeconds: number;
    now: number;
  }): Promise<{ token: string; expirationTimestamp: string }>;
  /** The user of a valid, unexpired token; undefined for anything else. */
  verify(token: string, now: number): Promise<UserInfo | undefined>;
}

/** One failed check of an object against its schema, as a Kubernetes StatusCause. */
export interface FieldError {
  /** FieldValueRequired, FieldValueInvalid, FieldValueNotSupported, FieldValueTypeInvalid, FieldValueForbidden... */
  reason: string;
  /** Path such as `spec.handlers[0].tool`. */
  field: string;
  message: string;
}

/** A custom resource version compiled from its CustomResourceDefinition. */
export interface CompiledSchema {
  /** Fills in the schema's defaults, in place (as the API server does before validation). */
  applyDefaults(object: KubeObject): void;
  /** Drops fields the structural schema does not know (unless preserved), in place. */
  prune(object: KubeObject): void;
  /** Validates against the OpenAPI v3 schema and its x-kubernetes-validations (CEL) rules. */
  validate(object: KubeObject, old?: KubeObject): FieldError[];
}
