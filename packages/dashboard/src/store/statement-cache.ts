import type { Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** Distinct statements kept prepared: the store issues a few dozen. */
export const MAX_CACHED_STATEMENTS = 256;

/**
 * A SQLite database for kysely that prepares each distinct statement once. kysely prepares the
 * SQL of every query it runs, which costs more than running the lookups the hot paths (a session,
 * an API key) make. Reuse is safe: better-sqlite3 runs a statement to completion synchronously.
 */
export function cachingStatements(database: Database): SqliteDatabase {
  const statements = new Map<string, Statement>();
  return {
    close: () => {
      statements.clear();
      database.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (!statement) {
        statement = database.prepare(sql);
        if (statements.size >= MAX_CACHED_STATEMENTS) statements.clear();
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}
