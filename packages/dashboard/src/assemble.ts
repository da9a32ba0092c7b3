import type { Logger, Mailer } from '@paddock/common';
import { apiKeySigningKey } from './auth/apikeys/format.js';
import { ApiKeys } from './auth/apikeys/service.js';
import { Authenticator, type VerifiedProfile } from './auth/authenticator.js';
import { ExternalUsers } from './auth/external-users.js';
import { SessionRevocations } from './auth/session-revocation.js';
import { trustedPeers } from './auth/proxy.js';
import { Accounts } from './builtin/accounts.js';
import { publicOrigin, type DashboardConfig } from './config.js';
import type { DashboardContext } from './http/context.js';
import { SessionCookies } from './http/session-cookies.js';
import type { OAuthLogin, OAuthProfile } from './oauth/login.js';
import type { Store } from './store/types.js';
import type { Workspaces } from './workspaces/service.js';

/** What the dashboard is made of that has I/O of its own: opened or connected by the caller. */
export interface DashboardParts {
  store: Store;
  logger: Logger;
  /** builtin mode: the account mails. */
  mailer?: Mailer;
  /** oauth mode: the provider's client. */
  oauth?: OAuthLogin;
  /** When a cluster is configured. */
  workspaces?: Workspaces;
}

function profileOf(profile: OAuthProfile): VerifiedProfile {
  return {
    subject: profile.subject,
    username: profile.username,
    email: profile.email ?? null,
    emailVerified: profile.emailVerified === true,
    displayName: profile.displayName ?? null,
    groups: profile.groups,
  };
}

/**
 * Everything the routes work with, made from the configuration and the parts: the one place that
 * turns SVC_* values into the dashboard's pieces (main and the tests both build it here).
 */
export function dashboardContext(config: DashboardConfig, parts: DashboardParts): DashboardContext {
  const { store, logger, mailer, oauth, workspaces } = parts;
  const mapping = {
    adminGroups: config.SVC_AUTH_ROLE_ADMIN_GROUPS,
    editorGroups: config.SVC_AUTH_ROLE_EDITOR_GROUPS,
  };
  const origin = publicOrigin(config);
  const sessions = new SessionCookies(
    config.SVC_SESSION_COOKIE_NAME,
    config.sessionSecret,
    config.SVC_SESSION_TTL,
  );
  const apiKeys = new ApiKeys(
    store,
    apiKeySigningKey(config.SVC_AUTH_API_KEYS_SECRET ?? config.sessionSecret),
    {
      maxPerUser: config.SVC_AUTH_API_KEYS_MAX_PER_USER,
      defaultExpirationDays: config.SVC_AUTH_API_KEYS_DEFAULT_EXPIRATION,
    },
  );
  const externalUsers = new ExternalUsers(store);
  const sessionRevocations = new SessionRevocations(store);
  const accounts =
    config.SVC_AUTH_MODE === 'builtin' && mailer !== undefined
      ? new Accounts(
          store,
          mailer,
          {
            allowSignup: config.SVC_BUILTIN_ALLOW_SIGNUP,
            verifyEmail: config.SVC_BUILTIN_VERIFY_EMAIL,
            minPasswordLength: config.SVC_BUILTIN_MIN_PASSWORD_LENGTH,
            maxFailedAttempts: config.SVC_BUILTIN_MAX_FAILED_ATTEMPTS,
            lockoutSeconds: config.SVC_BUILTIN_LOCKOUT_DURATION,
            resetTokenSeconds: config.SVC_BUILTIN_RESET_TOKEN_EXPIRATION,
            verificationTokenSeconds: config.SVC_BUILTIN_VERIFICATION_TOKEN_EXPIRATION,
            publicOrigin: origin,
            mailConfigured: config.SVC_SMTP_URL !== undefined,
          },
          logger,
        )
      : undefined;
  const authenticator = new Authenticator({
    mode: config.SVC_AUTH_MODE,
    mapping,
    anonymousRole: config.SVC_AUTH_ANONYMOUS_ROLE,
    apiKeysEnabled: config.SVC_AUTH_API_KEYS_ENABLED,
    store,
    apiKeys,
    sessions,
    sessionRevocations,
    externalUsers,
    ...(oauth
      ? { verifyBearer: async (jwt: string) => profileOf(await oauth.verifyBearer(jwt)) }
      : {}),
    ...(config.SVC_AUTH_MODE === 'proxy'
      ? {
          proxy: {
            headers: {
              user: config.SVC_AUTH_PROXY_HEADER_USER,
              email: config.SVC_AUTH_PROXY_HEADER_EMAIL,
              groups: config.SVC_AUTH_PROXY_HEADER_GROUPS,
              displayName: config.SVC_AUTH_PROXY_HEADER_DISPLAY_NAME,
            },
            trusted: trustedPeers(config.SVC_AUTH_PROXY_TRUSTED_ADDRESSES),
            autoSignup: config.SVC_AUTH_PROXY_AUTO_SIGNUP,
          },
        }
      : {}),
  });
  return {
    config,
    logger,
    store,
    mapping,
    sessions,
    sessionRevocations,
    authenticator,
    apiKeys,
    externalUsers,
    publicOrigin: origin,
    now: () => Date.now(),
    ...(accounts ? { accounts } : {}),
    ...(oauth ? { oauth } : {}),
    ...(workspaces ? { workspaces } : {}),
  };
}
