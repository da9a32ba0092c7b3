import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { joseOnDemand } from './jose-on-demand.js';

/**
 * The signing side of the sandbox's identity proof (docs/decisions/0017): whatever proxies to a
 * sandbox's human API (the dashboard, the local platform's door, tests) signs a short-lived token
 * over the caller's identity for one sandbox; the sandbox verifies it with the public key.
 */

/** The header that carries the proof, as HTTP spells it; Node presents it lower-cased. */
export const PROOF_HEADER = 'X-Paddock-Proof';
/** Longest lifetime (exp - iat) a proof token may claim: a stolen one is worth minutes at most. */
export const PROOF_MAX_LIFETIME_SECONDS = 300;
/** Lifetime of the tokens `signIdentityProof` mints unless told otherwise. */
export const PROOF_DEFAULT_LIFETIME_SECONDS = 60;
/** Signature algorithms accepted: Ed25519 and P-256, both asymmetric. */
export const PROOF_ALGORITHMS = ['EdDSA', 'ES256'] as const;

/** The algorithm of a proof key: EdDSA for Ed25519, ES256 for P-256; others are refused. */
export function proofAlgorithmOf(key: KeyObject): (typeof PROOF_ALGORITHMS)[number] {
  if (key.asymmetricKeyType === 'ed25519') return 'EdDSA';
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') {
    return 'ES256';
  }
  throw new Error('the proof key must be an Ed25519 or a P-256 (prime256v1) key');
}

/** Who a proof speaks for: the sandbox's X-Forwarded-Sub, -User and -Groups. */
export interface ProofIdentity {
  sub: string;
  user?: string | undefined;
  groups?: readonly string[];
}

export interface SignProofOptions {
  /** The proxy's private key (Ed25519 or P-256). */
  privateKey: KeyObject;
  /** The sandbox the proof is for: its SVC_API_PROOF_AUDIENCE. */
  audience: string;
  identity: ProofIdentity;
  /** At most PROOF_MAX_LIFETIME_SECONDS; PROOF_DEFAULT_LIFETIME_SECONDS when not given. */
  lifetimeSeconds?: number;
  now?: Date;
}

/**
 * Mints the proof a proxy sends in X-Paddock-Proof: a JWT over sub, user and groups for one
 * sandbox (aud), valid for a minute by default.
 */
export async function signIdentityProof(options: SignProofOptions): Promise<string> {
  const lifetime = options.lifetimeSeconds ?? PROOF_DEFAULT_LIFETIME_SECONDS;
  if (!(lifetime > 0 && lifetime <= PROOF_MAX_LIFETIME_SECONDS)) {
    throw new RangeError(`lifetimeSeconds must be from 1 to ${PROOF_MAX_LIFETIME_SECONDS}`);
  }
  const iat = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const { identity } = options;
  const { SignJWT } = await joseOnDemand();
  return new SignJWT({
    ...(identity.user !== undefined ? { user: identity.user } : {}),
    groups: [...(identity.groups ?? [])],
  })
    .setProtectedHeader({ alg: proofAlgorithmOf(options.privateKey), typ: 'JWT' })
    .setSubject(identity.sub)
    .setAudience(options.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + lifetime)
    .sign(options.privateKey);
}

/** A fresh Ed25519 key pair for a proxy: the private key signs, the PEM goes to the sandbox. */
export function createProofKeys(): { privateKey: KeyObject; publicKeyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return { privateKey, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}
