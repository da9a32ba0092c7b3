import type { IncomingMessage } from 'node:http';
import type { Logger } from '@paddock/common';
import { errors } from '../api/api-error.js';
import type { Decision, RequestAttributes, TokenAuthority, UserInfo } from '../contracts.js';
import { adminTokenMatches, adminUser } from '../auth/admin-token.js';
import { actAs, userText } from '../auth/impersonation.js';

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

/**
 * Who a request runs as: its bearer (401 without one), or the identity its Impersonate-* headers
 * ask for once the bearer may impersonate it (400 or 403 otherwise). An impersonated request is
 * logged with both, as Kubernetes' audit records `user` and `impersonatedUser`.
 */
export async function requestUser(
  req: IncomingMessage,
  deps: {
    authenticate: Authenticator;
    authorize: (user: UserInfo, attributes: RequestAttributes) => Decision;
    logger: Logger;
  },
): Promise<UserInfo> {
  const caller = await deps.authenticate(req.headers.authorization);
  if (!caller) throw errors.unauthorized();
  const { user, impersonator } = actAs(caller, req.headersDistinct, deps.authorize);
  if (impersonator) {
    deps.logger.info(
      {
        method: req.method,
        url: req.url,
        user: userText(impersonator),
        impersonatedUser: userText(user),
      },
      'impersonation',
    );
  }
  return user;
}
