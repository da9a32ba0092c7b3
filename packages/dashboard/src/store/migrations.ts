import type { Kysely, Migration, MigrationProvider } from 'kysely';

/**
 * The schema's migrations, defined in code so they ship with the compiled package. Names sort in
 * the order they apply; a released migration is never edited, a change is a new one.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('provider', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('username', 'text', (c) => c.notNull())
        .addColumn('username_key', 'text')
        .addColumn('email', 'text')
        .addColumn('email_key', 'text')
        .addColumn('display_name', 'text')
        .addColumn('groups', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('role_override', 'text')
        .addColumn('password_hash', 'text')
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('session_epoch', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('users_provider_subject_unique')
        .on('users')
        .columns(['provider', 'subject'])
        .unique()
        .execute();
      // Only builtin rows fill the key columns; NULLs never collide in a unique index.
      await db.schema
        .createIndex('users_username_key_unique')
        .on('users')
        .column('username_key')
        .unique()
        .execute();
      await db.schema
        .createIndex('users_email_key_unique')
        .on('users')
        .column('email_key')
        .unique()
        .execute();
      await db.schema
        .createIndex('users_created_at')
        .on('users')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('last_used_at', 'bigint')
        .addColumn('revoked_at', 'bigint')
        .execute();
      await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();
      await db.schema
        .createIndex('api_keys_created_at')
        .on('api_keys')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('tokens')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema
        .createIndex('tokens_user_id_purpose')
        .on('tokens')
        .columns(['user_id', 'purpose'])
        .execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('locked_until', 'bigint')
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      for (const table of ['login_failures', 'tokens', 'api_keys', 'users']) {
        await db.schema.dropTable(table).execute();
      }
    },
  },
  '0002_sign_in_protections': {
    async up(db: Kysely<unknown>): Promise<void> {
      // When an identity provider last vouched for an external user's groups (null: never, or
      // before this migration, which counts as too old for API keys).
      await db.schema.alterTable('users').addColumn('groups_seen_at', 'bigint').execute();
      // Sessions ended by logout before their TTL: kept until the session would have expired.
      await db.schema
        .createTable('revoked_sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      // How many locks in a row a login_failures key has had: each lasts twice the one before.
      await db.schema
        .alterTable('login_failures')
        .addColumn('lockouts', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .createIndex('revoked_sessions_expires_at')
        .on('revoked_sessions')
        .column('expires_at')
        .execute();
    },
    async down(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropTable('revoked_sessions').execute();
      await db.schema.alterTable('login_failures').dropColumn('lockouts').execute();
      await db.schema.alterTable('users').dropColumn('groups_seen_at').execute();
    },
  },
};

/** Hands the migrations above to kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(MIGRATIONS),
};
