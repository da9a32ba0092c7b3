import { timingSafeEqual } from 'node:crypto';
import { ExpiringCache } from '../../expiring-cache.js';
import { USER_RECORD_TTL_MS } from '../../store/cached-users.js';
import type { ApiKeyRecord, Store } from '../../store/types.js';
import { DashboardError } from '../../errors.js';
import type { MaybePromise } from '../../maybe-promise.js';
import {
  looksLikeApiKey,
  MAX_API_KEY_CHARS,
  mintApiKey,
  secretHash,
  sha256Hex,
  SHOWN_PREFIX_CHARS,
  verifyApiKeySignature,
  type ApiKeyParts,
} from './format.js';

/** Longest key name. */
export const MAX_KEY_NAME_CHARS = 100;
/** How stale `lastUsed` may get: a key used all the time is written at most this often. */
export const LAST_USED_RESOLUTION_MS = 60_000;
const DAY_MS = 86_400_000;
/**
 * Verified keys kept in memory. Revocation by this process applies at once, by another replica
 * within REVOCATION_BOUND_MS: a cached key record expires that long after it was read from the
 * store, however often the key is used meanwhile.
 */
const MAX_VERIFIED_KEYS = 10_000;
/** The longest a key revoked on one replica stays usable on another. */
export const REVOCATION_BOUND_MS = USER_RECORD_TTL_MS;
/** Key strings remembered as genuine (their signature and secret checked once). */
const MAX_GENUINE_KEYS = MAX_VERIFIED_KEYS;

/** What a key string proved when it was checked in full: the key it is, and the hash it matched. */
interface GenuineKey {
  id: string;
  userId: string;
  createdAt: number;
  secretHash: string;
}

/** A key as listed: never its secret. */
export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  created: string;
  expires: string | null;
  lastUsed: string | null;
  userId: string;
}

export function viewOf(record: ApiKeyRecord): ApiKeyView {
  const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());
  return {
    id: record.id,
    name: record.name,
    prefix: record.prefix,
    created: new Date(record.createdAt).toISOString(),
    expires: iso(record.expiresAt),
    lastUsed: iso(record.lastUsedAt),
    userId: record.userId,
  };
}

export interface ApiKeyPolicy {
  maxPerUser: number;
  /** Days until a new key expires when the request names none; 0 means never. */
  defaultExpirationDays: number;
}

/** What the creator asks for: a name and, optionally, days until expiry (0 = never). */
export interface NewKeyRequest {
  name: string;
  expiresInDays?: number;
}

/**
 * API keys: minting, listing, revoking and verifying. Verification is one HMAC check and one
 * lookup by primary key, whatever the number of keys stored; a key presented again costs one
 * SHA-256 of it and two lookups in memory, decided without a promise (its record still read from
 * the store at least every REVOCATION_BOUND_MS).
 */
export class ApiKeys {
  /** Keys verified lately, by id: a busy script sends the same key with every request. */
  private readonly verified = new ExpiringCache<string, ApiKeyRecord>(
    MAX_VERIFIED_KEYS,
    REVOCATION_BOUND_MS,
  );
  /**
   * Key strings whose signature and secret checked out, by the SHA-256 of the whole string: the
   * same string again is the same genuine key, so its HMAC, decoding and secret hash are skipped.
   * Only what never changes is kept here: whether the key is revoked or expired is read from its
   * record (`verified`) every time. Looked up by digest, so no secret is ever compared by `===`.
   */
  private readonly genuine = new ExpiringCache<string, GenuineKey>(MAX_GENUINE_KEYS, Infinity);

  constructor(
    private readonly store: Store,
    private readonly signingKey: Buffer,
    private readonly policy: ApiKeyPolicy,
  ) {}

