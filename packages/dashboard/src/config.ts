import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { env, loadConfig, loggingEnv, mailEnv, type ConfigOf } from '@paddock/common';
import { PROOF_SECRET_NAME } from '@paddock/kube';
import { ROLES } from './auth/user.js';

export const AUTH_MODES = ['anonymous', 'proxy', 'oauth', 'builtin'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

export const OAUTH_PROVIDERS = ['generic', 'google', 'github', 'azure', 'okta'] as const;
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];

/** The specification's neutral provider names, accepted as aliases of the real ones. */
export const OAUTH_PROVIDER_ALIASES: Record<string, OAuthProvider> = {
  provider_web: 'google',
  provider_code: 'github',
  provider_directory: 'azure',
  provider_workforce: 'okta',
};

/** Shortest session secret the specification allows. */
export const MIN_SESSION_SECRET_CHARS = 32;

/**
 * Every SVC_* variable of the dashboard with its default: the specification's, then the ones a
 * deployment needs beyond it (listen address, SMTP, trusted proxies, API key secret).
 */
export const dashboardEnv = {
  SVC_AUTH_MODE: env.oneOf(AUTH_MODES, 'anonymous'),
  SVC_BASE_URL: env.url(),

  SVC_SESSION_SECRET: env.string(),
  SVC_SESSION_COOKIE_NAME: env.string('svc_session'),
  SVC_SESSION_TTL: env.integer(86_400, { min: 60 }),

  SVC_AUTH_ROLE_ADMIN_GROUPS: env.list(),
  SVC_AUTH_ROLE_EDITOR_GROUPS: env.list(),
  SVC_AUTH_ANONYMOUS_ROLE: env.oneOf(ROLES, 'viewer'),

  SVC_AUTH_PROXY_HEADER_USER: env.string('X-Forwarded-User'),
  SVC_AUTH_PROXY_HEADER_EMAIL: env.string('X-Forwarded-Email'),
  SVC_AUTH_PROXY_HEADER_GROUPS: env.string('X-Forwarded-Groups'),
  SVC_AUTH_PROXY_HEADER_DISPLAY_NAME: env.string('X-Forwarded-Preferred-Username'),
  SVC_AUTH_PROXY_AUTO_SIGNUP: env.boolean(true),
  /** Addresses or CIDR ranges of the proxies allowed to assert identity; empty trusts every peer. */
  SVC_AUTH_PROXY_TRUSTED_ADDRESSES: env.list(),

  SVC_OAUTH_PROVIDER: env.oneOf(OAUTH_PROVIDERS, 'generic', OAUTH_PROVIDER_ALIASES),
  SVC_OAUTH_CLIENT_ID: env.string(),
  SVC_OAUTH_CLIENT_SECRET: env.string(),
  SVC_OAUTH_CLIENT_SECRET_FILE: env.string(),
  SVC_OAUTH_ISSUER_URL: env.url(),
  SVC_OAUTH_SCOPES: env.list(),
  SVC_OAUTH_CLAIM_USERNAME: env.string('preferred_username'),
  SVC_OAUTH_CLAIM_EMAIL: env.string('email'),
  SVC_OAUTH_CLAIM_DISPLAY_NAME: env.string('name'),
  SVC_OAUTH_CLAIM_GROUPS: env.string('groups'),
  SVC_OAUTH_DIRECTORY_TENANT_ID: env.string(),
  SVC_OAUTH_WORKFORCE_DOMAIN: env.string(),
  /** The GitHub REST API base, for GitHub Enterprise Server (`https://<host>/api/v3`). */
  SVC_OAUTH_GITHUB_API_URL: env.url('https://api.github.com'),
  /** The GitHub web base, for GitHub Enterprise Server (`https://<host>`). */
  SVC_OAUTH_GITHUB_URL: env.url('https://github.com'),

  SVC_AUTH_API_KEYS_ENABLED: env.boolean(true),
  SVC_AUTH_API_KEYS_MAX_PER_USER: env.integer(10, { min: 1, max: 1000 }),
  SVC_AUTH_API_KEYS_DEFAULT_EXPIRATION: env.integer(90, { min: 0, max: 36_500 }),
  /** Signs API keys; derived from SVC_SESSION_SECRET when unset. */
  SVC_AUTH_API_KEYS_SECRET: env.string(),

  SVC_BUILTIN_STORE_TYPE: env.oneOf(['sqlite', 'postgresql'] as const, 'sqlite', {
    postgres: 'postgresql',
  }),
  SVC_BUILTIN_SQLITE_PATH: env.string('./data/svc-users.db'),
  SVC_BUILTIN_POSTGRES_URL: env.string(),
  SVC_BUILTIN_ALLOW_SIGNUP: env.boolean(false),
  SVC_BUILTIN_VERIFY_EMAIL: env.boolean(false),
  SVC_BUILTIN_MIN_PASSWORD_LENGTH: env.integer(8, { min: 1, max: 1024 }),
  SVC_BUILTIN_MAX_FAILED_ATTEMPTS: env.integer(5, { min: 1 }),
  SVC_BUILTIN_LOCKOUT_DURATION: env.integer(900, { min: 1 }),
  /**
   * Requests a minute one client address may make to each unauthenticated endpoint that costs
   * work (sign-in, sign-up, forgot and reset password, e-mail verification), after a burst of as
   * many. Raise it when many people share one address (a NAT without trusted-proxy headers).
   */
  SVC_BUILTIN_SOURCE_RATE_LIMIT: env.integer(10, { min: 1, max: 100_000 }),
  SVC_BUILTIN_RESET_TOKEN_EXPIRATION: env.integer(3600, { min: 60 }),
  SVC_BUILTIN_VERIFICATION_TOKEN_EXPIRATION: env.integer(86_400, { min: 60 }),
  SVC_BUILTIN_ADMIN_USERNAME: env.string('admin'),
  SVC_BUILTIN_ADMIN_EMAIL: env.string('admin@paddock.invalid'),
  SVC_BUILTIN_ADMIN_PASSWORD: env.string(),

  /** host:port the dashboard listens on. */
  SVC_LISTEN_ADDR: env.address('127.0.0.1:3000'),
  /**
   * `namespace/name` of the Secret whose private key signs the identity proofs of agent pods'
   * sandboxes (the operator's, in its namespace); the dashboard reads it with its own identity.
   */
  SVC_SANDBOX_PROOF_SECRET: env.string(`paddock-system/${PROOF_SECRET_NAME}`),
  ...mailEnv,
  ...loggingEnv,
};

