import type { Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, Database } from './schema.js';
import type { ApiKeyRecord, ApiKeyStore } from './types.js';

function toApiKey(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    prefix: row.prefix,
    secretHash: row.secret_hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

/** The api_keys table. */
export class SqlApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async create(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>): Promise<ApiKeyRecord> {
    const row = await this.db
      .insertInto('api_keys')
      .values({
        id: key.id,
        user_id: key.userId,
        name: key.name,
        prefix: key.prefix,
        secret_hash: key.secretHash,
        created_at: key.createdAt,
        expires_at: key.expiresAt,
        last_used_at: null,
        revoked_at: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toApiKey(row);
  }

  async findById(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toApiKey(row);
  }

  async listByUser(userId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toApiKey);
  }

  async listAll(page: { limit: number; offset: number }): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('revoked_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toApiKey);
  }

  async countActiveByUser(userId: string, now: number): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async revoke(id: string, now: number, userId?: string): Promise<boolean> {
    let query = this.db
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('id', '=', id)
      .where('revoked_at', 'is', null);
    if (userId !== undefined) query = query.where('user_id', '=', userId);
    const result = await query.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async touch(id: string, now: number): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
  }
}
