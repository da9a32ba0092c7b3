import { randomUUID } from 'node:crypto';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { TokenAuthority, UserInfo } from '../contracts.js';
import { serviceAccountUsername } from '../rbac/rule-resolver.js';

export { adminTokenMatches, adminUser } from './admin-token.js';

/**
 * ServiceAccount tokens shaped like Kubernetes' bound tokens (the TokenRequest API): ES256 JWTs
 * whose `kubernetes.io` claim names the ServiceAccount and its uid, so a token dies with the
 * account it was issued for.
 */

export const DEFAULT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

const ALGORITHM = 'ES256';
/** Tolerated clock difference when checking exp and nbf; Kubernetes' own is small too. */
const CLOCK_TOLERANCE_SECONDS = 5;

export interface SigningKey {
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The `kid` header: the public key's JWK thumbprint. */
  keyId: string;
}

export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  return { privateKey, publicKey, keyId: await calculateJwkThumbprint(await exportJWK(publicKey)) };
}

/** The private JWK to store, so tokens stay valid across restarts. */
export async function signingKeyToJwk(key: SigningKey): Promise<JWK> {
  return { ...(await exportJWK(key.privateKey)), alg: ALGORITHM, kid: key.keyId };
}

export async function signingKeyFromJwk(jwk: JWK): Promise<SigningKey> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.d || !jwk.x || !jwk.y) {
    throw new Error('the service account signing key must be a private P-256 EC JWK');
  }
  const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
  const privateKey = await importJWK(
    { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y, d: jwk.d },
    ALGORITHM,
    { extractable: true },
  );
  const publicKey = await importJWK(publicJwk, ALGORITHM, { extractable: true });
  if (privateKey instanceof Uint8Array || publicKey instanceof Uint8Array) {
    throw new Error('the service account signing key must be an EC key');
  }
  return { privateKey, publicKey, keyId: await calculateJwkThumbprint(publicJwk) };
}

/** Whether the ServiceAccount a token names still exists with that uid. */
export type ServiceAccountLiveness = (namespace: string, name: string, uid: string) => boolean;

export interface TokenAuthorityOptions {
  /** The `iss` of issued tokens, and the only one accepted. */
  issuer?: string;
  /** The API server's audiences: a token must name one of them. Defaults to the issuer. */
  apiAudiences?: string[];
  /** Checked on every verify unless verify is given its own. */
  isServiceAccountLive?: ServiceAccountLiveness;
}

export interface ServiceAccountTokenAuthority extends TokenAuthority {
  readonly issuer: string;
  /** `now` is in milliseconds since the epoch, as in issue. */
  verify(
    token: string,
    now: number,
    isServiceAccountLive?: ServiceAccountLiveness,
  ): Promise<UserInfo | undefined>;
}

interface KubernetesClaim {
  namespace: string;
  serviceaccount: { name: string; uid: string };
}

export function createTokenAuthority(
  key: SigningKey,
  options: TokenAuthorityOptions = {},
): ServiceAccountTokenAuthority {
  const issuer = options.issuer ?? DEFAULT_ISSUER;
  const apiAudiences = options.apiAudiences ?? [issuer];
  return {
    issuer,
    async issue(request) {
      const issuedAt = Math.floor(request.now / 1000);
      const expiresAt = issuedAt + request.expirationSeconds;
      const audiences = request.audiences?.length ? request.audiences : apiAudiences;
      const claim: KubernetesClaim = {
        namespace: request.namespace,
        serviceaccount: { name: request.serviceAccountName, uid: request.serviceAccountUid },
      };
      const token = await new SignJWT({ 'kubernetes.io': claim })
        .setProtectedHeader({ alg: ALGORITHM, kid: key.keyId })
        .setIssuer(issuer)
        .setSubject(serviceAccountUsername(request.namespace, request.serviceAccountName))
        .setAudience(audiences)
        .setIssuedAt(issuedAt)
        .setNotBefore(issuedAt)
        .setExpirationTime(expiresAt)
        .setJti(randomUUID())
        .sign(key.privateKey);
      return { token, expirationTimestamp: rfc3339(expiresAt) };
    },
    async verify(token, now, isServiceAccountLive = options.isServiceAccountLive) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, key.publicKey, {
          algorithms: [ALGORITHM],
          issuer,
          audience: apiAudiences,
          currentDate: new Date(now),
          clockTolerance: CLOCK_TOLERANCE_SECONDS,
          requiredClaims: ['exp', 'iat', 'nbf', 'sub'],
        }));
      } catch {
        return undefined;
      }
      const claim = kubernetesClaimOf(payload);
      if (!claim) return undefined;
      const { namespace } = claim;
      const { name, uid } = claim.serviceaccount;
      if (payload.sub !== serviceAccountUsername(namespace, name)) return undefined;
      if (isServiceAccountLive && !isServiceAccountLive(namespace, name, uid)) return undefined;
      return userOfServiceAccount(namespace, name, uid);
    },
  };
}

/** The user a ServiceAccount authenticates as, with the groups Kubernetes gives it. */
export function userOfServiceAccount(namespace: string, name: string, uid: string): UserInfo {
  return {
    username: serviceAccountUsername(namespace, name),
    uid,
    groups: [
      'system:serviceaccounts',
      `system:serviceaccounts:${namespace}`,
      'system:authenticated',
    ],
  };
}

function kubernetesClaimOf(payload: JWTPayload): KubernetesClaim | undefined {
  const claim = payload['kubernetes.io'] as Partial<KubernetesClaim> | undefined;
  const account = claim?.serviceaccount;
  if (typeof claim?.namespace !== 'string' || !claim.namespace) return undefined;
  if (typeof account?.name !== 'string' || !account.name || typeof account.uid !== 'string') {
    return undefined;
  }
  return { namespace: claim.namespace, serviceaccount: { name: account.name, uid: account.uid } };
}

/** Kubernetes' timestamps: RFC 3339 in UTC to the second. */
function rfc3339(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
