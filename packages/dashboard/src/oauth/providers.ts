import type { DashboardConfig, OAuthProvider } from '../config.js';
import { OAuthError } from './errors.js';

/** An OpenID Connect provider: everything is discovered from its issuer. */
export interface OidcProviderSettings {
  protocol: 'oidc';
  name: Exclude<OAuthProvider, 'github'>;
  /** The issuer identifier, discovered through /.well-known/openid-configuration. */
  issuer: string;
  scopes: string[];
  /** Whether the provider may offer single sign-on logout (its discovery says whether it does). */
  singleSignOut: true;
  /** An http:// issuer, allowed only because it was configured so (a local provider). */
  plainHttp: boolean;
}

/** GitHub: OAuth 2.0 only, no discovery, the user read from its REST API. */
export interface GitHubProviderSettings {
  protocol: 'github';
  name: 'github';
  /** Identifies the server to the OAuth library; GitHub itself has no issuer. */
  issuer: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Base of the REST API, ending in `/`. */
  apiUrl: string;
  scopes: string[];
  singleSignOut: false;
  plainHttp: boolean;
}

export type ProviderSettings = OidcProviderSettings | GitHubProviderSettings;

export type ProviderConfig = Pick<
  DashboardConfig,
  | 'SVC_OAUTH_PROVIDER'
  | 'SVC_OAUTH_ISSUER_URL'
  | 'SVC_OAUTH_SCOPES'
  | 'SVC_OAUTH_DIRECTORY_TENANT_ID'
  | 'SVC_OAUTH_WORKFORCE_DOMAIN'
  | 'SVC_OAUTH_GITHUB_URL'
  | 'SVC_OAUTH_GITHUB_API_URL'
>;

const OIDC_SCOPES = ['openid', 'profile', 'email'];

export const DEFAULT_SCOPES: Record<OAuthProvider, readonly string[]> = {
  generic: OIDC_SCOPES,
  google: OIDC_SCOPES,
  azure: OIDC_SCOPES,
  okta: [...OIDC_SCOPES, 'groups'],
  github: ['read:user', 'user:email'],
};

/** `path` (relative) under `base`, keeping any path `base` already has (GitHub Enterprise). */
function under(base: URL, path: string): string {
  const folder = base.href.endsWith('/') ? base.href : `${base.href}/`;
  return new URL(path, folder).href;
}

function required<T>(value: T | undefined, variable: string, provider: string): T {
  if (value === undefined)
    throw new OAuthError('config_error', `${variable} is required for provider ${provider}`);
  return value;
}

/** SVC_OAUTH_SCOPES when given, else the provider's defaults; an OIDC sign-in always asks for openid. */
export function scopesFor(
  provider: OAuthProvider,
  configured: readonly string[] | undefined,
): string[] {
  const scopes =
    configured && configured.length > 0 ? [...configured] : [...DEFAULT_SCOPES[provider]];
  if (provider !== 'github' && !scopes.includes('openid')) scopes.unshift('openid');
  return scopes;
}

/** The OIDC issuer of a provider, from the configuration. */
export function issuerFor(config: ProviderConfig): string {
  const name = config.SVC_OAUTH_PROVIDER;
  switch (name) {
    case 'generic':
      return required(config.SVC_OAUTH_ISSUER_URL, 'SVC_OAUTH_ISSUER_URL', name).href;
    case 'google':
      return 'https://accounts.google.com';
    case 'azure': {
      const tenant = required(
        config.SVC_OAUTH_DIRECTORY_TENANT_ID,
        'SVC_OAUTH_DIRECTORY_TENANT_ID',
        name,
      );
      return `https://login.microsoftonline.com/${encodeURIComponent(tenant)}/v2.0`;
    }
    case 'okta': {
      const domain = required(
        config.SVC_OAUTH_WORKFORCE_DOMAIN,
        'SVC_OAUTH_WORKFORCE_DOMAIN',
        name,
      );
      if (!/^[A-Za-z0-9.-]+(:\d+)?$/.test(domain)) {
        throw new OAuthError('config_error', 'SVC_OAUTH_WORKFORCE_DOMAIN must be a host name');
      }
      return `https://${domain}/oauth2/default`;
    }
    case 'github':
      throw new OAuthError('config_error', 'provider github is OAuth 2.0 only and has no issuer');
  }
}

/** How to talk to the configured provider. Throws OAuthError config_error when a value is missing. */
export function providerSettings(config: ProviderConfig): ProviderSettings {
  const name = config.SVC_OAUTH_PROVIDER;
  const scopes = scopesFor(name, config.SVC_OAUTH_SCOPES);
  if (name === 'github') {
    const web = required(config.SVC_OAUTH_GITHUB_URL, 'SVC_OAUTH_GITHUB_URL', name);
    const api = required(config.SVC_OAUTH_GITHUB_API_URL, 'SVC_OAUTH_GITHUB_API_URL', name);
    return {
      protocol: 'github',
      name,
      issuer: web.href,
      authorizationEndpoint: under(web, 'login/oauth/authorize'),
      tokenEndpoint: under(web, 'login/oauth/access_token'),
      apiUrl: under(api, ''),
      scopes,
      singleSignOut: false,
      plainHttp: web.protocol === 'http:' || api.protocol === 'http:',
    };
  }
  const issuer = issuerFor(config);
  return {
    protocol: 'oidc',
    name,
    issuer,
    scopes,
    singleSignOut: true,
    plainHttp: issuer.startsWith('http:'),
  };
}
