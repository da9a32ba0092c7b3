import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import { prepareDatabaseFile } from '@paddock/common';
import { cachingStatements } from './statement-cache.js';
import pg from 'pg';
import { SqlApiKeyStore } from './api-keys.js';
import { SqlLoginFailureStore } from './login-failures.js';
import { migrationProvider } from './migrations.js';
import { SqlRevokedSessionStore } from './revoked-sessions.js';
import type { Database } from './schema.js';
import { SqlTokenStore } from './tokens.js';
import type { Store } from './types.js';
import { SqlUserStore } from './users.js';

/** Where the store lives: a SQLite file, or a PostgreSQL database by connection URL. */
export type StoreOptions = { kind: 'sqlite'; path: string } | { kind: 'postgresql'; url: string };

/** The store the dashboard's configuration names (SVC_BUILTIN_STORE_TYPE and its path or URL). */
export function storeOptionsOf(config: {
  SVC_BUILTIN_STORE_TYPE: 'sqlite' | 'postgresql';
  SVC_BUILTIN_SQLITE_PATH: string;
  SVC_BUILTIN_POSTGRES_URL: string | undefined;
}): StoreOptions {
  return config.SVC_BUILTIN_STORE_TYPE === 'postgresql'
    ? { kind: 'postgresql', url: config.SVC_BUILTIN_POSTGRES_URL! }
    : { kind: 'sqlite', path: config.SVC_BUILTIN_SQLITE_PATH };
}

const SQLITE_BUSY_TIMEOUT_MS = 5_000;

function sqliteDialect(path: string): SqliteDialect {
  // Owner-only files (0600), even in a folder that already exists.
  if (path !== ':memory:' && path !== '') prepareDatabaseFile(path);
  const database = new SqliteDatabase(path);
  try {
    database.pragma('journal_mode = WAL');
    database.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
    database.pragma('foreign_keys = ON');
  } catch (error) {
    database.close();
    throw error;
  }
  return new SqliteDialect({ database: cachingStatements(database) });
}

function postgresDialect(url: string): PostgresDialect {
  // Times are epoch milliseconds in bigint columns, and counts are bigint too: both fit a number.
  const types = new pg.TypeOverrides();
  types.setTypeParser(pg.types.builtins.INT8, Number);
  return new PostgresDialect({ pool: new pg.Pool({ connectionString: url, types }) });
}

/** Connects, brings the schema to the latest migration, and returns the store. */
export async function openStore(options: StoreOptions): Promise<Store> {
  const dialect =
    options.kind === 'sqlite' ? sqliteDialect(options.path) : postgresDialect(options.url);
  const db = new Kysely<Database>({ dialect });
  try {
    const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
    if (error !== undefined) {
      throw error instanceof Error ? error : new Error('migration failed', { cause: error });
    }
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return {
    kind: options.kind,
    users: new SqlUserStore(db),
    apiKeys: new SqlApiKeyStore(db),
    tokens: new SqlTokenStore(db),
    loginFailures: new SqlLoginFailureStore(db),
    revokedSessions: new SqlRevokedSessionStore(db),
    close: () => db.destroy(),
  };
}