export type DashboardEnv = ConfigOf<typeof dashboardEnv>;

/** The configuration after validation, with what is derived from it. */
export interface DashboardConfig extends DashboardEnv {
  /** The OAuth client secret, from SVC_OAUTH_CLIENT_SECRET or the file SVC_OAUTH_CLIENT_SECRET_FILE. */
  oauthClientSecret: string | undefined;
  /** True when no SVC_SESSION_SECRET was given and a random one was made for this run. */
  sessionSecretGenerated: boolean;
  sessionSecret: string;
}

/** The namespace and name of a `namespace/name` Secret reference, when both are object names. */
export function secretRef(text: string): { namespace: string; name: string } | undefined {
  const [namespace, name, extra] = text.split('/');
  const dns = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;
  if (extra !== undefined || namespace === undefined || name === undefined) return undefined;
  return dns.test(namespace) && dns.test(name) ? { namespace, name } : undefined;
}

/** Reads a file the configuration names; undefined and a problem when it cannot be read. */
export type ReadSecretFile = (path: string) => string;

const readTrimmed: ReadSecretFile = (path) => readFileSync(path, 'utf8').trim();

/** Whether a trusted-proxy entry is an address or CIDR range node:net can check. */
export function isAddressOrRange(entry: string): boolean {
  const [address, bits, extra] = entry.split('/');
  if (extra !== undefined || address === undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Loads and validates the dashboard configuration. Every problem, single-variable or across
 * variables, is reported at once as a ConfigError (the command exits 2).
 */
export function loadDashboardConfig(
  environment: Record<string, string | undefined>,
  options: { randomSecret: () => string; readSecretFile?: ReadSecretFile },
): DashboardConfig {
  const readSecret = options.readSecretFile ?? readTrimmed;
  let oauthClientSecret: string | undefined;
  const parsed = loadConfig(dashboardEnv, environment, (c, problem) => {
    if (
      c.SVC_SESSION_SECRET !== undefined &&
      c.SVC_SESSION_SECRET.length < MIN_SESSION_SECRET_CHARS
    ) {
      problem(
        `SVC_SESSION_SECRET: must be at least ${MIN_SESSION_SECRET_CHARS} characters (it has ${c.SVC_SESSION_SECRET.length})`,
      );
    }
    if (
      c.SVC_AUTH_API_KEYS_SECRET !== undefined &&
      c.SVC_AUTH_API_KEYS_SECRET.length < MIN_SESSION_SECRET_CHARS
    ) {
      problem(`SVC_AUTH_API_KEYS_SECRET: must be at least ${MIN_SESSION_SECRET_CHARS} characters`);
    }
    for (const entry of c.SVC_AUTH_PROXY_TRUSTED_ADDRESSES) {
      if (!isAddressOrRange(entry)) {
        problem(`SVC_AUTH_PROXY_TRUSTED_ADDRESSES: "${entry}" is not an IP address or CIDR range`);
      }
    }
    if (secretRef(c.SVC_SANDBOX_PROOF_SECRET) === undefined) {
      problem('SVC_SANDBOX_PROOF_SECRET: must be namespace/name of a Secret');
    }
    if (c.SVC_BUILTIN_STORE_TYPE === 'postgresql' && c.SVC_BUILTIN_POSTGRES_URL === undefined) {
      problem('SVC_BUILTIN_POSTGRES_URL: required when SVC_BUILTIN_STORE_TYPE is postgresql');
    }
    if (c.SVC_AUTH_MODE !== 'oauth') return;
    if (c.SVC_BASE_URL === undefined) {
      problem(
        'SVC_BASE_URL: required in oauth mode (the callback is {SVC_BASE_URL origin}/api/auth/callback)',
      );
    }
    if (c.SVC_OAUTH_CLIENT_ID === undefined) problem('SVC_OAUTH_CLIENT_ID: required in oauth mode');
    if (c.SVC_OAUTH_CLIENT_SECRET !== undefined && c.SVC_OAUTH_CLIENT_SECRET_FILE !== undefined) {
      problem('SVC_OAUTH_CLIENT_SECRET and SVC_OAUTH_CLIENT_SECRET_FILE: give one, not both');
    } else if (c.SVC_OAUTH_CLIENT_SECRET_FILE !== undefined) {
      try {
        oauthClientSecret = readSecret(c.SVC_OAUTH_CLIENT_SECRET_FILE);
        if (oauthClientSecret === '') {
          problem(`SVC_OAUTH_CLIENT_SECRET_FILE: ${c.SVC_OAUTH_CLIENT_SECRET_FILE} is empty`);
        }
      } catch (err) {
        problem(
          `SVC_OAUTH_CLIENT_SECRET_FILE: cannot read ${c.SVC_OAUTH_CLIENT_SECRET_FILE}: ${(err as Error).message}`,
        );
      }
    } else {
      oauthClientSecret = c.SVC_OAUTH_CLIENT_SECRET;
    }
    switch (c.SVC_OAUTH_PROVIDER) {
      case 'generic':
        if (c.SVC_OAUTH_ISSUER_URL === undefined) {
          problem('SVC_OAUTH_ISSUER_URL: required for provider generic');
        }
        break;
      case 'azure':
        if (c.SVC_OAUTH_DIRECTORY_TENANT_ID === undefined) {
          problem('SVC_OAUTH_DIRECTORY_TENANT_ID: required for provider azure');
        }
        break;
      case 'okta':
        if (c.SVC_OAUTH_WORKFORCE_DOMAIN === undefined) {
          problem('SVC_OAUTH_WORKFORCE_DOMAIN: required for provider okta');
        } else if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(c.SVC_OAUTH_WORKFORCE_DOMAIN)) {
          problem('SVC_OAUTH_WORKFORCE_DOMAIN: must be a host name such as example.okta.com');
        }
        break;
      case 'github':
        if (oauthClientSecret === undefined && c.SVC_OAUTH_CLIENT_SECRET_FILE === undefined) {
          problem(
            'SVC_OAUTH_CLIENT_SECRET: required for provider github (it has no PKCE-only clients)',
          );
        }
        break;
      case 'google':
        break;
    }
  });
  const sessionSecretGenerated = parsed.SVC_SESSION_SECRET === undefined;
  return {
    ...parsed,
    oauthClientSecret,
    sessionSecretGenerated,
    sessionSecret: parsed.SVC_SESSION_SECRET ?? options.randomSecret(),
  };
}

/** The externally visible origin: SVC_BASE_URL's, else the listen address (local use). */
export function publicOrigin(
  config: Pick<DashboardConfig, 'SVC_BASE_URL' | 'SVC_LISTEN_ADDR'>,
): string {
  if (config.SVC_BASE_URL) return config.SVC_BASE_URL.origin;
  const { host, port } = config.SVC_LISTEN_ADDR;
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}
