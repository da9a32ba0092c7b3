import { ExpiringCache } from '../expiring-cache.js';
import type { Store, UserRecord, UserStore } from './types.js';

/**
 * How long a user record read by id may be reused. Every authenticated request reads its user
 * (role, groups, disabled, session epoch); a change made by this process applies at once, one
 * made by another replica within this time. An entry expires this long after it was read from
 * the store, however often it is used: the bound holds under any traffic.
 */
export const USER_RECORD_TTL_MS = 1_000;
const MAX_CACHED_USERS = 10_000;

/** The store, with user lookups by id served from a short-lived cache. */
export function withUserCache(store: Store): Store {
  const cache = new ExpiringCache<string, UserRecord>(MAX_CACHED_USERS, USER_RECORD_TTL_MS);
  const users = store.users;
  const fresh = (record: UserRecord | undefined): UserRecord | undefined => {
    if (record) cache.set(record.id, record, Date.now());
    return record;
  };
  const cached: UserStore = {
    ...bind(users),
    findById: async (id) => cache.get(id, Date.now()) ?? fresh(await users.findById(id)),
    findCachedById: (id) => cache.get(id, Date.now()),
    create: async (user) => fresh(await users.create(user))!,
    upsertExternal: async (provider, subject, profile, now) =>
      fresh(await users.upsertExternal(provider, subject, profile, now))!,
    update: async (id, patch) => {
      cache.delete(id);
      return fresh(await users.update(id, patch));
    },
    bumpSessionEpoch: async (id) => {
      cache.delete(id);
      await users.bumpSessionEpoch(id);
    },
  };
  return { ...store, users: cached };
}

/** The methods of a repository bound to it, so they can be spread into a wrapper. */
function bind(users: UserStore): UserStore {
  return {
    findById: (id) => users.findById(id),
    findBuiltinByLogin: (identifier) => users.findBuiltinByLogin(identifier),
    findBuiltinByEmail: (email) => users.findBuiltinByEmail(email),
    findBySubject: (provider, subject) => users.findBySubject(provider, subject),
    create: (user) => users.create(user),
    upsertExternal: (provider, subject, profile, now) =>
      users.upsertExternal(provider, subject, profile, now),
    update: (id, patch) => users.update(id, patch),
    bumpSessionEpoch: (id) => users.bumpSessionEpoch(id),
    list: (page) => users.list(page),
    count: () => users.count(),
    hasBuiltinAdmin: () => users.hasBuiltinAdmin(),
  };
}
