import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import type { RevokedSessionStore } from './types.js';

/** The revoked_sessions table: sessions ended by logout before their TTL. */
export class SqlRevokedSessionStore implements RevokedSessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async revoke(id: string, userId: string, expiresAt: number, now: number): Promise<void> {
    await this.db.deleteFrom('revoked_sessions').where('expires_at', '<=', now).execute();
    if (expiresAt <= now) return;
    await this.db
      .insertInto('revoked_sessions')
      .values({ id, user_id: userId, expires_at: expiresAt })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  }

  async isRevoked(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('revoked_sessions')
      .select('id')
      .where('id', '=', id)
      .executeTakeFirst();
    return row !== undefined;
  }
}
