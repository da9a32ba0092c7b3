import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { TokenPurpose, TokenStore } from './types.js';

/** The tokens table: single-use password-reset and e-mail verification tokens, by hash. */
export class SqlTokenStore implements TokenStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(token: {
    purpose: TokenPurpose;
    hash: string;
    userId: string;
    expiresAt: number;
    createdAt: number;
  }): Promise<void> {
    await this.db
      .insertInto('tokens')
      .values({
        hash: token.hash,
        purpose: token.purpose,
        user_id: token.userId,
        expires_at: token.expiresAt,
        created_at: token.createdAt,
        used_at: null,
      })
      .execute();
  }

  async newestUsable(purpose: TokenPurpose, userId: string, now: number): Promise<number | null> {
    const row = await this.db
      .selectFrom('tokens')
      .select((eb) => eb.fn.max('created_at').as('newest'))
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const newest = row?.newest;
    return newest === null || newest === undefined ? null : Number(newest);
  }

  /**
   * One conditional UPDATE: the database lets only one of two concurrent statements change the
   * row (SQLite runs them one at a time, PostgreSQL re-checks the condition after the row lock).
   */
  async consume(purpose: TokenPurpose, hash: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .updateTable('tokens')
      .set({ used_at: now })
      .where('hash', '=', hash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row?.user_id;
  }

  async revokeForUser(purpose: TokenPurpose, userId: string, now: number): Promise<void> {
    await this.db
      .updateTable('tokens')
      .set({ used_at: now })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }
}
