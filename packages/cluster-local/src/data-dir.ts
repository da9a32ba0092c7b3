import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { selfSignedCertificate, type Certificate } from './tls/self-signed-certificate.js';
import {
  generateSigningKey,
  signingKeyFromJwk,
  signingKeyToJwk,
  type SigningKey,
} from './auth/tokens.js';

/** The files of a --data folder. */
export const DATA_FILES = {
  database: 'cluster.db',
  adminToken: 'admin-token',
  signingKey: 'service-account-key.json',
  certificate: 'tls.json',
};

/** Writes a secret file readable by its owner only. */
export async function writeSecretFile(file: string, content: string): Promise<void> {
  await writeFile(file, content, { mode: 0o600 });
  // The mode above only applies to a new file.
  await chmod(file, 0o600);
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

export function newAdminToken(): string {
  return randomBytes(32).toString('base64url');
}

export interface Secrets {
  adminToken: string;
  signingKey: SigningKey;
  certificate: Certificate;
}

/**
 * The admin token, the ServiceAccount signing key and the TLS certificate (for `hosts`): kept in the
 * folder, made at first start (the certificate again when the hosts change).
 */
export async function loadSecrets(
  dir: string | undefined,
  hosts: readonly string[],
): Promise<Secrets> {
  if (dir === undefined) {
    return {
      adminToken: newAdminToken(),
      signingKey: await generateSigningKey(),
      certificate: selfSignedCertificate(hosts),
    };
  }
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const tokenFile = join(dir, DATA_FILES.adminToken);
  let adminToken = (await readIfExists(tokenFile))?.trim();
  if (!adminToken) {
    adminToken = newAdminToken();
    await writeSecretFile(tokenFile, `${adminToken}\n`);
  }
  const keyFile = join(dir, DATA_FILES.signingKey);
  const stored = await readIfExists(keyFile);
  let signingKey: SigningKey;
  if (stored) {
    signingKey = await signingKeyFromJwk(JSON.parse(stored) as JWK);
  } else {
    signingKey = await generateSigningKey();
    await writeSecretFile(keyFile, `${JSON.stringify(await signingKeyToJwk(signingKey))}\n`);
  }
  const certificateFile = join(dir, DATA_FILES.certificate);
  const storedCertificate = await readIfExists(certificateFile);
  let certificate = storedCertificate ? (JSON.parse(storedCertificate) as Certificate) : undefined;
  if (!certificate || hosts.some((h) => !certificate!.hosts.includes(h))) {
    certificate = selfSignedCertificate(hosts);
    await writeSecretFile(certificateFile, `${JSON.stringify(certificate)}\n`);
  }
  return { adminToken, signingKey, certificate };
}
