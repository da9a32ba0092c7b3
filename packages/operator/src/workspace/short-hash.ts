import { createHash } from 'node:crypto';

/** The first `length` hex digits of the SHA-256 of `text`: stable across processes and versions. */
export function shortHash(text: string, length = 10): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}
