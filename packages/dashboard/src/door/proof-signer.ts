import { createPrivateKey, type KeyObject } from 'node:crypto';
import { signIdentityProof, type ProofIdentity } from '@paddock/common';
import { CORE_KINDS, NotFoundError, proofKeysOf, type Kube, type KubeObject } from '@paddock/kube';
import { ExpiringCache } from '../expiring-cache.js';
import { apiError } from '../http/errors.js';

/** A proof is signed for a minute and reused for half of that. */
export const PROOF_LIFETIME_SECONDS = 60;
export const PROOF_REUSE_MS = 30_000;
/** How long the signing key read from its Secret is used before it is read again (rotation). */
export const SIGNING_KEY_REFRESH_MS = 60_000;
/** Proofs kept for reuse: one per user and pod in use at once. */
const MAX_CACHED_PROOFS = 10_000;

type SecretObject = KubeObject & { data?: Record<string, string> };

/**
 * Signs the sandboxes' identity proofs with the key the operator keeps in a Secret of the platform
 * namespace, read with the dashboard's own identity. The key is read again every minute, so a
 * rotated key is followed; a proof is reused for half its minute, so a busy terminal or a file
 * feed costs no signature per request.
 */
export class ProofSigner {
  private key: { value: KeyObject; readAt: number } | undefined;
  private reading: Promise<KeyObject> | undefined;
  private readonly proofs = new ExpiringCache<string, string>(MAX_CACHED_PROOFS, PROOF_REUSE_MS);

  constructor(
    private readonly kube: Kube,
    private readonly secret: { namespace: string; name: string },
    private readonly now: () => number = Date.now,
  ) {}

  async proofFor(audience: string, identity: Required<ProofIdentity>): Promise<string> {
    const now = this.now();
    const cacheKey = JSON.stringify([audience, identity.sub, identity.user, identity.groups]);
    const cached = this.proofs.get(cacheKey, now);
    if (cached !== undefined) return cached;
    const proof = await signIdentityProof({
      privateKey: await this.signingKey(now),
      audience,
      identity,
      lifetimeSeconds: PROOF_LIFETIME_SECONDS,
      now: new Date(now),
    });
    this.proofs.set(cacheKey, proof, now);
    return proof;
  }

  private async signingKey(now: number): Promise<KeyObject> {
    if (this.key !== undefined && now - this.key.readAt < SIGNING_KEY_REFRESH_MS) {
      return this.key.value;
    }
    this.reading ??= this.readKey(now).finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async readKey(now: number): Promise<KeyObject> {
    const { namespace, name } = this.secret;
    let secret: SecretObject;
    try {
      secret = await this.kube.resource<SecretObject>(CORE_KINDS.secret).get(name, namespace);
    } catch (err) {
      if (err instanceof NotFoundError) {
        throw apiError(
          'unavailable',
          `the sandboxes' signing key (Secret ${namespace}/${name}) does not exist yet: is the operator running?`,
        );
      }
      throw apiError(
        'unavailable',
        `the sandboxes' signing key (Secret ${namespace}/${name}) could not be read: ${(err as Error).message}`,
      );
    }
    const keys = proofKeysOf(secret.data);
    if (keys === undefined) {
      throw apiError('unavailable', `the Secret ${namespace}/${name} holds no Ed25519 signing key`);
    }
    const value = createPrivateKey(keys.privateKey);
    this.key = { value, readAt: now };
    return value;
  }
}
