import type { ExternalProfile, Store, UserRecord } from '../store/types.js';

/** Users remembered per process, so a known, unchanged identity costs no database write. */
export const EXTERNAL_USER_CACHE_ENTRIES = 10_000;
/**
 * A known, unchanged profile is written again at most this often: the write stamps when the
 * provider last vouched for the groups (EXTERNAL_GROUPS_MAX_AGE_MS counts from it) and picks up
 * changes other replicas made to the record (disabled, session epoch).
 */
export const EXTERNAL_PROFILE_REFRESH_MS = 60_000;

/**
 * The records of users whom a proxy or an OpenID provider vouches for. Their profile (name,
 * e-mail, groups) is written when first seen, whenever it changes and every
 * EXTERNAL_PROFILE_REFRESH_MS while the user is active, not on every request.
 */
export class ExternalUsers {
  private readonly cache = new Map<string, { record: UserRecord; fingerprint: string }>();

  constructor(private readonly store: Store) {}

  /** The record of a user the provider vouches for, created or refreshed as needed. */
  async upsert(
    provider: 'proxy' | 'oauth',
    subject: string,
    profile: ExternalProfile,
    now: number,
  ): Promise<UserRecord> {
    const key = `${provider}\u0000${subject}`;
    const fingerprint = JSON.stringify(profile);
    const cached = this.cache.get(key);
    const seenAt = cached?.record.groupsSeenAt ?? null;
    const fresh = seenAt !== null && now >= seenAt && now - seenAt < EXTERNAL_PROFILE_REFRESH_MS;
    if (cached && cached.fingerprint === fingerprint && fresh) return cached.record;
    const record = await this.store.users.upsertExternal(provider, subject, profile, now);
    this.remember(key, record, fingerprint);
    return record;
  }

  /** The record when the user was seen before, without creating one. */
  async find(provider: 'proxy' | 'oauth', subject: string): Promise<UserRecord | undefined> {
    return this.store.users.findBySubject(provider, subject);
  }

  private remember(key: string, record: UserRecord, fingerprint: string): void {
    this.cache.delete(key);
    this.cache.set(key, { record, fingerprint });
    if (this.cache.size > EXTERNAL_USER_CACHE_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
  }
}
