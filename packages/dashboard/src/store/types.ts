import type { Role } from '../auth/user.js';

/**
 * The dashboard's persistent state, one interface over SQLite and PostgreSQL: users of every
 * provider that needs a record (builtin accounts, proxy and OAuth users seen so far, who may own
 * API keys), API keys, single-use tokens and login-failure counters. Times are epoch milliseconds.
 */

/** The providers whose users are recorded. */
export type StoredProvider = 'proxy' | 'oauth' | 'builtin';

export interface UserRecord {
  id: string;
  provider: StoredProvider;
  /**
   * Stable identity within the provider: the OIDC `sub` (oauth), the lower-cased username
   * (proxy), the id itself (builtin). Unique per provider.
   */
  subject: string;
  username: string;
  email: string | null;
  displayName: string | null;
  groups: string[];
  /** Set by an admin (builtin) or for the initial admin; otherwise the role follows the groups. */
  roleOverride: Role | null;
  /** argon2id PHC string; builtin accounts only. */
  passwordHash: string | null;
  emailVerified: boolean;
  disabled: boolean;
  /** Raised to end every existing session of the user (reset, lockout, disable). */
  sessionEpoch: number;
  createdAt: number;
  updatedAt: number;
  /**
   * Proxy and OAuth users: when the identity provider last vouched for `groups` (a sign-in, a
   * proxied request, a Bearer JWT); null for builtin users and for groups never vouched for.
   */
  groupsSeenAt: number | null;
}

export interface NewUser {
  provider: StoredProvider;
  /** Builtin users get their id as subject when this is left out. */
  subject?: string;
  username: string;
  email?: string | null;
  displayName?: string | null;
  groups?: string[];
  roleOverride?: Role | null;
  passwordHash?: string | null;
  emailVerified?: boolean;
}

export type UserPatch = Partial<
  Pick<
    UserRecord,
    | 'username'
    | 'email'
    | 'displayName'
    | 'groups'
    | 'roleOverride'
    | 'passwordHash'
    | 'emailVerified'
    | 'disabled'
  >
>;

/** What an identity provider says of a user at sign-in; refreshes the record each time. */
export interface ExternalProfile {
  username: string;
  email: string | null;
  displayName: string | null;
  groups: string[];
  /**
   * Whether the provider vouches that the address belongs to the user (OpenID `email_verified`,
   * or the trusted proxy's header); false when left out. Grants by e-mail need it.
   */
  emailVerified?: boolean;
}

/** A unique field already taken: a builtin username or e-mail (case-insensitive). */
export class UniqueViolation extends Error {
  constructor(readonly field: 'username' | 'email') {
    super(`${field} already exists`);
    this.name = 'UniqueViolation';
  }
}

export interface UserStore {
  findById(id: string): Promise<UserRecord | undefined>;
  /**
   * The record findById would answer, when a store that keeps recent records (withUserCache)
   * holds it now; undefined means "ask findById". No I/O and no promise.
   */
  findCachedById?(id: string): UserRecord | undefined;
  /** A builtin account by username or e-mail, case-insensitively. */
  findBuiltinByLogin(identifier: string): Promise<UserRecord | undefined>;
  /** A builtin account by e-mail, case-insensitively. */
  findBuiltinByEmail(email: string): Promise<UserRecord | undefined>;
  findBySubject(provider: StoredProvider, subject: string): Promise<UserRecord | undefined>;
  /** Throws UniqueViolation for a taken builtin username or e-mail. */
  create(user: NewUser): Promise<UserRecord>;
  /**
   * Proxy and OAuth users: creates the record on first sight, refreshes its profile afterwards;
   * `groupsSeenAt` becomes `now` (default: the clock).
   */
  upsertExternal(
    provider: 'proxy' | 'oauth',
    subject: string,
    profile: ExternalProfile,
    now?: number,
  ): Promise<UserRecord>;
  /** Undefined when there is no such user. Throws UniqueViolation like create. */
  update(id: string, patch: UserPatch): Promise<UserRecord | undefined>;
  /** Ends every existing session of the user. */
  bumpSessionEpoch(id: string): Promise<void>;
  /** Ordered by creation, then id. */
  list(page: { limit: number; offset: number }): Promise<UserRecord[]>;
  count(): Promise<number>;
  /** Whether any builtin account has the admin role override. */
  hasBuiltinAdmin(): Promise<boolean>;
}

