import { createHash } from 'node:crypto';
import type { ParsedKey } from 'ssh2';
import { ssh2 } from './ssh2-on-demand.js';

/** Key types that authenticate. FIDO (`sk-*`) keys are refused: ssh2 cannot verify their signatures. */
export const ACCEPTED_KEY_TYPES = [
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'ssh-rsa',
] as const;
export type AcceptedKeyType = (typeof ACCEPTED_KEY_TYPES)[number];

/** Smallest RSA modulus accepted, in bits (OpenSSH's own minimum since 8.x is 1024; NIST asks 2048). */
export const MIN_RSA_BITS = 2048;
/** Longest public key line: a 16384-bit RSA key is about 2,800 characters of base64. */
export const MAX_KEY_LINE_CHARS = 8 * 1024;
/** Longest comment kept from the key line, and longest `name` label. */
export const MAX_COMMENT_CHARS = 256;
export const MAX_NAME_CHARS = 100;
/**
 * Keys one subject (a proven identity) may register: enough for every laptop and CI runner of one
 * person. With the proof of the human API, subjects cannot be made up, so this bound and the next
 * keep the registry small whatever one user does.
 */
export const MAX_KEYS_PER_SUB = 20;
/** Keys in the whole registry, so that memory stays bounded whatever callers do. */
export const MAX_KEYS_TOTAL = 1000;
/** Hex characters of the key blob's SHA-256 used as the id in URLs (64 bits). */
const ID_HEX_CHARS = 16;

/**
 * Why a registration was refused; the routes map each kind to a status. `limit`: the caller's own
 * bound; `full`: the whole registry's.
 */
export type SshKeyErrorKind = 'invalid' | 'conflict' | 'limit' | 'full';

export class SshKeyError extends Error {
  constructor(
    readonly kind: SshKeyErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SshKeyError';
  }
}

/** A key as the API shows it to its owner. */
export interface SshKeyRecord {
  id: string;
  type: AcceptedKeyType;
  fingerprint: string;
  comment: string;
  name: string;
  createdAt: string;
}

/** A registered key with what authentication needs. */
export interface RegisteredKey {
  record: SshKeyRecord;
  /** The X-Forwarded-Sub that registered it: sessions it opens run as this subject. */
  sub: string;
  /** The wire-format public key (the base64 part of the line, decoded). */
  blob: Buffer;
  parsed: ParsedKey;
}

/** A public key line, checked and parsed, not yet owned by anyone. */
export interface ParsedPublicKey {
  type: AcceptedKeyType;
  blob: Buffer;
  comment: string;
  parsed: ParsedKey;
}

