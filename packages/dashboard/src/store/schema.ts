/**
 * The tables as kysely sees them. The same columns on SQLite and PostgreSQL: times are integers
 * (epoch milliseconds, bigint on PostgreSQL), booleans are integers 0 and 1, and groups are a JSON
 * text array, so both databases share one code path.
 */

export interface UsersTable {
  id: string;
  provider: string;
  subject: string;
  username: string;
  /** The lower-cased username of a builtin account, null for other providers; unique. */
  username_key: string | null;
  email: string | null;
  /** The lower-cased e-mail of a builtin account, null for other providers; unique. */
  email_key: string | null;
  display_name: string | null;
  /** JSON text array of strings. */
  groups: string;
  role_override: string | null;
  password_hash: string | null;
  email_verified: number;
  disabled: number;
  session_epoch: number;
  created_at: number;
  updated_at: number;
  /** When the identity provider last vouched for `groups` (proxy and OAuth users). */
  groups_seen_at: number | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  secret_hash: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface TokensTable {
  /** SHA-256 (hex) of the token. */
  hash: string;
  purpose: string;
  user_id: string;
  expires_at: number;
  created_at: number;
  /** When the token was consumed or revoked; null while it can still be used. */
  used_at: number | null;
}

export interface LoginFailuresTable {
  key: string;
  failures: number;
  locked_until: number | null;
  updated_at: number;
  /** Locks in a row (each twice as long as the one before); forgotten after a quiet day. */
  lockouts: number;
}

export interface RevokedSessionsTable {
  /** The session's random id (`sid` in the cookie). */
  id: string;
  user_id: string;
  /** When the session would have expired anyway: the row may go after that. */
  expires_at: number;
}

export interface Database {
  users: UsersTable;
  api_keys: ApiKeysTable;
  tokens: TokensTable;
  login_failures: LoginFailuresTable;
  revoked_sessions: RevokedSessionsTable;
}
