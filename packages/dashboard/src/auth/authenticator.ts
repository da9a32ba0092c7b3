import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthMode } from '../config.js';
import { DashboardError } from '../errors.js';
import { then, type MaybePromise } from '../maybe-promise.js';
import type { ApiKeyRecord, ExternalProfile, Store, UserRecord } from '../store/types.js';
import type { ApiKeys } from './apikeys/service.js';
import { keyGroups } from './external-groups.js';
import type { ExternalUsers } from './external-users.js';
import {
  anonymousUser,
  presentedCredential,
  userOf,
  type PresentedCredential,
  type Principal,
} from './identity.js';
import { proxyProfile, type ProxyHeaderNames } from './proxy.js';
import type { RoleMapping } from './roles.js';
import type { SessionRevocations } from './session-revocation.js';
import type { SessionData } from './session.js';
import type { Role } from './user.js';

/** What the authenticator needs of the session cookie (the HTTP edge's SessionCookies). */
export interface SessionReader {
  read(req: FastifyRequest, reply: FastifyReply, now: number): Promise<SessionData | undefined>;
  clear(req: FastifyRequest, reply: FastifyReply): void;
}

/** The authentication of a credential presented in a header: a principal, never a session. */
function byHeader(principal: Principal): Authentication {
  return { principal, session: undefined };
}

/** What a Bearer JWT of the OpenID provider says of its user, once verified. */
export interface VerifiedProfile extends ExternalProfile {
  subject: string;
}

export interface AuthenticatorOptions {
  mode: AuthMode;
  mapping: RoleMapping;
  anonymousRole: Role;
  apiKeysEnabled: boolean;
  store: Store;
  apiKeys: ApiKeys;
  sessions: SessionReader;
  sessionRevocations: SessionRevocations;
  externalUsers: ExternalUsers;
  /** oauth mode: verifies a Bearer JWT of the provider (issuer, audience, expiry, signature). */
  verifyBearer?: (token: string) => Promise<VerifiedProfile>;
  proxy?: {
    headers: ProxyHeaderNames;
    trusted: (peer: string | undefined) => boolean;
    autoSignup: boolean;
  };
}

/** The result of authenticating a request: a principal, or none, with the session it carried. */
export interface Authentication {
  principal: Principal | undefined;
  session: SessionData | undefined;
}

/**
 * Decides who a request is. A credential in the headers (API key, Bearer JWT) is decisive: when
 * it fails the answer is 401, never a weaker identity. Without one, the session cookie (oauth and
 * builtin modes), the proxy's headers (proxy mode) or the anonymous user (anonymous mode).
 */
export class Authenticator {
  /** The principal last made of each key record, with the owner record and groups it came from. */
  private readonly keyPrincipals = new WeakMap<
    ApiKeyRecord,
    { owner: UserRecord; groups: readonly string[]; principal: Principal }
  >();

  constructor(private readonly options: AuthenticatorOptions) {}

  /**
   * Decided at once, without a promise, for an API key whose string, record and owner are
   * remembered (the usual case of a script sending its key with every request); a promise when
   * the store must be read. A refusal is thrown, or rejects the promise.
   */
  authenticate(
    req: FastifyRequest,
    reply: FastifyReply,
    now: number,
    credential: PresentedCredential = presentedCredential(req.headers),
  ): MaybePromise<Authentication> {
    switch (credential.kind) {
      case 'malformed':
        throw new DashboardError('unauthorized', credential.reason);
      case 'api-key':
        return then(this.fromApiKey(credential.key, now), byHeader);
      case 'jwt':
        return this.fromBearer(credential.token, now).then(byHeader);
      case 'none':
        return this.fromMode(req, reply, now);
    }
  }

  private fromApiKey(key: string, now: number): MaybePromise<Principal> {
    const { apiKeys, store } = this.options;
    if (!this.options.apiKeysEnabled)
      throw new DashboardError('unauthorized', 'API keys are disabled');
    return then(apiKeys.verify(key, now), (record) => {
      if (!record)
        throw new DashboardError('unauthorized', 'the API key is invalid, revoked or expired');
      const owner = store.users.findCachedById?.(record.userId);
      if (owner) return this.keyPrincipal(record, owner, now);
      return store.users
        .findById(record.userId)
        .then((found) => this.keyPrincipal(record, found, now));
    });
  }

