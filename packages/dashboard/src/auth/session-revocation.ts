import { randomBytes } from 'node:crypto';
import { ExpiringCache } from '../expiring-cache.js';
import type { Store } from '../store/types.js';
import { REVOCATION_BOUND_MS } from './apikeys/service.js';

/** Revocation answers kept in memory, by session id: one per live session of this replica. */
export const MAX_CACHED_SESSION_STATES = 10_000;

/** Bytes of randomness in a session id (128 bits). */
const SESSION_ID_BYTES = 16;

/** A new random session id, written into the session cookie at sign-in. */
export function newSessionId(): string {
  return randomBytes(SESSION_ID_BYTES).toString('base64url');
}

/**
 * Which sessions were ended by logout. Every request with a session asks; the answer is read from
 * the store and reused for REVOCATION_BOUND_MS after that read (never longer, however busy the
 * session), so a logout on one replica ends the session on every other within that bound and at
 * once on the replica that answered the logout.
 */
export class SessionRevocations {
  private readonly known = new ExpiringCache<string, boolean>(
    MAX_CACHED_SESSION_STATES,
    REVOCATION_BOUND_MS,
  );

  constructor(private readonly store: Store) {}

  async isRevoked(sessionId: string, now: number): Promise<boolean> {
    const cached = this.known.get(sessionId, now);
    if (cached !== undefined) return cached;
    const revoked = await this.store.revokedSessions.isRevoked(sessionId);
    this.known.set(sessionId, revoked, now);
    return revoked;
  }

  /** Ends one session; `expiresAt` is when it would have ended anyway. */
  async revoke(sessionId: string, userId: string, expiresAt: number, now: number): Promise<void> {
    await this.store.revokedSessions.revoke(sessionId, userId, expiresAt, now);
    this.known.set(sessionId, true, now, Math.max(expiresAt, now + 1));
  }
}
