import { createHash, createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { joseOnDemand } from './jose-on-demand.js';
import {
  PROOF_ALGORITHMS,
  PROOF_HEADER,
  PROOF_MAX_LIFETIME_SECONDS,
  proofAlgorithmOf,
} from './identity-proof.js';

/**
 * The checking side of the identity proof (docs/decisions/0017): that a request to a pod's
 * human-facing listener (the sandbox's human API, the agent's runs API) came through the
 * auth-terminating proxy. Either a short-lived token the proxy signed (its public key is given to
 * the service), or, for a generic reverse proxy that cannot sign, a static secret of which the
 * service holds only the SHA-256.
 */

const PROOF_HEADER_KEY = PROOF_HEADER.toLowerCase();
/** Clock difference tolerated between the proxy and the sandbox, on iat, nbf and exp. */
export const PROOF_CLOCK_SKEW_SECONDS = 30;
/** Longest proof header read; a signed token with a long group list stays far below it. */
export const MAX_PROOF_CHARS = 8 * 1024;

/** How a service checks the proof; undefined (no proof) exists only in dev mode. */
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

/** Who is calling, as the auth-terminating proxy in front of the service says. */
export interface Identity {
  /** X-Forwarded-Sub: the stable subject; audit identifier and owner of SSH keys. */
  sub: string;
  /** X-Forwarded-User, when given. */
  user: string | undefined;
  /** X-Forwarded-Groups, comma-separated; informational only. */
  groups: string[];
}

/** The placeholder identity of -dev-mode. */
export const DEV_IDENTITY: Identity = { sub: 'dev', user: 'dev', groups: [] };

/**
 * The caller's identity from the headers, or undefined when X-Forwarded-Sub is missing and dev mode
 * is off (the caller then gets 401 and no handler runs).
 */
export function identityFromHeaders(
  headers: IncomingHttpHeaders,
  devMode: boolean,
): Identity | undefined {
  const sub = headerValue(headers, 'x-forwarded-sub');
  if (sub === undefined) return devMode ? DEV_IDENTITY : undefined;
  const groups = (headerValue(headers, 'x-forwarded-groups') ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '');
  return { sub, user: headerValue(headers, 'x-forwarded-user'), groups };
}

function sha256(text: string | Buffer): Buffer {
  return createHash('sha256').update(text).digest();
}

/** What a refusal says: the way in is through the proxy in front of `service`. */
const missing = (service: string) =>
  `a valid ${PROOF_HEADER} header is required: reach ${service} through its proxy`;

/**
 * Decides whether a request carries a valid proof and who it is for. Token mode: the identity is
 * the token's (sub, user, groups), and any X-Forwarded-* header given must say the same. Secret
 * mode: the secret must match, and the identity is the X-Forwarded-* headers'.
 */
export async function verifyProof(
  headers: IncomingHttpHeaders,
  verifier: ProofVerifier,
  now: Date = new Date(),
  service = 'the sandbox',
): Promise<ProofOutcome> {
  const refused = missing(service);
  const proof = headerValue(headers, PROOF_HEADER_KEY);
  if (proof === undefined || proof.length > MAX_PROOF_CHARS) return { ok: false, reason: refused };
  if (verifier.mode === 'secret') {
    if (!timingSafeEqual(sha256(proof), verifier.secretSha256)) {
      return { ok: false, reason: refused };
    }
    const identity = identityFromHeaders(headers, false);
    return identity
      ? { ok: true, identity }
      : { ok: false, reason: 'the X-Forwarded-Sub header is required' };
  }
  const { errors: joseErrors, jwtVerify } = await joseOnDemand();
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
    return { ok: false, reason: `${why}; reach ${service} through its proxy` };
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
