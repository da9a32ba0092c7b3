import {
  AlreadyExistsError,
  NotFoundError,
  type KubeObject,
  type ResourceClient,
} from '@paddock/kube';
import {
  PROOF_SECRET_KEY,
  PROOF_SECRET_NAME,
  PROOF_SIGNING_KEY,
  namespaceProofSecret,
  newProofKeyPair,
  platformProofSecret,
  proofKeysOf,
  type SecretObject,
} from '../../agentruntime/index.js';
import { covers } from '../workspace/covers.js';
import { getIfExists, mergeInto } from '../workspace/ensure-object.js';

type Secret = SecretObject & KubeObject;

/**
 * The identity-proof Secrets: the key pair in the platform namespace, made when missing and never
 * rotated otherwise (deleting it makes a new one), and its public key copied into each namespace
 * that runs agents. Secrets are read by name (get), never listed or watched: the operator may read
 * no other Secret.
 */
export class ProofSecrets {
  constructor(
    private readonly secrets: ResourceClient<Secret>,
    private readonly platformNamespace: string,
    /** Called after a new key pair was made: every copy must then be updated. */
    private readonly onNewKey: () => void,
  ) {}

  /** The public key (PEM) agents' pods verify proofs with; the pair is made when missing. */
  async publicKey(): Promise<string> {
    const namespace = this.platformNamespace;
    let found = await getIfExists(this.secrets, PROOF_SECRET_NAME, namespace);
    if (found === undefined) {
      const keys = newProofKeyPair();
      try {
        await this.secrets.create(platformProofSecret(namespace, keys));
        this.onNewKey();
        return keys.publicKey;
      } catch (err) {
        if (err instanceof NotFoundError) {
          throw new Error(
            `the namespace ${namespace} does not exist: the operator keeps the identity-proof key pair there (SVC_OPERATOR_NAMESPACE)`,
            { cause: err },
          );
        }
        // Another pass made it first: use theirs.
        if (!(err instanceof AlreadyExistsError)) throw err;
        found = await this.secrets.get(PROOF_SECRET_NAME, namespace);
      }
    }
    const keys = proofKeysOf(found.data);
    if (keys === undefined) {
      throw new Error(
        `Secret ${namespace}/${PROOF_SECRET_NAME} holds no Ed25519 private key (PKCS#8 PEM) under ${PROOF_SIGNING_KEY}: delete it and the operator makes a new key pair`,
      );
    }
    const desired = platformProofSecret(namespace, keys);
    // A public key that does not match the private one is corrected; nothing else is touched.
    if (!covers(found.data?.[PROOF_SECRET_KEY], desired.data[PROOF_SECRET_KEY])) {
      await this.secrets.replace({
        ...found,
        data: { ...found.data, [PROOF_SECRET_KEY]: desired.data[PROOF_SECRET_KEY] ?? '' },
      });
    }
    return keys.publicKey;
  }

  /** Makes the namespace's copy hold `publicKey`, writing only when it does not. */
  async ensureCopy(namespace: string, publicKey: string): Promise<void> {
    // The platform Secret holds the public key already, under the same name and key.
    if (namespace === this.platformNamespace) return;
    const desired = namespaceProofSecret(namespace, publicKey);
    let found = await getIfExists(this.secrets, PROOF_SECRET_NAME, namespace);
    if (found === undefined) {
      try {
        await this.secrets.create(desired);
        return;
      } catch (err) {
        if (!(err instanceof AlreadyExistsError)) throw err;
        found = await this.secrets.get(PROOF_SECRET_NAME, namespace);
      }
    }
    if (covers(found, desired) && Object.keys(found.data ?? {}).length === 1) return;
    await this.secrets.replace(mergeInto(found, desired));
  }
}
