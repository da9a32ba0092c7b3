import { createHash, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import {
  ConfigError,
  PROOF_ALGORITHMS,
  PROOF_HEADER,
  PROOF_MAX_LIFETIME_SECONDS,
  proofAlgorithmOf,
} from '@paddock/common';
import { errors as joseErrors, jwtVerify } from 'jose';
import { identityFromHeaders, type Identity } from './identity.js';

/**
 * The proof that a request to the human-facing listener came through the auth-terminating proxy:
 * either a short-lived token the proxy signed (its public key is given to the sandbox), or, for a
 * generic reverse proxy that cannot sign, a static secret of which the sandbox holds only the
 * SHA-256. See docs/decisions/0017-sandbox-identity-proof.md.
 */

const PROOF_HEADER_KEY = PROOF_HEADER.toLowerCase();
/** Clock difference tolerated between the proxy and the sandbox, on iat, nbf and exp. */
export const PROOF_CLOCK_SKEW_SECONDS = 30;
/** Longest proof header read; a signed token with a long group list stays far below it. */
export const MAX_PROOF_CHARS = 8 * 1024;

/** How the sandbox checks the proof; undefined (no proof) exists only in dev mode. */
export type ProofVerifier =
  | { mode: 'token'; publicKey: KeyObject; audience: string }
  | { mode: 'secret'; secretSha256: Buffer };

export type ProofOutcome = { ok: true; identity: Identity } | { ok: false; reason: string };

/** The claims of a proof token beyond the registered ones. */
interface ProofClaims {
  sub?: unknown;
  user?: unknown;
  groups?: unknown;
  iat?: unknown;
  exp?: unknown;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  const trimmed = text?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function sha256(text: string | Buffer): Buffer {
  return createHash('sha256').update(text).digest();
}

const MISSING = `a valid ${PROOF_HEADER} header is required: reach the sandbox through its proxy`;

/**
 * Decides whether a request carries a valid proof and who it is for. Token mode: the identity is
 * the token's (sub, user, groups), and any X-Forwarded-* header given must say the same. Secret
 * mode: the secret must match, and the identity is the X-Forwarded-* headers'.
 */
export async function verifyProof(
  headers: IncomingHttpHeaders,
  verifier: ProofVerifier,
  now: Date = new Date(),
): Promise<ProofOutcome> {
  const proof = headerValue(headers, PROOF_HEADER_KEY);
  if (proof === undefined || proof.length > MAX_PROOF_CHARS) return { ok: false, reason: MISSING };
  if (verifier.mode === 'secret') {
    if (!timingSafeEqual(sha256(proof), verifier.secretSha256)) {
      return { ok: false, reason: MISSING };
    }
    const identity = identityFromHeaders(headers, false);
    return identity
      ? { ok: true, identity }
      : { ok: false, reason: 'the X-Forwarded-Sub header is required' };
  }
  let claims: ProofClaims;
  try {
    ({ payload: claims } = await jwtVerify(proof, verifier.publicKey, {
      algorithms: [...PROOF_ALGORITHMS],
      audience: verifier.audience,
      clockTolerance: PROOF_CLOCK_SKEW_SECONDS,
      maxTokenAge: PROOF_MAX_LIFETIME_SECONDS,
      requiredClaims: ['sub', 'iat', 'exp'],
      currentDate: now,
    }));
  } catch (err) {
    const why =
      err instanceof joseErrors.JWTExpired
        ? 'the proof has expired'
        : err instanceof joseErrors.JWTClaimValidationFailed
          ? `the proof is not valid here (${err.claim})`
          : 'the proof is not valid';
    return { ok: false, reason: `${why}; reach the sandbox through its proxy` };
  }
  const identity = identityOfClaims(claims);
  if (!identity) return { ok: false, reason: 'the proof names no valid identity' };
  const mismatch = headerMismatch(headers, identity);
  if (mismatch) return { ok: false, reason: `${mismatch} does not match the proof` };
  return { ok: true, identity };
}

/** The identity a token's claims carry, or undefined when they are malformed or too long-lived. */
export function identityOfClaims(claims: ProofClaims): Identity | undefined {
  const { sub, user, groups, iat, exp } = claims;
  if (typeof sub !== 'string' || sub.trim() === '' || sub !== sub.trim()) return undefined;
  if (user !== undefined && typeof user !== 'string') return undefined;
  if (
    groups !== undefined &&
    !(Array.isArray(groups) && groups.every((g) => typeof g === 'string'))
  ) {
    return undefined;
  }
  if (typeof iat !== 'number' || typeof exp !== 'number') return undefined;
  if (exp - iat > PROOF_MAX_LIFETIME_SECONDS) return undefined;
  return {
    sub,
    user: user === '' ? undefined : user,
    groups: (groups ?? []).map((g) => g.trim()).filter((g) => g !== ''),
  };
}

/**
 * The first X-Forwarded-* header that is present and says something else than the proof, if any.
 * Absent headers are fine: the identity comes from the token.
 */
export function headerMismatch(
  headers: IncomingHttpHeaders,
  identity: Identity,
): string | undefined {
  const sub = headerValue(headers, 'x-forwarded-sub');
  if (sub !== undefined && sub !== identity.sub) return 'X-Forwarded-Sub';
  const user = headerValue(headers, 'x-forwarded-user');
  if (user !== undefined && user !== identity.user) return 'X-Forwarded-User';
  const groups = headerValue(headers, 'x-forwarded-groups');
  if (groups !== undefined) {
    const given = groups
      .split(',')
      .map((g) => g.trim())
      .filter((g) => g !== '');
    if (given.join(',') !== identity.groups.join(',')) return 'X-Forwarded-Groups';
  }
  return undefined;
}

/** The SHA-256 (hex) of a static proxy secret: the value of SVC_API_PROXY_SECRET_SHA256. */
export function proxySecretDigest(secret: string): string {
  return sha256(secret).toString('hex');
}

export interface ProofSettings {
  SVC_API_PROOF_PUBLIC_KEY: string | undefined;
  SVC_API_PROOF_AUDIENCE: string | undefined;
  SVC_API_PROXY_SECRET_SHA256: string | undefined;
}

/**
 * The verifier the variables describe, undefined when none is set, or the list of problems. Pure
 * but for parsing the key.
 */
export function proofVerifierFrom(
  settings: ProofSettings,
): { verifier: ProofVerifier | undefined } | { problems: string[] } {
  const key = settings.SVC_API_PROOF_PUBLIC_KEY;
  const audience = settings.SVC_API_PROOF_AUDIENCE;
  const digest = settings.SVC_API_PROXY_SECRET_SHA256;
  const problems: string[] = [];
  if (key !== undefined && digest !== undefined) {
    problems.push(
      'SVC_API_PROOF_PUBLIC_KEY and SVC_API_PROXY_SECRET_SHA256 are exclusive: set one',
    );
  }
  if (key !== undefined) {
    if (audience === undefined || audience.trim() === '') {
      problems.push('SVC_API_PROOF_AUDIENCE is required with SVC_API_PROOF_PUBLIC_KEY');
    }
    let publicKey: KeyObject | undefined;
    try {
      publicKey = createPublicKey(key.includes('-----BEGIN') ? key : Buffer.from(key, 'base64'));
      if (publicKey.type !== 'public') throw new Error('not a public key');
      proofAlgorithmOf(publicKey);
    } catch (err) {
      problems.push(
        `SVC_API_PROOF_PUBLIC_KEY: not an Ed25519 or P-256 public key in PEM (${(err as Error).message})`,
      );
    }
    if (problems.length > 0) return { problems };
    return { verifier: { mode: 'token', publicKey: publicKey!, audience: audience!.trim() } };
  }
  if (audience !== undefined) {
    problems.push('SVC_API_PROOF_AUDIENCE is set without SVC_API_PROOF_PUBLIC_KEY');
  }
  if (digest !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(digest.trim())) {
      problems.push('SVC_API_PROXY_SECRET_SHA256: must be 64 hex digits (sha256sum of the secret)');
    }
    if (problems.length > 0) return { problems };
    return { verifier: { mode: 'secret', secretSha256: Buffer.from(digest.trim(), 'hex') } };
  }
  return problems.length > 0 ? { problems } : { verifier: undefined };
}

/**
 * The proof the human API requires: the configured one; none only in dev mode. Outside dev mode a
 * human API without a proof would believe anyone's X-Forwarded-Sub, so the sandbox refuses to start.
 */
export function apiProofFor(devMode: boolean, settings: ProofSettings): ProofVerifier | undefined {
  const found = proofVerifierFrom(settings);
  if ('problems' in found) throw new ConfigError(found.problems);
  if (found.verifier === undefined && !devMode) {
    throw new ConfigError([
      'the human API (-api-addr) requires a proof of the proxy in front of it: set SVC_API_PROOF_PUBLIC_KEY and SVC_API_PROOF_AUDIENCE (a proxy that signs tokens), or SVC_API_PROXY_SECRET_SHA256 (a proxy that sends a static secret); see docs/sandbox/remote-access.md',
    ]);
  }
  return found.verifier;
}
