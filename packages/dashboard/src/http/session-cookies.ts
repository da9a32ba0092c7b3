import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  chunkName,
  joinChunks,
  MAX_COOKIE_CHUNKS,
  sealSession,
  sessionKey,
  splitIntoChunks,
  unsealSession,
  type SessionData,
} from '../auth/session.js';

/** The specification's cookie attributes. */
const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'lax', path: '/' } as const;

/**
 * Reads and writes the session cookie (split into chunks when large). A cookie that cannot be
 * read (tampered, foreign, expired) is cleared in the answer and the request has no session.
 */
export class SessionCookies {
  private readonly key: Uint8Array;

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
    const data = await unsealSession(sealed, this.key, now, this.ttlSeconds);
    if (!data) this.clear(req, reply);
    return data;
  }

  /**
   * Writes the session; the cookie expires with the session (TTL from creation). Bulky provider
   * tokens that would not fit are dropped, the ID token first (it only serves as a logout hint).
   */
  async write(
    req: FastifyRequest,
    reply: FastifyReply,
    data: SessionData,
    now: number,
  ): Promise<void> {
    let chunks = splitIntoChunks(await sealSession(data, this.key));
    if (!chunks && data.oauth?.idToken !== undefined) {
      const { idToken: _dropped, ...oauth } = data.oauth;
      chunks = splitIntoChunks(await sealSession({ ...data, oauth }, this.key));
    }
    if (!chunks && data.oauth !== undefined) {
      const { oauth: _dropped, ...rest } = data;
      chunks = splitIntoChunks(await sealSession(rest, this.key));
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
