import * as crypto from 'node:crypto';
import { createHmac, hkdfSync, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** The specification's literal prefix of every API key. */
export const API_KEY_PREFIX = 'svc_sk_';
/** Characters of the key shown in listings (prefix included), to tell keys apart. */
export const SHOWN_PREFIX_CHARS = API_KEY_PREFIX.length + 8;
/** Longest string taken for a key: anything longer is not one and is refused unread. */
export const MAX_API_KEY_CHARS = 512;

/**
 * The data of a key, base64url-encoded after the prefix as `<id>.<userId>.<created>.<secret>.<sig>`:
 * the key id (a UUID), its owner's user id, the creation time in epoch milliseconds, 32 random
 * bytes (base64url) and the HMAC-SHA256 of the first four fields under the server's key-signing
 * secret. The signature rejects forged keys without touching the database; the random part, stored
 * only as a SHA-256 hash, makes a key unforgeable even to someone holding the signing secret.
 */
export interface ApiKeyParts {
  id: string;
  userId: string;
  createdAt: number;
  secret: string;
}

/** The HMAC key that signs API keys, derived from the configured secret. */
export function apiKeySigningKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'paddock', 'api key signature', 32));
}

function signature(parts: Omit<ApiKeyParts, never>, signingKey: Buffer): string {
  return createHmac('sha256', signingKey)
    .update(`${parts.id}.${parts.userId}.${parts.createdAt}.${parts.secret}`)
    .digest('base64url');
}

/**
 * The SHA-256 of a string, in hex. The one-shot crypto.hash (Node.js 20.12 and later) makes no Hash
 * object and costs a third of createHash's; the namespace import lets older versions fall back.
 */
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

export function secretHash(secret: string): string {
  return sha256Hex(secret);
}

/** Makes a new key for a user: the string to hand out once, and its parts to store. */
export function mintApiKey(
  userId: string,
  now: number,
  signingKey: Buffer,
): { key: string; parts: ApiKeyParts } {
  const parts: ApiKeyParts = {
    id: randomUUID(),
    userId,
    createdAt: now,
    secret: randomBytes(32).toString('base64url'),
  };
  const data = `${parts.id}.${parts.userId}.${parts.createdAt}.${parts.secret}.${signature(parts, signingKey)}`;
  return { key: API_KEY_PREFIX + Buffer.from(data).toString('base64url'), parts };
}

/** Whether a credential is shaped as an API key at all (prefix), whatever its validity. */
export function looksLikeApiKey(credential: string): boolean {
  return credential.startsWith(API_KEY_PREFIX);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * The parts of a key whose signature checks out, or undefined for anything malformed or forged.
 * Pure and cheap: no database, one HMAC.
 */
export function verifyApiKeySignature(key: string, signingKey: Buffer): ApiKeyParts | undefined {
  if (!looksLikeApiKey(key) || key.length > MAX_API_KEY_CHARS) return undefined;
  const encoded = key.slice(API_KEY_PREFIX.length);
  if (!BASE64URL.test(encoded)) return undefined;
  const data = Buffer.from(encoded, 'base64url');
  // One spelling per key: trailing bits the decoder would drop make another string of the same key.
  if (data.toString('base64url') !== encoded) return undefined;
  const fields = data.toString('utf8').split('.');
  if (fields.length !== 5) return undefined;
  const [id, userId, created, secret, sig] = fields as [string, string, string, string, string];
  if (!UUID.test(id) || userId === '' || !/^\d{1,15}$/.test(created)) return undefined;
  if (!BASE64URL.test(secret) || !BASE64URL.test(sig)) return undefined;
  const parts: ApiKeyParts = { id, userId, createdAt: Number(created), secret };
  const expected = Buffer.from(signature(parts, signingKey));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return parts;
}
