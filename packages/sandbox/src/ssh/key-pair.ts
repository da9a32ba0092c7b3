import { ssh2 } from './ssh2-on-demand.js';

/** An ed25519 key pair in the OpenSSH formats ssh2 reads (not node:crypto's PKCS8 export). */
export interface Ed25519KeyPair {
  /** The private key, OpenSSH format. */
  private: string;
  /** The public key as an `authorized_keys` line: `ssh-ed25519 <base64>`. */
  public: string;
}

/**
 * A fresh ed25519 key pair that ssh2 itself accepts. ssh2's generator drops leading zero bytes of
 * the public key, so about one key in 256 is one its own parser then rejects: such a pair is thrown
 * away for another.
 */
export function ed25519KeyPair(): Ed25519KeyPair {
  const { utils } = ssh2();
  for (let attempt = 0; ; attempt++) {
    const pair = utils.generateKeyPairSync('ed25519');
    const usable =
      !(utils.parseKey(pair.private) instanceof Error) &&
      !(utils.parseKey(pair.public) instanceof Error);
    if (usable) return { private: pair.private, public: pair.public };
    if (attempt >= 16) throw new Error('no usable ed25519 key pair could be generated');
  }
}
