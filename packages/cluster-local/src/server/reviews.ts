import { errors } from '../api/api-error.js';
import type {
  Decision,
  KubeObject,
  RbacSource,
  RequestAttributes,
  UserInfo,
} from '../contracts.js';
import { isRecord } from '../objects/object-meta.js';
import { isPrivileged } from '../rbac/authorize.js';
import { rulesFor } from '../rbac/rule-resolver.js';
import type { ResourceType } from '../registry/resource-type.js';
import type { Authenticator } from './authentication.js';

export type Authorizer = (user: UserInfo, attributes: RequestAttributes) => Decision;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The attributes a SubjectAccessReview spec asks about. */
function attributesOf(spec: Record<string, unknown>, namespace?: string): RequestAttributes {
  const resource = spec['resourceAttributes'];
  if (isRecord(resource)) {
    return {
      verb: text(resource['verb']),
      apiGroup: text(resource['group']),
      resource: text(resource['resource']),
      ...(resource['subresource'] ? { subresource: text(resource['subresource']) } : {}),
      ...((namespace ?? resource['namespace'])
        ? { namespace: namespace ?? text(resource['namespace']) }
        : {}),
      ...(resource['name'] ? { name: text(resource['name']) } : {}),
    };
  }
  const nonResource = spec['nonResourceAttributes'];
  if (isRecord(nonResource)) {
    return {
      verb: text(nonResource['verb']),
      apiGroup: '',
      resource: '',
      nonResourcePath: text(nonResource['path']),
    };
  }
  throw errors.invalid({ group: 'authorization.k8s.io', kind: 'SubjectAccessReview' }, '', [
    {
      reason: 'FieldValueRequired',
      field: 'spec.resourceAttributes',
      message:
        'Required value: exactly one of nonResourceAttributes or resourceAttributes must be specified',
    },
  ]);
}

function decide(
  authorize: Authorizer,
  user: UserInfo,
  spec: Record<string, unknown>,
  namespace?: string,
) {
  const decision = authorize(user, attributesOf(spec, namespace));
  if (decision.allowed) return { allowed: true, reason: decision.reason };
  // RBAC has no opinion on what it does not allow: Kubernetes gives no reason, only RBAC errors.
  const errorsAt = decision.reason.indexOf('RBAC: ');
  return errorsAt < 0
    ? { allowed: false }
    : { allowed: false, reason: decision.reason.slice(errorsAt) };
}

/**
 * The create-only review kinds: access reviews answered by the authorizer (what `kubectl auth
 * can-i` asks), rules reviews from RBAC, and token reviews by the authenticator.
 */
export async function review(
  type: ResourceType,
  namespace: string,
  body: unknown,
  requester: UserInfo,
  deps: { authorize: Authorizer; rbac: RbacSource; authenticate: Authenticator },
): Promise<KubeObject> {
  const object = (isRecord(body) ? body : {}) as KubeObject;
  const spec = isRecord(object['spec']) ? object['spec'] : {};
  const answer = (status: unknown): KubeObject => ({
    ...object,
    apiVersion: `${type.group}/${type.version}`,
    kind: type.kind,
    metadata: { ...(isRecord(object.metadata) ? object.metadata : {}), creationTimestamp: null },
    spec,
    status,
  });
  switch (type.kind) {
    case 'SelfSubjectAccessReview':
      return answer(decide(deps.authorize, requester, spec));
    case 'LocalSubjectAccessReview':
    case 'SubjectAccessReview': {
      const user: UserInfo = {
        username: text(spec['user']),
        ...(spec['uid'] ? { uid: text(spec['uid']) } : {}),
        groups: Array.isArray(spec['groups']) ? spec['groups'].map(text) : [],
        ...extraOf(spec['extra']),
      };
      return answer(decide(deps.authorize, user, spec, type.namespaced ? namespace : undefined));
    }
    case 'SelfSubjectRulesReview':
      return answer(rulesReview(requester, text(spec['namespace']), deps.rbac));
    case 'TokenReview': {
      const user = await deps.authenticate(`Bearer ${text(spec['token'])}`);
      return answer(
        user
          ? {
              authenticated: true,
              user: {
                username: user.username,
                ...(user.uid ? { uid: user.uid } : {}),
                groups: user.groups,
              },
            }
          : { authenticated: false, error: 'invalid bearer token' },
      );
    }
    case 'SelfSubjectReview':
      // Whoever the request runs as: the impersonated identity when the caller impersonates one.
      return answer({
        userInfo: {
          username: requester.username,
          ...(requester.uid ? { uid: requester.uid } : {}),
          groups: requester.groups,
          ...(requester.extra ? { extra: requester.extra } : {}),
        },
      });
    default:
      throw errors.methodNotAllowed();
  }
}

/** A SubjectAccessReview's `spec.extra` (key to values), when it has any. */
function extraOf(value: unknown): { extra?: Record<string, string[]> } {
  if (!isRecord(value)) return {};
  const entries = Object.entries(value).filter(([, values]) => Array.isArray(values));
  if (entries.length === 0) return {};
  return {
    extra: Object.fromEntries(
      entries.map(([key, values]) => [key, (values as unknown[]).map(text)]),
    ),
  };
}

function rulesReview(user: UserInfo, namespace: string, rbac: RbacSource): object {
  if (isPrivileged(user)) {
    return {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    };
  }
  const { rules, errors: problems } = rulesFor(user, namespace, rbac);
  return {
    resourceRules: rules
      .filter((r) => !r.nonResourceURLs)
      .map((r) => ({
        verbs: r.verbs,
        ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
        ...(r.resources ? { resources: r.resources } : {}),
        ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
      })),
    nonResourceRules: rules
      .filter((r) => r.nonResourceURLs)
      .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
    incomplete: problems.length > 0,
    ...(problems.length > 0 ? { evaluationError: problems.join(', ') } : {}),
  };
}
