import type { UserRecord } from '../store/types.js';
import { resolveRole, type RoleMapping } from './roles.js';
import type { Provider, Role, User } from './user.js';

/** The id and name of everyone in anonymous mode. */
export const ANONYMOUS_ID = 'anonymous';

export function anonymousUser(role: Role): User {
  return { id: ANONYMOUS_ID, username: 'anonymous', groups: [], role, provider: 'anonymous' };
}

/** A recorded user's role now: an admin's override, else the groups under the current mapping. */
export function currentRole(record: UserRecord, mapping: RoleMapping): Role {
  return record.roleOverride ?? resolveRole(record.groups, mapping);
}

/**
 * The user object of a recorded user, authenticated as `provider`, acting with `groups` (the
 * record's own unless an API key narrows them: see keyGroups).
 */
export function userOf(
  record: UserRecord,
  mapping: RoleMapping,
  provider: Provider = record.provider,
  groups: readonly string[] = record.groups,
): User {
  const user: User = {
    id: record.id,
    username: record.username,
    groups: [...groups],
    role: record.roleOverride ?? resolveRole(groups, mapping),
    provider,
  };
  if (record.email !== null) user.email = record.email;
  if (record.displayName !== null) user.displayName = record.displayName;
  return user;
}

/** How the request proved who it is. */
export type Via = 'session' | 'api-key' | 'bearer' | 'proxy' | 'anonymous';

/** The authenticated caller of a request. */
export interface Principal {
  user: User;
  via: Via;
  /** Set when via is api-key: the key in use. */
  apiKeyId?: string;
  /**
   * Whether the user's e-mail is known to be theirs: a builtin account's confirmed address, an
   * address the OpenID provider asserts `email_verified` for, or the trusted proxy's e-mail header.
   * Only then do workspace grants by e-mail apply.
   */
  emailVerified: boolean;
}

/** A credential named in the request's headers, before it is checked. */
export type PresentedCredential =
  | { kind: 'none' }
  | { kind: 'api-key'; key: string }
  | { kind: 'jwt'; token: string }
  | { kind: 'malformed'; reason: string };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
/** Longest credential header taken: a JWT with many groups fits, a megabyte does not. */
export const MAX_CREDENTIAL_CHARS = 16 * 1024;

/**
 * Which credential the headers present: `X-API-Key`, or `Authorization: Bearer` with an API key
 * or a JWT. Anything presented but unusable is `malformed`, which the caller answers 401: a
 * credential that fails never falls through to a weaker identity.
 */
export function presentedCredential(headers: {
  authorization?: string | undefined;
  'x-api-key'?: string | string[] | undefined;
}): PresentedCredential {
  const apiKeyHeader = headers['x-api-key'];
  const authorization = headers.authorization;
  if (apiKeyHeader !== undefined && authorization !== undefined) {
    return { kind: 'malformed', reason: 'give one credential: Authorization or X-API-Key' };
  }
  if (apiKeyHeader !== undefined) {
    if (typeof apiKeyHeader !== 'string' || apiKeyHeader === '') {
      return { kind: 'malformed', reason: 'X-API-Key must be given once' };
    }
    return apiKeyHeader.length > MAX_CREDENTIAL_CHARS
      ? { kind: 'malformed', reason: 'the API key is too long' }
      : { kind: 'api-key', key: apiKeyHeader.trim() };
  }
  if (authorization === undefined) return { kind: 'none' };
  if (authorization.length > MAX_CREDENTIAL_CHARS) {
    return { kind: 'malformed', reason: 'the Authorization header is too long' };
  }
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
  if (!match) return { kind: 'malformed', reason: 'Authorization must be "Bearer <token>"' };
  const token = match[1]!;
  if (token.startsWith('svc_sk_')) return { kind: 'api-key', key: token };
  if (JWT_SHAPE.test(token)) return { kind: 'jwt', token };
  return { kind: 'malformed', reason: 'the bearer token is neither an API key nor a JWT' };
}
