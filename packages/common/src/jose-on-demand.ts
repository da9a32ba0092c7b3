import type * as Jose from 'jose';

/**
 * jose, loaded on the first proof signed or verified: it costs about 3 MiB once loaded, and every
 * service imports this package while only some sign or verify proofs (a sandbox without -api-addr
 * never does).
 */
let jose: Promise<typeof Jose> | undefined;

export function joseOnDemand(): Promise<typeof Jose> {
  return (jose ??= import('jose'));
}
