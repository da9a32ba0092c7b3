import type { FastifyReply, FastifyRequest } from 'fastify';
import { ExpiringCache } from '../expiring-cache.js';
import {
  chunkName,
  joinChunks,
  MAX_COOKIE_CHUNKS,
  PKCE_TTL_MS,
  sealSession,
  sessionKey,
  splitIntoChunks,
  unsealSession,
  type SessionData,
  type SessionKey,
} from '../auth/session.js';

/** Opened sessions kept in memory, by cookie value. */
const MAX_OPENED_SESSIONS = 10_000;

/** The specification's cookie attributes. */
const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' } as const;

/**
 * Reads and writes the session cookie (split into chunks when large). A cookie that cannot be
 * read (tampered, foreign, expired) is cleared in the answer and the request has no session.
 */
export class SessionCookies {
  private readonly key: Promise<SessionKey>;
  /** Sessions already opened, by cookie value: a browser sends the same one with every request. */
  private readonly opened = new ExpiringCache<string, SessionData>(MAX_OPENED_SESSIONS, Infinity);

  constructor(
    readonly name: string,
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = sessionKey(secret);
  }

  /** Whether the request carries any chunk of the session cookie. */
  present(req: FastifyRequest): boolean {
    return req.cookies[this.name] !== undefined;
  }

  async read(
    req: FastifyRequest,
    reply: FastifyReply,
    now: number,
  ): Promise<SessionData | undefined> {
    const sealed = joinChunks(this.name, req.cookies);
    if (sealed === undefined) return undefined;
    const known = this.opened.get(sealed, now);
    if (known) return known;
    const data = await unsealSession(sealed, await this.key, now, this.ttlSeconds);
    if (!data) {
      this.clear(req, reply);
      return undefined;
    }
    this.opened.set(sealed, data, now, (data.createdAt ?? now) + this.lifetimeMs(data));
    return data;
  }

  private lifetimeMs(data: SessionData): number {
    return data.user ? this.ttlSeconds * 1000 : PKCE_TTL_MS;
  }

  /**
   * Writes the session; the cookie expires with the session (TTL from creation). What would not
   * fit is left out, least needed first: the ID token (only a logout hint), then the copy of the
   * groups (every request reads the user's current groups from the store), then the provider's
   * tokens (only refresh needs them).
   */
  async write(
    req: FastifyRequest,
    reply: FastifyReply,
    data: SessionData,
    now: number,
  ): Promise<void> {
    let chunks: string[] | undefined;
    for (const candidate of slimmer(data)) {
      chunks = splitIntoChunks(await sealSession(candidate, await this.key));
      if (chunks) break;
    }
    if (!chunks) throw new Error('the session does not fit in its cookies');
    const createdAt = data.createdAt ?? now;
    const maxAge = Math.max(0, Math.floor((createdAt + this.ttlSeconds * 1000 - now) / 1000));
    chunks.forEach((value, index) => {
      void reply.setCookie(chunkName(this.name, index), value, { ...COOKIE_OPTIONS, maxAge });
    });
    for (let i = chunks.length; i < MAX_COOKIE_CHUNKS; i++) {
      const name = chunkName(this.name, i);
      if (req.cookies[name] !== undefined) void reply.clearCookie(name, COOKIE_OPTIONS);
    }
  }

  clear(req: FastifyRequest, reply: FastifyReply): void {
    for (let i = 0; i < MAX_COOKIE_CHUNKS; i++) {
      const name = chunkName(this.name, i);
      if (i === 0 || req.cookies[name] !== undefined) void reply.clearCookie(name, COOKIE_OPTIONS);
    }
  }
}

/** The session, then ever smaller versions of it: each leaves out one more thing. */
function* slimmer(data: SessionData): Generator<SessionData> {
  yield data;
  let next = data;
  if (next.oauth?.idToken !== undefined) {
    const { idToken: _idToken, ...oauth } = next.oauth;
    yield (next = { ...next, oauth });
  }
  if (next.user && next.user.groups.length > 0) {
    yield (next = { ...next, user: { ...next.user, groups: [] } });
  }
  if (next.oauth !== undefined) {
    const { oauth: _oauth, ...rest } = next;
    yield rest;
  }
}