/** `SHA256:<base64 without padding>` of the key blob, as `ssh-keygen -l` prints it. */
export function fingerprintOf(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The URL id of a key: the first hex characters of the blob's SHA-256. */
export function keyIdOf(blob: Buffer): string {
  return createHash('sha256').update(blob).digest('hex').slice(0, ID_HEX_CHARS);
}

function isAcceptedType(type: string): type is AcceptedKeyType {
  return (ACCEPTED_KEY_TYPES as readonly string[]).includes(type);
}

/** Control characters (C0, DEL, C1) have no place in a label shown on screens and logs. */
export function hasControlCharacters(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /[\u0000-\u001f\u007f-\u009f]/.test(text);
}

/** Reads one SSH wire `string` (uint32 length, bytes) at `offset`, or undefined past the end. */
function readWireString(blob: Buffer, offset: number): { value: Buffer; next: number } | undefined {
  if (offset + 4 > blob.length) return undefined;
  const length = blob.readUInt32BE(offset);
  const start = offset + 4;
  if (start + length > blob.length) return undefined;
  return { value: blob.subarray(start, start + length), next: start + length };
}

/** The modulus size of an `ssh-rsa` blob (string type, mpint e, mpint n), in bits. */
export function rsaModulusBits(blob: Buffer): number {
  const type = readWireString(blob, 0);
  const exponent = type && readWireString(blob, type.next);
  const modulus = exponent && readWireString(blob, exponent.next);
  if (!modulus) return 0;
  const bytes = modulus.value;
  let first = 0;
  while (first < bytes.length && bytes[first] === 0) first++; // mpint sign padding
  if (first === bytes.length) return 0;
  return (bytes.length - first - 1) * 8 + (32 - Math.clz32(bytes[first]!));
}

/**
 * Parses one OpenSSH public key line (`<type> <base64> [comment]`, as in a `.pub` file or an
 * `authorized_keys` line without options). Throws SshKeyError('invalid') with a message that says
 * what to send instead.
 */
export function parsePublicKeyLine(text: string): ParsedPublicKey {
  if (text.length > MAX_KEY_LINE_CHARS) {
    throw new SshKeyError('invalid', `publicKey is longer than ${MAX_KEY_LINE_CHARS} characters`);
  }
  if (/PRIVATE KEY/.test(text)) {
    throw new SshKeyError(
      'invalid',
      'publicKey is a private key: send the public half (the .pub file) and keep the private key secret',
    );
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (lines.length === 0) throw new SshKeyError('invalid', 'publicKey is empty');
  if (lines.length > 1) {
    throw new SshKeyError(
      'invalid',
      'publicKey must hold exactly one key line; register keys one at a time',
    );
  }
  const line = lines[0]!;
  const match = /^(\S+)\s+(\S+)(?:\s+(.*))?$/.exec(line);
  if (!match) {
    throw new SshKeyError(
      'invalid',
      'publicKey must look like "<type> <base64> [comment]", e.g. "ssh-ed25519 AAAAC3… me@laptop"',
    );
  }
  const [, type = '', base64 = '', rawComment] = match;
  if (!isAcceptedType(type)) {
    const hint =
      type.includes('=') || type.includes('"')
        ? ' (authorized_keys options are not supported)'
        : '';
    throw new SshKeyError(
      'invalid',
      `unsupported key type "${type.slice(0, 64)}"${hint}; accepted: ${ACCEPTED_KEY_TYPES.join(', ')}`,
    );
  }
  // Strict base64: Node's decoder skips bad characters silently, so compare the round trip.
  const blob = Buffer.from(base64, 'base64');
  if (
    !/^[A-Za-z0-9+/]+={0,2}$/.test(base64) ||
    blob.length === 0 ||
    blob.toString('base64') !== base64
  ) {
    throw new SshKeyError('invalid', 'the key data is not valid base64');
  }
  const inner = readWireString(blob, 0);
  if (inner?.value.toString('latin1') !== type) {
    throw new SshKeyError('invalid', `the key data is not a ${type} key`);
  }
  const parsed = ssh2().utils.parseKey(`${type} ${base64}`);
  if (parsed instanceof Error || Array.isArray(parsed)) {
    throw new SshKeyError(
      'invalid',
      `the key data is malformed: ${parsed instanceof Error ? parsed.message : 'several keys'}`,
    );
  }
  if (parsed.isPrivateKey() || parsed.type !== type) {
    throw new SshKeyError('invalid', 'the key data is malformed');
  }
  if (type === 'ssh-rsa') {
    const bits = rsaModulusBits(blob);
    if (bits < MIN_RSA_BITS) {
      throw new SshKeyError(
        'invalid',
        `RSA keys need at least ${MIN_RSA_BITS} bits; this one has ${bits}`,
      );
    }
  }
  const comment = (rawComment ?? '').trim();
  if (comment.length > MAX_COMMENT_CHARS) {
    throw new SshKeyError(
      'invalid',
      `the key comment is longer than ${MAX_COMMENT_CHARS} characters`,
    );
  }
  if (hasControlCharacters(comment)) {
    throw new SshKeyError('invalid', 'the key comment contains control characters');
  }
  return { type, blob, comment, parsed };
}

/** The optional `name` label: trimmed, bounded, printable. */
export function checkKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length > MAX_NAME_CHARS) {
    throw new SshKeyError('invalid', `name is longer than ${MAX_NAME_CHARS} characters`);
  }
  if (hasControlCharacters(trimmed))
    throw new SshKeyError('invalid', 'name contains control characters');
  return trimmed;
}

