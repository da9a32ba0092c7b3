import { hash, verify, type Options } from '@node-rs/argon2';

/**
 * argon2id at OWASP's recommended cost (19 MiB of memory, 2 passes, 1 lane). The parameters are
 * stored in each hash, so raising them later still verifies older hashes.
 */
export const ARGON2_OPTIONS: Options = {
  // Algorithm is a const enum, which isolated modules cannot read: 2 is Argon2id.
  algorithm: 2,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
};

/** Longest password taken: hashing cost is flat, but a megabyte body is no password. */
export const MAX_PASSWORD_CHARS = 1024;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for a hash that cannot be read, never a throw. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * Spends the time of one verification against a hash nobody's password matches, so that an
 * unknown user takes as long to refuse as a wrong password.
 */
export async function verifyAgainstNothing(password: string): Promise<void> {
  dummy ??= hashPassword('paddock: no account has this password');
  await verifyPassword(await dummy, password);
}
