import { errors } from '../api/api-error.js';
import { nameProblems } from '../api/names.js';
import type { Decision, RequestAttributes, UserInfo } from '../contracts.js';
import { forbiddenMessage } from '../rbac/authorize.js';
import { serviceAccountUsername } from '../rbac/rule-resolver.js';

/**
 * Kubernetes' user impersonation: a caller names another identity in request headers and, once
 * RBAC lets it `impersonate` each part of that identity, the request runs as it. The headers, as
 * Node lower-cases them.
 */
export const IMPERSONATE_USER = 'impersonate-user';
export const IMPERSONATE_GROUP = 'impersonate-group';
export const IMPERSONATE_UID = 'impersonate-uid';
export const IMPERSONATE_EXTRA_PREFIX = 'impersonate-extra-';

/** The group of the `uids` and `userextras` resources the impersonate verb is checked on. */
export const AUTHENTICATION_GROUP = 'authentication.k8s.io';
const AUTHENTICATION_VERSION = `${AUTHENTICATION_GROUP}/v1`;

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
const ANONYMOUS = 'system:anonymous';
const ALL_AUTHENTICATED = 'system:authenticated';
const ALL_UNAUTHENTICATED = 'system:unauthenticated';

/** Each header's values in the order they came (Node's `headersDistinct`). */
export type HeaderLists = Readonly<Record<string, readonly string[] | undefined>>;

/** One part of the identity asked for; each is authorized on its own. */
export type ImpersonationTarget =
  | { kind: 'User'; name: string }
  | { kind: 'ServiceAccount'; namespace: string; name: string }
  | { kind: 'Group'; name: string }
  | { kind: 'UserExtra'; key: string; value: string }
  | { kind: 'UID'; uid: string };

/**
 * The parts of the identity the headers ask for, user first, then groups, extras and the uid;
 * none when the request impersonates nobody. Groups, extras or a uid without a user are a 400,
 * worded as Kubernetes words it.
 */
export function impersonationTargets(headers: HeaderLists): ImpersonationTarget[] {
  const targets: ImpersonationTarget[] = [];
  const user = headers[IMPERSONATE_USER]?.[0] ?? '';
  if (user !== '') {
    const account = splitServiceAccountUsername(user);
    targets.push(account ? { kind: 'ServiceAccount', ...account } : { kind: 'User', name: user });
  }
  for (const group of headers[IMPERSONATE_GROUP] ?? [])
    targets.push({ kind: 'Group', name: group });
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(IMPERSONATE_EXTRA_PREFIX)) continue;
    // Header names are case-insensitive, so clients percent-encode keys that need capitals or '/'.
    const key = unescapeExtraKey(header.slice(IMPERSONATE_EXTRA_PREFIX.length).toLowerCase());
    for (const value of values ?? []) targets.push({ kind: 'UserExtra', key, value });
  }
  const uid = headers[IMPERSONATE_UID]?.[0] ?? '';
  if (uid !== '') targets.push({ kind: 'UID', uid });
  if (user === '' && targets.length > 0) {
    throw errors.badRequest(
      `requested [${targets.map(objectReferenceText).join(' ')}] without impersonating a user`,
    );
  }
  return targets;
}

/**
 * `system:serviceaccount:<namespace>:<name>` with a valid namespace and name, as Kubernetes'
 * serviceaccount.SplitUsername reads it; anything else is an ordinary user name.
 */
export function splitServiceAccountUsername(
  username: string,
): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace, name] = parts as [string, string];
  if (nameProblems(namespace, 'label').length > 0) return undefined;
  if (nameProblems(name, 'subdomain').length > 0) return undefined;
  return { namespace, name };
}

/** Go's url.PathUnescape; a malformed key is kept as it came, as Kubernetes keeps it. */
export function unescapeExtraKey(encoded: string): string {
  if (/%(?![0-9a-fA-F]{2})/.test(encoded)) return encoded;
  // Every '%' now starts an escape, which the split captures (at the odd places).
  const parts = encoded.split(/(%[0-9a-fA-F]{2})/);
  const bytes = parts.map((part, i) =>
    i % 2 === 1 ? Buffer.from([Number.parseInt(part.slice(1), 16)]) : Buffer.from(part, 'utf8'),
  );
  return Buffer.concat(bytes).toString('utf8');
}

