import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable, Updateable } from 'kysely';
import { isRole } from '../auth/user.js';
import type { Database, UsersTable } from './schema.js';
import {
  UniqueViolation,
  type ExternalProfile,
  type NewUser,
  type StoredProvider,
  type UserPatch,
  type UserRecord,
  type UserStore,
} from './types.js';

/** The form builtin usernames and e-mails are compared in: lower-cased. */
function loginKey(value: string): string {
  return value.toLowerCase();
}

function parseGroups(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((g): g is string => typeof g === 'string') : [];
}

function toUser(row: Selectable<UsersTable>): UserRecord {
  return {
    id: row.id,
    provider: row.provider as StoredProvider,
    subject: row.subject,
    username: row.username,
    email: row.email,
    displayName: row.display_name,
    groups: parseGroups(row.groups),
    roleOverride: isRole(row.role_override) ? row.role_override : null,
    passwordHash: row.password_hash,
    emailVerified: row.email_verified !== 0,
    disabled: row.disabled !== 0,
    sessionEpoch: row.session_epoch,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    groupsSeenAt: row.groups_seen_at,
  };
}

/**
 * The UniqueViolation a database error stands for, if it is the unique index of a builtin
 * username or e-mail: PostgreSQL names the constraint, SQLite the column in its message.
 */
function asUniqueViolation(error: unknown): UniqueViolation | undefined {
  if (!(error instanceof Error)) return undefined;
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  let where = '';
  if (code === '23505' && typeof constraint === 'string') where = constraint;
  else if (code === 'SQLITE_CONSTRAINT_UNIQUE') where = error.message;
  if (where.includes('username_key')) return new UniqueViolation('username');
  if (where.includes('email_key')) return new UniqueViolation('email');
  return undefined;
}

/** The users table: builtin accounts and the proxy and OAuth users seen so far. */
export class SqlUserStore implements UserStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(id: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toUser(row);
  }

  async findBuiltinByLogin(identifier: string): Promise<UserRecord | undefined> {
    const key = loginKey(identifier);
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .where('provider', '=', 'builtin')
      .where((eb) => eb.or([eb('username_key', '=', key), eb('email_key', '=', key)]))
      .execute();
    // A username wins over another account's e-mail that happens to read the same.
    const row = rows.find((r) => r.username_key === key) ?? rows[0];
    return row && toUser(row);
  }

  async findBuiltinByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('provider', '=', 'builtin')
      .where('email_key', '=', loginKey(email))
      .executeTakeFirst();
    return row && toUser(row);
  }

  async findBySubject(provider: StoredProvider, subject: string): Promise<UserRecord | undefined> {
    const row = await this.db
      .selectFrom('users')
      .selectAll()
      .where('provider', '=', provider)
      .where('subject', '=', subject)
      .executeTakeFirst();
    return row && toUser(row);
  }

  async create(user: NewUser): Promise<UserRecord> {
    const id = randomUUID();
    const builtin = user.provider === 'builtin';
    const subject = user.subject ?? (builtin ? id : undefined);
    if (subject === undefined) throw new TypeError(`a ${user.provider} user needs a subject`);
    const email = user.email ?? null;
    const now = Date.now();
    try {
      const row = await this.db
        .insertInto('users')
        .values({
          id,
          provider: user.provider,
          subject,
          username: user.username,
          username_key: builtin ? loginKey(user.username) : null,
          email,
          email_key: builtin && email !== null ? loginKey(email) : null,
          display_name: user.displayName ?? null,
          groups: JSON.stringify(user.groups ?? []),
          role_override: user.roleOverride ?? null,
          password_hash: user.passwordHash ?? null,
          email_verified: user.emailVerified === true ? 1 : 0,
          disabled: 0,
          session_epoch: 0,
          created_at: now,
          updated_at: now,
          groups_seen_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toUser(row);
    } catch (error) {
      throw asUniqueViolation(error) ?? error;
    }
  }

  async upsertExternal(
    provider: 'proxy' | 'oauth',
    subject: string,
    profile: ExternalProfile,
    now = Date.now(),
  ): Promise<UserRecord> {
    const row = await this.db
      .insertInto('users')
      .values({
        id: randomUUID(),
        provider,
        subject,
        username: profile.username,
        username_key: null,
        email: profile.email,
        email_key: null,
        display_name: profile.displayName,
        groups: JSON.stringify(profile.groups),
        role_override: null,
        password_hash: null,
        email_verified: profile.emailVerified === true ? 1 : 0,
        disabled: 0,
        session_epoch: 0,
        created_at: now,
        updated_at: now,
        groups_seen_at: now,
      })
      .onConflict((oc) =>
        oc.columns(['provider', 'subject']).doUpdateSet((eb) => ({
          username: eb.ref('excluded.username'),
          email: eb.ref('excluded.email'),
          display_name: eb.ref('excluded.display_name'),
          groups: eb.ref('excluded.groups'),
          email_verified: eb.ref('excluded.email_verified'),
          updated_at: eb.ref('excluded.updated_at'),
          groups_seen_at: eb.ref('excluded.groups_seen_at'),
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    return toUser(row);
  }

  async update(id: string, patch: UserPatch): Promise<UserRecord | undefined> {
    const current = await this.db
      .selectFrom('users')
      .select('provider')
      .where('id', '=', id)
      .executeTakeFirst();
    if (current === undefined) return undefined;
    // The provider never changes, so whether the key columns are filled is known up front.
    const builtin = current.provider === 'builtin';
    const set: Updateable<UsersTable> = { updated_at: Date.now() };
    if (patch.username !== undefined) {
      set.username = patch.username;
      if (builtin) set.username_key = loginKey(patch.username);
    }
    if (patch.email !== undefined) {
      set.email = patch.email;
      if (builtin) set.email_key = patch.email === null ? null : loginKey(patch.email);
    }
    if (patch.displayName !== undefined) set.display_name = patch.displayName;
    if (patch.groups !== undefined) set.groups = JSON.stringify(patch.groups);
    if (patch.roleOverride !== undefined) set.role_override = patch.roleOverride;
    if (patch.passwordHash !== undefined) set.password_hash = patch.passwordHash;
    if (patch.emailVerified !== undefined) set.email_verified = patch.emailVerified ? 1 : 0;
    if (patch.disabled !== undefined) set.disabled = patch.disabled ? 1 : 0;
    try {
      const row = await this.db
        .updateTable('users')
        .set(set)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && toUser(row);
    } catch (error) {
      throw asUniqueViolation(error) ?? error;
    }
  }

  async bumpSessionEpoch(id: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ session_epoch: eb('session_epoch', '+', 1), updated_at: Date.now() }))
      .where('id', '=', id)
      .execute();
  }

  async list(page: { limit: number; offset: number }): Promise<UserRecord[]> {
    const rows = await this.db
      .selectFrom('users')
      .selectAll()
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toUser);
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async hasBuiltinAdmin(): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where('provider', '=', 'builtin')
      .where('role_override', '=', 'admin')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
