import { hkdfSync, webcrypto } from 'node:crypto';
import { CompactEncrypt, compactDecrypt } from 'jose';
import { z } from 'zod';
import { PROVIDERS, ROLES, type User } from './user.js';

/**
 * The session data of the specification, kept in the session cookie as encrypted, authenticated
 * JSON (JWE, direct key, A256GCM). Beyond the specification: `epoch`, the user's session epoch at
 * sign-in (raising it ends the session: "sign out everywhere"), `sid`, the session's random id
 * (logout records it as revoked), and `pkce.nonce`, the OIDC nonce of the sign-in.
 */
export interface SessionData {
  user?: User;
  createdAt?: number;
  epoch?: number;
  sid?: string;
  oauth?: {
    accessToken: string;
    refreshToken?: string;
    idToken?: string;
    expiresAt?: number;
    provider: string;
  };
  pkce?: {
    codeVerifier: string;
    codeChallenge: string;
    state: string;
    nonce?: string;
    returnTo?: string;
  };
}

const userSchema = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string().optional(),
  displayName: z.string().optional(),
  groups: z.array(z.string()),
  role: z.enum(ROLES),
  provider: z.enum(PROVIDERS),
});

const sessionSchema = z.object({
  user: userSchema.optional(),
  createdAt: z.number().optional(),
  epoch: z.number().optional(),
  sid: z.string().max(64).optional(),
  oauth: z
    .object({
      accessToken: z.string(),
      refreshToken: z.string().optional(),
      idToken: z.string().optional(),
      expiresAt: z.number().optional(),
      provider: z.string(),
    })
    .optional(),
  pkce: z
    .object({
      codeVerifier: z.string(),
      codeChallenge: z.string(),
      state: z.string(),
      nonce: z.string().optional(),
      returnTo: z.string().optional(),
    })
    .optional(),
});

/** A sign-in in progress (only `pkce`) must come back from the provider within this time. */
export const PKCE_TTL_MS = 10 * 60 * 1000;
/** Browsers keep at least 4096 bytes per cookie, name and attributes included. */
export const COOKIE_CHUNK_CHARS = 3800;
/**
 * Chunks of one session at most: about 11 KB, so that the Cookie header stays well under the 16 KiB
 * that servers and proxies take by default.
 */
export const MAX_COOKIE_CHUNKS = 3;

/** The key that seals session cookies. */
export type SessionKey = webcrypto.CryptoKey;

/**
 * The 256-bit encryption key of session cookies, derived from SVC_SESSION_SECRET, imported once as
 * a CryptoKey: importing raw bytes at every request would cost more than the decryption.
 */
export function sessionKey(secret: string): Promise<SessionKey> {
  const raw = new Uint8Array(hkdfSync('sha256', secret, 'paddock', 'session cookie A256GCM', 32));
  return webcrypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
}

export async function sealSession(data: SessionData, key: SessionKey): Promise<string> {
  const plaintext = new TextEncoder().encode(JSON.stringify(data));
  return new CompactEncrypt(plaintext)
    .setProtectedHeader({ alg: 'dir', enc: 'A256GCM' })
    .encrypt(key);
}

/**
 * The session in a cookie value, or undefined when it is not one of ours (tampered, encrypted with
 * another secret, malformed) or has expired: SVC_SESSION_TTL from creation, PKCE_TTL_MS for a
 * sign-in in progress.
 */
export async function unsealSession(
  sealed: string,
  key: SessionKey,
  now: number,
  ttlSeconds: number,
): Promise<SessionData | undefined> {
  let json: unknown;
  try {
    const { plaintext } = await compactDecrypt(sealed, key, {
      keyManagementAlgorithms: ['dir'],
      contentEncryptionAlgorithms: ['A256GCM'],
    });
    json = JSON.parse(new TextDecoder().decode(plaintext));
  } catch {
    return undefined;
  }
  const parsed = sessionSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const data: SessionData = parsed.data;
  if (data.createdAt === undefined) return undefined;
  const lifetime = data.user ? ttlSeconds * 1000 : PKCE_TTL_MS;
  if (now >= data.createdAt + lifetime || data.createdAt > now + 60_000) return undefined;
  return data;
}

/** The cookie names of a session's chunks: `svc_session`, `svc_session.1`, ... */
export function chunkName(name: string, index: number): string {
  return index === 0 ? name : `${name}.${index}`;
}

/** Splits a sealed session into cookie values; undefined when it would not fit in the chunks. */
export function splitIntoChunks(sealed: string): string[] | undefined {
  const chunks: string[] = [];
  for (let at = 0; at < sealed.length; at += COOKIE_CHUNK_CHARS) {
    chunks.push(sealed.slice(at, at + COOKIE_CHUNK_CHARS));
  }
  return chunks.length <= MAX_COOKIE_CHUNKS ? chunks : undefined;
}

/** The sealed session from the request's cookies, chunks joined in order. */
export function joinChunks(
  name: string,
  cookies: Record<string, string | undefined>,
): string | undefined {
  const first = cookies[name];
  if (first === undefined || first === '') return undefined;
  let sealed = first;
  for (let i = 1; i < MAX_COOKIE_CHUNKS; i++) {
    const next = cookies[chunkName(name, i)];
    if (next === undefined || next === '') break;
    sealed += next;
  }
  return sealed;
}