  /**
   * Who a valid key acts as: its owner, while the owner may sign in. The same records (as the
   * caches hand them out until they are read again or changed) with the same groups make the same
   * principal, so it is made once and shared, frozen, by the requests that present the key.
   */
  private keyPrincipal(
    record: ApiKeyRecord,
    owner: UserRecord | undefined,
    now: number,
  ): Principal {
    if (!owner || owner.disabled)
      throw new DashboardError('unauthorized', 'the API key’s owner cannot sign in');
    // A proxy or OAuth user's groups count only while the provider vouched for them lately.
    const groups = keyGroups(owner, now);
    const made = this.keyPrincipals.get(record);
    if (made && made.owner === owner && made.groups === groups) return made.principal;
    const user = userOf(owner, this.options.mapping, 'api-key', groups);
    Object.freeze(user.groups);
    const principal: Principal = Object.freeze({
      user: Object.freeze(user),
      via: 'api-key',
      apiKeyId: record.id,
      emailVerified: owner.emailVerified,
    });
    this.keyPrincipals.set(record, { owner, groups, principal });
    return principal;
  }

  private async fromBearer(token: string, now: number): Promise<Principal> {
    const { verifyBearer, externalUsers, mapping } = this.options;
    if (!verifyBearer)
      throw new DashboardError('unauthorized', 'bearer JWTs are accepted in oauth mode only');
    let profile: VerifiedProfile;
    try {
      profile = await verifyBearer(token);
    } catch {
      throw new DashboardError('unauthorized', 'the bearer token is invalid or has expired');
    }
    const { subject, ...rest } = profile;
    const record = await externalUsers.upsert('oauth', subject, rest, now);
    if (record.disabled) throw new DashboardError('unauthorized', 'this account is disabled');
    return {
      user: userOf(record, mapping, 'oauth'),
      via: 'bearer',
      emailVerified: record.emailVerified,
    };
  }

  private async fromMode(
    req: FastifyRequest,
    reply: FastifyReply,
    now: number,
  ): Promise<Authentication> {
    const { mode, anonymousRole } = this.options;
    switch (mode) {
      case 'anonymous':
        return {
          principal: { user: anonymousUser(anonymousRole), via: 'anonymous', emailVerified: false },
          session: undefined,
        };
      case 'proxy':
        return { principal: await this.fromProxy(req, now), session: undefined };
      case 'oauth':
      case 'builtin':
        return this.fromSession(req, reply, now);
    }
  }

  private async fromProxy(req: FastifyRequest, now: number): Promise<Principal | undefined> {
    const proxy = this.options.proxy!;
    if (!proxy.trusted(req.socket.remoteAddress)) return undefined;
    const profile = proxyProfile(req.raw.rawHeaders, proxy.headers);
    if (!profile) return undefined;
    const subject = profile.username.toLowerCase();
    const { externalUsers, mapping } = this.options;
    if (!proxy.autoSignup) {
      const known = await externalUsers.find('proxy', subject);
      // Admins are admitted unrecorded, so that the first one can register everyone else.
      const isAdmin = profile.groups.some((g) => mapping.adminGroups.includes(g));
      if (!known && !isAdmin) {
        throw new DashboardError(
          'forbidden',
          `${profile.username} is not registered with the dashboard`,
        );
      }
    }
    // The trusted proxy vouches for the e-mail as it does for the username.
    const vouched = { ...profile, emailVerified: profile.email !== null };
    const record = await externalUsers.upsert('proxy', subject, vouched, now);
    if (record.disabled) throw new DashboardError('forbidden', 'this account is disabled');
    return {
      user: userOf(record, mapping, 'proxy'),
      via: 'proxy',
      emailVerified: record.emailVerified,
    };
  }

  private async fromSession(
    req: FastifyRequest,
    reply: FastifyReply,
    now: number,
  ): Promise<Authentication> {
    const { sessions, sessionRevocations, store, mapping } = this.options;
    const session = await sessions.read(req, reply, now);
    if (!session?.user) return { principal: undefined, session };
    // The record decides: a disabled user, a raised epoch (reset, sign out everywhere) or a
    // deleted user ends the session; role and groups are the current ones. A logout ended it
    // when its id is revoked.
    const record = await store.users.findById(session.user.id);
    const revoked =
      session.sid !== undefined && (await sessionRevocations.isRevoked(session.sid, now));
    if (!record || record.disabled || revoked || (session.epoch ?? 0) !== record.sessionEpoch) {
      sessions.clear(req, reply);
      return { principal: undefined, session: undefined };
    }
    return {
      principal: {
        user: userOf(record, mapping, session.user.provider),
        via: 'session',
        emailVerified: record.emailVerified,
      },
      session,
    };
  }
}