export interface ApiKeyRecord {
  id: string;
  userId: string;
  name: string;
  /** The first characters of the key, shown in listings so a person can tell keys apart. */
  prefix: string;
  /** SHA-256 (hex) of the key's random part. */
  secretHash: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

export interface ApiKeyStore {
  create(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>): Promise<ApiKeyRecord>;
  /** One indexed lookup: the verification path of every API-key request. */
  findById(id: string): Promise<ApiKeyRecord | undefined>;
  /** A user's keys, revoked ones excluded, newest first. */
  listByUser(userId: string): Promise<ApiKeyRecord[]>;
  /** Every user's keys, revoked ones excluded, newest first. */
  listAll(page: { limit: number; offset: number }): Promise<ApiKeyRecord[]>;
  /** Keys not revoked and not expired at `now`. */
  countActiveByUser(userId: string, now: number): Promise<number>;
  /** Marks the key revoked; false when there was no such unrevoked key (of that user, if given). */
  revoke(id: string, now: number, userId?: string): Promise<boolean>;
  touch(id: string, now: number): Promise<void>;
}

export type TokenPurpose = 'reset' | 'verify';

export interface TokenStore {
  create(token: {
    purpose: TokenPurpose;
    /** SHA-256 (hex) of the token; the token itself is never stored. */
    hash: string;
    userId: string;
    expiresAt: number;
    createdAt: number;
  }): Promise<void>;
  /**
   * Atomically marks an unused, unexpired token of that purpose used and returns its user id;
   * undefined for an unknown, used or expired token. Two concurrent calls never both succeed.
   */
  consume(purpose: TokenPurpose, hash: string, now: number): Promise<string | undefined>;
  /** Makes every unused token of the user and purpose unusable (a newer one replaces them). */
  revokeForUser(purpose: TokenPurpose, userId: string, now: number): Promise<void>;
  /** When the newest still-usable token of the user and purpose was issued, or null. */
  newestUsable(purpose: TokenPurpose, userId: string, now: number): Promise<number | null>;
}

export interface LockoutBackoff {
  maxLockoutMs: number;
  memoryMs: number;
}

export interface LoginFailureStore {
  /** The end of an active lock on the key, or null when it is not locked at `now`. */
  lockedUntil(key: string, now: number): Promise<number | null>;
  /**
   * Counts one failure, atomically. A lock that lapsed starts the count again from zero. When the
   * count reaches maxAttempts the key is locked until now + lockoutMs, or with `backoff` for
   * lockoutMs × 2^(earlier locks in a row), at most backoff.maxLockoutMs; the locks in a row are
   * forgotten after backoff.memoryMs without a failure. Returns the lock's end, or null.
   */
  recordFailure(
    key: string,
    now: number,
    maxAttempts: number,
    lockoutMs: number,
    backoff?: LockoutBackoff,
  ): Promise<number | null>;
  reset(key: string): Promise<void>;
  /** Forgets every count of an account: its own and those of each (account, source) pair. */
  resetAccount(accountKey: string): Promise<void>;
}

/**
 * Sessions ended before their time (logout). A session is known by the random id in its cookie;
 * rows are kept until the session would have expired anyway, then pruned.
 */
export interface RevokedSessionStore {
  /** Records the session as ended; also removes rows whose sessions have expired by `now`. */
  revoke(id: string, userId: string, expiresAt: number, now: number): Promise<void>;
  isRevoked(id: string): Promise<boolean>;
}

export interface Store {
  readonly kind: 'sqlite' | 'postgresql';
  users: UserStore;
  apiKeys: ApiKeyStore;
  tokens: TokenStore;
  loginFailures: LoginFailureStore;
  revokedSessions: RevokedSessionStore;
  close(): Promise<void>;
}