export interface KeyRegistryLimits {
  perSub: number;
  total: number;
}

/**
 * The authorized keys, in memory only (gone when the sandbox stops). A key authenticates exactly one
 * subject: the one that registered it. Authentication looks keys up by their blob in one Map.
 */
export class SshKeyRegistry {
  /** Keyed by the blob in base64: one hash lookup per authentication attempt. */
  private readonly byBlob = new Map<string, RegisteredKey>();
  private readonly byId = new Map<string, RegisteredKey>();
  private readonly bySub = new Map<string, Map<string, RegisteredKey>>();

  constructor(
    private readonly limits: KeyRegistryLimits = {
      perSub: MAX_KEYS_PER_SUB,
      total: MAX_KEYS_TOTAL,
    },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Registers a key line for `sub`. Registering a key the same subject already has returns that
   * record with `created: false`; a key another subject registered is a conflict.
   */
  register(sub: string, publicKey: string, name = ''): { record: SshKeyRecord; created: boolean } {
    const key = parsePublicKeyLine(publicKey);
    const label = checkKeyName(name);
    const existing = this.byBlob.get(key.blob.toString('base64'));
    if (existing) {
      if (existing.sub === sub) return { record: { ...existing.record }, created: false };
      throw new SshKeyError(
        'conflict',
        'this key is registered by another user; a key authenticates one user only',
      );
    }
    const id = keyIdOf(key.blob);
    if (this.byId.has(id)) {
      // Two different blobs sharing 64 bits of SHA-256: not expected to ever happen.
      throw new SshKeyError(
        'conflict',
        'a different key with the same id is registered; generate a new key',
      );
    }
    const own = this.bySub.get(sub);
    if ((own?.size ?? 0) >= this.limits.perSub) {
      throw new SshKeyError(
        'limit',
        `you have ${this.limits.perSub} keys already; delete one first`,
      );
    }
    if (this.byBlob.size >= this.limits.total) {
      throw new SshKeyError(
        'full',
        `this sandbox holds ${this.limits.total} SSH keys, its limit; ask its users to delete keys they no longer use`,
      );
    }
    const record: SshKeyRecord = {
      id,
      type: key.type,
      fingerprint: fingerprintOf(key.blob),
      comment: key.comment,
      name: label,
      createdAt: this.now().toISOString(),
    };
    const stored: RegisteredKey = { record, sub, blob: key.blob, parsed: key.parsed };
    this.byBlob.set(key.blob.toString('base64'), stored);
    this.byId.set(id, stored);
    const keys = own ?? new Map<string, RegisteredKey>();
    keys.set(id, stored);
    this.bySub.set(sub, keys);
    return { record: { ...record }, created: true };
  }

  /** The subject's own keys, oldest first. */
  list(sub: string): SshKeyRecord[] {
    return [...(this.bySub.get(sub)?.values() ?? [])].map((k) => ({ ...k.record }));
  }

  /** Removes one of the subject's keys; false when it has no key with that id (someone else's included). */
  remove(sub: string, id: string): boolean {
    const own = this.bySub.get(sub);
    const key = own?.get(id);
    if (!own || !key) return false;
    own.delete(id);
    if (own.size === 0) this.bySub.delete(sub);
    this.byId.delete(id);
    this.byBlob.delete(key.blob.toString('base64'));
    return true;
  }

  /** The registered key with this wire-format blob, for authentication. */
  lookup(blob: Buffer): RegisteredKey | undefined {
    return this.byBlob.get(blob.toString('base64'));
  }

  get size(): number {
    return this.byBlob.size;
  }
}