  async create(
    userId: string,
    request: NewKeyRequest,
    now: number,
  ): Promise<{ key: string; record: ApiKeyView }> {
    const active = await this.store.apiKeys.countActiveByUser(userId, now);
    if (active >= this.policy.maxPerUser) {
      throw new DashboardError(
        'api_key_limit_reached',
        `you have ${active} API keys, the most allowed; delete one first`,
      );
    }
    const days = request.expiresInDays ?? this.policy.defaultExpirationDays;
    const { key, parts } = mintApiKey(userId, now, this.signingKey);
    const record = await this.store.apiKeys.create({
      id: parts.id,
      userId,
      name: request.name,
      prefix: key.slice(0, SHOWN_PREFIX_CHARS),
      secretHash: secretHash(parts.secret),
      createdAt: now,
      expiresAt: days === 0 ? null : now + days * DAY_MS,
    });
    return { key, record: viewOf(record) };
  }

  async list(userId: string): Promise<ApiKeyView[]> {
    return (await this.store.apiKeys.listByUser(userId)).map(viewOf);
  }

  async listAll(page: { limit: number; offset: number }): Promise<ApiKeyView[]> {
    return (await this.store.apiKeys.listAll(page)).map(viewOf);
  }

  /** Revokes a key of the user (or any key when userId is undefined); false when none matched. */
  async revoke(id: string, now: number, userId?: string): Promise<boolean> {
    this.verified.delete(id);
    const revoked = await this.store.apiKeys.revoke(id, now, userId);
    // Again once written: a request verified meanwhile may have cached the row as it was before.
    this.verified.delete(id);
    return revoked;
  }

  /**
   * The key's record when the key is genuine, not revoked and not expired; undefined otherwise
   * (the caller answers 401 and never falls through to another kind of identity). Decided at once,
   * without a promise, when the key string and its record are both remembered and its last use
   * needs no writing: the store is read or written only past those bounds.
   */
  verify(key: string, now: number): MaybePromise<ApiKeyRecord | undefined> {
    // Refused unread before any hashing: a 16 KiB header is not worth a digest.
    if (!looksLikeApiKey(key) || key.length > MAX_API_KEY_CHARS) return undefined;
    const digest = sha256Hex(key);
    const known = this.genuine.get(digest, now);
    const parts = known ? undefined : verifyApiKeySignature(key, this.signingKey);
    const id = known?.id ?? parts?.id;
    if (id === undefined) return undefined;
    const remembered = this.verified.get(id, now);
    if (remembered) return this.accept(remembered, digest, known, parts, now);
    return this.store.apiKeys.findById(id).then((record) => {
      if (!record) return undefined;
      // Cached only when read from the store: the entry's expiry never slides with use.
      this.verified.set(record.id, record, now, record.expiresAt ?? Infinity);
      return this.accept(record, digest, known, parts, now);
    });
  }

  /**
   * The record when the string proved this key (remembered as `known`, or just checked as
   * `parts`) and the key is neither revoked nor expired; its last use written when due.
   */
  private accept(
    record: ApiKeyRecord,
    digest: string,
    known: GenuineKey | undefined,
    parts: ApiKeyParts | undefined,
    now: number,
  ): MaybePromise<ApiKeyRecord | undefined> {
    if (known) {
      // The record must still be the one the string was checked against (server-side values).
      if (!sameKey(record, known)) return undefined;
    } else {
      if (!matches(record, parts!)) return undefined;
      this.genuine.set(digest, genuineOf(record), now);
    }
    if (record.revokedAt !== null) return undefined;
    if (record.expiresAt !== null && now >= record.expiresAt) return undefined;
    if (record.lastUsedAt === null || now - record.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      return this.store.apiKeys.touch(record.id, now).then(() => {
        record.lastUsedAt = now;
        return record;
      });
    }
    return record;
  }
}

function genuineOf(record: ApiKeyRecord): GenuineKey {
  const { id, userId, createdAt, secretHash } = record;
  return { id, userId, createdAt, secretHash };
}

function sameKey(record: ApiKeyRecord, known: GenuineKey): boolean {
  return (
    record.id === known.id &&
    record.userId === known.userId &&
    record.createdAt === known.createdAt &&
    record.secretHash === known.secretHash
  );
}

function matches(record: ApiKeyRecord, parts: ApiKeyParts): boolean {
  if (record.userId !== parts.userId || record.createdAt !== parts.createdAt) return false;
  const expected = Buffer.from(record.secretHash, 'hex');
  const given = Buffer.from(secretHash(parts.secret), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}
