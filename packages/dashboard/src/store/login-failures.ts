import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { LoginFailureStore } from './types.js';

/** The login_failures table: failed sign-ins counted per key, and the lock they lead to. */
export class SqlLoginFailureStore implements LoginFailureStore {
  constructor(private readonly db: Kysely<Database>) {}

  async lockedUntil(key: string, now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('login_failures')
      .select('locked_until')
      .where('key', '=', key)
      .executeTakeFirst();
    const until = row?.locked_until ?? null;
    return until !== null && until > now ? until : null;
  }

  /**
   * One upsert, so concurrent failures never lose a count. The update reads the row as it was:
   * a lapsed lock restarts the count at one, an active lock is kept as it is.
   */
  async recordFailure(
    key: string,
    now: number,
    maxAttempts: number,
    lockoutMs: number,
  ): Promise<number | null> {
    const lockEnd = now + lockoutMs;
    const failures = sql.ref('login_failures.failures');
    const lockedUntil = sql.ref('login_failures.locked_until');
    const nowParam = sql`cast(${now} as bigint)`;
    const counted = sql<number>`case when ${lockedUntil} <= ${nowParam} then 1 else ${failures} + 1 end`;
    const row = await this.db
      .insertInto('login_failures')
      .values({
        key,
        failures: 1,
        locked_until: maxAttempts <= 1 ? lockEnd : null,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: counted,
          locked_until: sql<number | null>`case
            when ${lockedUntil} > ${nowParam} then ${lockedUntil}
            when ${counted} >= cast(${maxAttempts} as integer) then cast(${lockEnd} as bigint)
            else null end`,
          updated_at: now,
        }),
      )
      .returning('locked_until')
      .executeTakeFirstOrThrow();
    return row.locked_until !== null && row.locked_until > now ? row.locked_until : null;
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('key', '=', key).execute();
  }
}
