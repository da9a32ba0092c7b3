import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { LABEL_MANAGED_BY, MANAGED_BY } from '../workspace/ownership.js';
import { LABEL_APP_PART_OF } from './agent-labels.js';
import { PROOF_SECRET_KEY, PROOF_SECRET_NAME } from './desired-statefulset.js';

/**
 * The key pair that signs identity proofs for the sandboxes' human API. One pair lives in the
 * platform namespace, in the Secret PROOF_SECRET_NAME: its private key under PROOF_SIGNING_KEY, for
 * whatever signs proofs there (the platform's door, the dashboard); its public key under
 * PROOF_SECRET_KEY. Each namespace running agents gets a copy holding the public key only.
 */
export const PROOF_SIGNING_KEY = 'private-key';

/** PEM text: the private key as PKCS#8, the public key as SPKI. */
export interface ProofKeyPair {
  privateKey: string;
  publicKey: string;
}

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

/**
 * The key pair of the platform Secret's data, the public key derived from the private one (so a
 * wrong or missing public-key entry is corrected), or undefined when it holds no Ed25519 private key.
 */
export function proofKeysOf(data: Record<string, string> | undefined): ProofKeyPair | undefined {
  const encoded = data?.[PROOF_SIGNING_KEY];
  if (encoded === undefined) return undefined;
  try {
    const privateKey = Buffer.from(encoded, 'base64').toString('utf8');
    const key = createPrivateKey(privateKey);
    if (key.asymmetricKeyType !== 'ed25519') return undefined;
    const publicKey = createPublicKey(key).export({ type: 'spki', format: 'pem' }).toString();
    return { privateKey, publicKey };
  } catch {
    return undefined;
  }
}

/** A short digest of the public key, for the pod template annotation. */
export function proofKeyFingerprint(publicKey: string): string {
  return createHash('sha256').update(publicKey).digest('hex').slice(0, 16);
}
