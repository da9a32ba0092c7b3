import { createRequire } from 'node:module';
import type * as Ssh2Module from 'ssh2';

type Ssh2 = typeof Ssh2Module;

/**
 * `load`, run on the first call and kept; a failed load throws an error naming `what` (and is
 * tried again by the next call).
 */
export function onDemand<T>(what: string, load: () => T): () => T {
  let loaded: T | undefined;
  return () => {
    if (loaded !== undefined) return loaded;
    try {
      return (loaded = load());
    } catch (err) {
      throw new Error(`${what} could not be loaded: ${(err as Error).message}`, { cause: err });
    }
  };
}

const requireHere = createRequire(import.meta.url);

/**
 * ssh2, required on first use (the host key, the first connection, the first key registered), not
 * at start: with -enable-ssh the listener accepts at once, but a sandbox nobody reaches by SSH never
 * holds the library.
 */
export const ssh2: () => Ssh2 = onDemand(
  'the SSH library (ssh2)',
  () => requireHere('ssh2') as Ssh2,
);