/** What RBAC is asked for one part: the `impersonate` verb on users, groups, serviceaccounts… */
export function impersonateAttributes(target: ImpersonationTarget): RequestAttributes {
  const verb = 'impersonate';
  switch (target.kind) {
    case 'User':
      return { verb, apiGroup: '', resource: 'users', name: target.name };
    case 'Group':
      return { verb, apiGroup: '', resource: 'groups', name: target.name };
    case 'ServiceAccount':
      return {
        verb,
        apiGroup: '',
        resource: 'serviceaccounts',
        namespace: target.namespace,
        name: target.name,
      };
    case 'UserExtra':
      return {
        verb,
        apiGroup: AUTHENTICATION_GROUP,
        resource: 'userextras',
        subresource: target.key,
        name: target.value,
      };
    case 'UID':
      return { verb, apiGroup: AUTHENTICATION_GROUP, resource: 'uids', name: target.uid };
  }
}

/**
 * The identity the parts make. A ServiceAccount gets its fixed groups unless groups are named;
 * then, as Kubernetes does, `system:authenticated` joins a non-anonymous user's groups unless
 * they hold it or `system:unauthenticated`, and `system:unauthenticated` joins the anonymous
 * user's.
 */
export function impersonatedUser(targets: readonly ImpersonationTarget[]): UserInfo {
  const groupsNamed = targets.some((t) => t.kind === 'Group');
  let username = '';
  let uid: string | undefined;
  const groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const target of targets) {
    switch (target.kind) {
      case 'ServiceAccount':
        username = serviceAccountUsername(target.namespace, target.name);
        if (!groupsNamed) {
          groups.push('system:serviceaccounts', `system:serviceaccounts:${target.namespace}`);
        }
        break;
      case 'User':
        username = target.name;
        break;
      case 'Group':
        groups.push(target.name);
        break;
      case 'UserExtra':
        (extra[target.key] ??= []).push(target.value);
        break;
      case 'UID':
        uid = target.uid;
        break;
    }
  }
  if (username !== ANONYMOUS) {
    if (!groups.includes(ALL_AUTHENTICATED) && !groups.includes(ALL_UNAUTHENTICATED)) {
      groups.push(ALL_AUTHENTICATED);
    }
  } else if (!groups.includes(ALL_UNAUTHENTICATED)) {
    groups.push(ALL_UNAUTHENTICATED);
  }
  return {
    username,
    ...(uid !== undefined ? { uid } : {}),
    groups,
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

/** Who a request acts as, and who asked when that is someone else. */
export interface ActingIdentity {
  user: UserInfo;
  /** The authenticated caller, when the request impersonates another identity. */
  impersonator?: UserInfo;
}

/**
 * The identity a request runs as: the caller's own, or the one its impersonation headers ask for
 * once the caller may impersonate every part of it (a 403 naming the first part it may not).
 */
export function actAs(
  caller: UserInfo,
  headers: HeaderLists,
  authorize: (user: UserInfo, attributes: RequestAttributes) => Decision,
): ActingIdentity {
  const targets = impersonationTargets(headers);
  if (targets.length === 0) return { user: caller };
  for (const target of targets) {
    const attributes = impersonateAttributes(target);
    const decision = authorize(caller, attributes);
    if (!decision.allowed) {
      throw errors.forbidden(
        forbiddenMessage(caller, attributes, decision),
        { group: attributes.apiGroup, plural: attributes.resource },
        attributes.name,
      );
    }
  }
  return { user: impersonatedUser(targets), impersonator: caller };
}

/** `name[group,group]`, as Kubernetes' request log shows a user. */
export function userText(user: UserInfo): string {
  const name = user.username === '' ? '<empty>' : user.username;
  return user.groups.length > 0 ? `${name}[${user.groups.join(',')}]` : name;
}

/** Go's %v of the v1.ObjectReference Kubernetes builds for a part (its seven fields). */
function objectReferenceText(target: ImpersonationTarget): string {
  const [kind, namespace, name, apiVersion, fieldPath] = ((): string[] => {
    switch (target.kind) {
      case 'User':
      case 'Group':
        return [target.kind, '', target.name, '', ''];
      case 'ServiceAccount':
        return [target.kind, target.namespace, target.name, '', ''];
      case 'UserExtra':
        return [target.kind, '', target.value, AUTHENTICATION_VERSION, target.key];
      case 'UID':
        return [target.kind, '', target.uid, AUTHENTICATION_VERSION, ''];
    }
  })();
  // Kind, Namespace, Name, UID, APIVersion, ResourceVersion, FieldPath.
  return `{${[kind, namespace, name, '', apiVersion, '', fieldPath].join(' ')}}`;
}
