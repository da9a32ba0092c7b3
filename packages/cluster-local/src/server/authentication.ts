import type { TokenAuthority, UserInfo } from '../contracts.js';
import { adminTokenMatches, adminUser } from '../auth/admin-token.js';

export type Authenticator = (authorization: string | undefined) => Promise<UserInfo | undefined>;

/**
 * Bearer tokens: the admin token, or a ServiceAccount token from the token authority (which checks
 * expiry and that the account still exists). Anything else authenticates nobody.
 */
export function bearerAuthenticator(options: {
  adminToken: string;
  tokens: TokenAuthority;
  now: () => number;
}): Authenticator {
  return async (authorization) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) return undefined;
    const token = match[1]!;
    if (adminTokenMatches(token, options.adminToken)) return adminUser();
    return options.tokens.verify(token, options.now());
  };
}
