import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
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

/** Secret files (the database, tokens, keys, kubeconfigs): the owner may read and write them. */
export const SECRET_FILE_MODE = 0o600;
/** The data folder: only its owner may list or enter it. */
export const DATA_FOLDER_MODE = 0o700;

/**
 * Writes a secret file readable by its owner only, whole or not at all: the content goes to a new
 * file created with mode 0600 (so there is no moment when it is readable by others, even when an
 * older file was), which then replaces the old one.
 */
export async function writeSecretFile(file: string, content: string): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content, { mode: SECRET_FILE_MODE, flag: 'wx' });
    // The mode given at creation is narrowed by the umask, never widened; this makes it exact.
    await chmod(temporary, SECRET_FILE_MODE);
    await rename(temporary, file);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
}

/** Creates the data folder 0700, and makes an existing one 0700: it holds every secret. */
export async function preparePrivateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DATA_FOLDER_MODE });
  await chmod(dir, DATA_FOLDER_MODE);
}

/** A secret file's content, made the owner's only (an earlier version may have left it open). */
async function readSecretFile(file: string): Promise<string | undefined> {
  try {
    await chmod(file, SECRET_FILE_MODE);
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
  await preparePrivateFolder(dir);
  const tokenFile = join(dir, DATA_FILES.adminToken);
  let adminToken = (await readSecretFile(tokenFile))?.trim();
  if (!adminToken) {
    adminToken = newAdminToken();
    await writeSecretFile(tokenFile, `${adminToken}\n`);
  }
  const keyFile = join(dir, DATA_FILES.signingKey);
  const stored = await readSecretFile(keyFile);
  let signingKey: SigningKey;
  if (stored) {
    signingKey = await signingKeyFromJwk(JSON.parse(stored) as JWK);
  } else {
    signingKey = await generateSigningKey();
    await writeSecretFile(keyFile, `${JSON.stringify(await signingKeyToJwk(signingKey))}\n`);
  }
  const certificateFile = join(dir, DATA_FILES.certificate);
  const storedCertificate = await readSecretFile(certificateFile);
  let certificate = storedCertificate ? (JSON.parse(storedCertificate) as Certificate) : undefined;
  if (!certificate || hosts.some((h) => !certificate!.hosts.includes(h))) {
    certificate = selfSignedCertificate(hosts);
    await writeSecretFile(certificateFile, `${JSON.stringify(certificate)}\n`);
  }
  return { adminToken, signingKey, certificate };
}
