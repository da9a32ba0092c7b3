import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { LockoutBackoff, LoginFailureStore } from './types.js';

/** Doublings of a lock at most: the lengths are listed in the SQL, so they are few. */
const MAX_DOUBLINGS = 16;

/**
 * The lengths of the first, second, ... lock in a row: lockoutMs doubling up to maxLockoutMs (the
 * last entry stands for every later lock). Without backoff, always lockoutMs.
 */
export function lockLengths(lockoutMs: number, backoff?: LockoutBackoff): number[] {
  if (!backoff) return [lockoutMs];
  const lengths = [Math.min(lockoutMs, backoff.maxLockoutMs)];
  while (lengths.length <= MAX_DOUBLINGS && lengths[lengths.length - 1]! < backoff.maxLockoutMs) {
    lengths.push(Math.min(lengths[lengths.length - 1]! * 2, backoff.maxLockoutMs));
  }
  return lengths;
}

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
   * a lapsed lock restarts the count at one, an active lock is kept as it is. The lock's length
   * is chosen in SQL from the locks in a row, so that concurrent failures agree on it.
   */
  async recordFailure(
    key: string,
    now: number,
    maxAttempts: number,
    lockoutMs: number,
    backoff?: LockoutBackoff,
  ): Promise<number | null> {
    const failures = sql.ref('login_failures.failures');
    const lockedUntil = sql.ref('login_failures.locked_until');
    const lockouts = sql.ref('login_failures.lockouts');
    const updatedAt = sql.ref('login_failures.updated_at');
    const nowParam = sql`cast(${now} as bigint)`;
    const counted = sql<number>`case when ${lockedUntil} <= ${nowParam} then 1 else ${failures} + 1 end`;
    // Locks in a row, forgotten after a quiet spell.
    const inARow = backoff
      ? sql<number>`case when ${updatedAt} < ${sql.lit(now - backoff.memoryMs)} then 0 else ${lockouts} end`
      : sql<number>`0`;
    const lengths = lockLengths(lockoutMs, backoff);
    const last = sql.lit(now + lengths[lengths.length - 1]!);
    const lockEnd =
      lengths.length === 1
        ? last
        : sql<number>`case ${inARow} ${sql.join(
            lengths.slice(0, -1).map((ms, i) => sql`when ${sql.lit(i)} then ${sql.lit(now + ms)}`),
            sql` `,
          )} else ${last} end`;
    const row = await this.db
      .insertInto('login_failures')
      .values({
        key,
        failures: 1,
        locked_until: maxAttempts <= 1 ? now + lockoutMs : null,
        updated_at: now,
        lockouts: maxAttempts <= 1 ? 1 : 0,
      })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          failures: counted,
          locked_until: sql<number | null>`case
            when ${lockedUntil} > ${nowParam} then ${lockedUntil}
            when ${counted} >= cast(${maxAttempts} as integer) then ${lockEnd}
            else null end`,
          lockouts: sql<number>`case
            when ${lockedUntil} > ${nowParam} then ${lockouts}
            when ${counted} >= cast(${maxAttempts} as integer) then ${inARow} + 1
            else ${inARow} end`,
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

  async resetAccount(accountKey: string): Promise<void> {
    // Pair keys are `<account>|src:<address>`; LIKE's wildcards in the account key are escaped.
    const pattern = `${accountKey.replace(/[\\%_]/g, (c) => `\\${c}`)}|src:%`;
    await this.db
      .deleteFrom('login_failures')
      .where((eb) =>
        eb.or([
          eb('key', '=', accountKey),
          eb('key', '=', `attack:${accountKey}`),
          sql<boolean>`${eb.ref('key')} like ${pattern} escape '\\'`,
        ]),
      )
      .execute();
  }
}
