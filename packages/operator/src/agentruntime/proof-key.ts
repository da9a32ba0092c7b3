import { createHash, generateKeyPairSync } from 'node:crypto';
import {
  PROOF_SECRET_KEY,
  PROOF_SECRET_NAME,
  PROOF_SIGNING_KEY,
  proofKeysOf,
  type ProofKeyPair,
} from '@paddock/kube';
import { LABEL_MANAGED_BY, MANAGED_BY } from '../workspace/ownership.js';
import { LABEL_APP_PART_OF } from './agent-labels.js';

/**
 * The key pair that signs identity proofs for the sandboxes' human API, kept where
 * @paddock/kube's PROOF_SECRET_NAME says: both keys in the platform namespace, the public key only
 * in each namespace running agents.
 */
export { PROOF_SIGNING_KEY, proofKeysOf, type ProofKeyPair };

export interface SecretObject {
  apiVersion: 'v1';
  kind: 'Secret';
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  type: 'Opaque';
  /** Base64, as the API server stores it, so that a read compares with what was written. */
  data: Record<string, string>;
}

/** A new Ed25519 key pair, as the sandbox and the signers read it. */
export function newProofKeyPair(): ProofKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  return {
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function proofSecret(namespace: string, data: Record<string, string>): SecretObject {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: PROOF_SECRET_NAME,
      namespace,
      labels: { [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_APP_PART_OF]: 'paddock' },
    },
    type: 'Opaque',
    data,
  };
}

/** The platform namespace's Secret: both keys. */
export function platformProofSecret(namespace: string, keys: ProofKeyPair): SecretObject {
  return proofSecret(namespace, {
    [PROOF_SIGNING_KEY]: base64(keys.privateKey),
    [PROOF_SECRET_KEY]: base64(keys.publicKey),
  });
}

/** An agent namespace's Secret: the public key only, which the agents' pods read. */
export function namespaceProofSecret(namespace: string, publicKey: string): SecretObject {
  return proofSecret(namespace, { [PROOF_SECRET_KEY]: base64(publicKey) });
}

/** A short digest of the public key, for the pod template annotation. */
export function proofKeyFingerprint(publicKey: string): string {
  return createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
}
