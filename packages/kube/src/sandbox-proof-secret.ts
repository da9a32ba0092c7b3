import { createPrivateKey, createPublicKey } from 'node:crypto';

/**
 * Where the key pair that signs the sandboxes' identity proofs lives. The operator makes the
 * Secret PROOF_SECRET_NAME in the platform namespace with the Ed25519 private key under
 * PROOF_SIGNING_KEY (for whatever signs proofs: the dashboard, the local platform's door) and the
 * public key under PROOF_SECRET_KEY; each namespace running agents gets a copy of the same name
 * holding the public key only, which the agents' pods read.
 */
export const PROOF_SECRET_NAME = 'paddock-sandbox-proof';
export const PROOF_SECRET_KEY = 'public-key';
export const PROOF_SIGNING_KEY = 'private-key';

/** PEM text: the private key as PKCS#8, the public key as SPKI. */
export interface ProofKeyPair {
  privateKey: string;
  publicKey: string;
}

/**
 * The key pair of the platform Secret's data (base64, as the API server returns it), the public
 * key derived from the private one (so a wrong or missing public-key entry is corrected), or
 * undefined when it holds no Ed25519 private key.
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
