import * as oidc from 'openid-client';
import {
  createRemoteJWKSet,
  customFetch as joseFetch,
  jwtVerify,
  type JWTVerifyGetKey,
} from 'jose';
import { publicOrigin, type DashboardConfig, type OAuthProvider } from '../config.js';
import type { SessionData } from '../auth/session.js';
import { safeReturnTo } from '../auth/return-to.js';
import { claimNames, profileFromClaims, type ClaimNames } from './claims.js';
import { OAuthError } from './errors.js';
import { fetchGitHubProfile } from './github.js';
import type { OAuthLogin, OAuthProfile } from './login.js';
import { providerSettings, type ProviderSettings } from './providers.js';

export type OAuthTokens = NonNullable<SessionData['oauth']>;
export type PkceData = NonNullable<SessionData['pkce']>;

/** Path of the callback on the dashboard's public origin, the same for every provider. */
export const CALLBACK_PATH = '/api/auth/callback';
/** Where the provider sends the browser after single sign-on logout. */
export const POST_LOGOUT_PATH = '/login';

/**
 * Longest id_token_hint put in a logout URL: an ID token with hundreds of groups would make a URL
 * that servers refuse (Node's default header limit is 16 KB), and client_id identifies us anyway.
 */
const MAX_ID_TOKEN_HINT_CHARS = 6000;
const MAX_ERROR_DESCRIPTION_CHARS = 200;

/** Signature algorithms accepted on Bearer JWTs: asymmetric only, so the JWKS is the only key. */
const BEARER_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
];

/**
 * client_secret_basic, the OpenID default, unless the provider lists only client_secret_post;
 * no secret makes a public client that PKCE alone protects.
 */
function clientAuthentication(
  secret: string | undefined,
  settings: ProviderSettings,
): oidc.ClientAuth {
  if (secret === undefined) return oidc.None();
  // GitHub reads the client's credentials from the form body.
  if (settings.protocol === 'github') return oidc.ClientSecretPost(secret);
  return (as, client, body, headers) => {
    const methods = as.token_endpoint_auth_methods_supported;
    const basic = methods === undefined || methods.includes('client_secret_basic');
    (basic ? oidc.ClientSecretBasic(secret) : oidc.ClientSecretPost(secret))(
      as,
      client,
      body,
      headers,
    );
  };
}

/** What went wrong, with the provider's OAuth error code when it sent one. */
function reason(err: unknown): string {
  if (err instanceof oidc.ResponseBodyError) {
    return bounded(`${err.error}${err.error_description ? ` (${err.error_description})` : ''}`);
  }
  return bounded(err instanceof Error ? err.message : String(err));
}

function bounded(text: string | null): string {
  return (text ?? '').slice(0, MAX_ERROR_DESCRIPTION_CHARS);
}

function tokensFrom(
  response: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers,
  provider: OAuthProvider,
  previousRefreshToken?: string,
): OAuthTokens {
  // The provider's own lifetime in seconds, taken as the response arrives: the library's
  // expiresIn() floors what is left of it, so two refreshes a moment apart could report a later
  // one as expiring first.
  const expiresIn = response.expires_in;
  const refreshToken = response.refresh_token ?? previousRefreshToken;
  // Absent values are left out, not set to undefined, so merging into a session keeps the old ones.
  return {
    accessToken: response.access_token,
    ...(refreshToken !== undefined && { refreshToken }),
    ...(response.id_token !== undefined && { idToken: response.id_token }),
    ...(expiresIn !== undefined && { expiresAt: Date.now() + expiresIn * 1000 }),
    provider,
  };
}

/**
 * The tokens a session keeps: an ID token too long to ever serve as a logout hint is left out, since
 * it would only swell the session cookies past what the server accepts in one request's headers.
 */
export function sessionTokens(tokens: OAuthTokens): OAuthTokens {
  if (tokens.idToken === undefined || tokens.idToken.length <= MAX_ID_TOKEN_HINT_CHARS)
    return tokens;
  const { idToken: _unused, ...kept } = tokens;
  return kept;
}

/**
 * The dashboard's client of its identity provider, made once at start: the authorization code
 * flow with PKCE (S256), state and, for OpenID providers, a nonce; refresh; single sign-on logout;
 * and Bearer JWT verification against the provider's keys.
 */
export class OAuthClient implements OAuthLogin {
  private constructor(
    private readonly settings: ProviderSettings,
    private readonly configuration: oidc.Configuration,
    private readonly names: ClaimNames,
    private readonly origin: string,
    private readonly fetchImpl: typeof fetch,
    private readonly jwks: JWTVerifyGetKey | undefined,
  ) {}

  /** Discovers the provider (OpenID) or describes it (GitHub); failures are OAuthError config_error. */
  static async create(
    config: DashboardConfig,
    fetchImpl: typeof fetch = fetch,
  ): Promise<OAuthClient> {
    const settings = providerSettings(config);
    const clientId = config.SVC_OAUTH_CLIENT_ID;
    if (clientId === undefined) {
      throw new OAuthError('config_error', 'SVC_OAUTH_CLIENT_ID is required');
    }
    const auth = clientAuthentication(config.oauthClientSecret, settings);
    const viaFetch: oidc.CustomFetch = (url, options) => fetchImpl(url, options);
    let configuration: oidc.Configuration;
    if (settings.protocol === 'github') {
      configuration = new oidc.Configuration(
        {
          issuer: settings.issuer,
          authorization_endpoint: settings.authorizationEndpoint,
          token_endpoint: settings.tokenEndpoint,
        },
        clientId,
        undefined,
        auth,
      );
      configuration[oidc.customFetch] = viaFetch;
      if (settings.plainHttp) oidc.allowInsecureRequests(configuration);
    } else {
      try {
        configuration = await oidc.discovery(new URL(settings.issuer), clientId, undefined, auth, {
          [oidc.customFetch]: viaFetch,
          ...(settings.plainHttp && { execute: [oidc.allowInsecureRequests] }),
        });
      } catch (err) {
        throw new OAuthError(
          'config_error',
          `OpenID discovery of ${settings.issuer} failed: ${reason(err)}`,
          { cause: err },
        );
      }
    }
    const jwksUri = configuration.serverMetadata().jwks_uri;
    const jwks =
      settings.protocol === 'oidc' && jwksUri !== undefined
        ? createRemoteJWKSet(new URL(jwksUri), {
            [joseFetch]: (url, options) => fetchImpl(url, options),
          })
        : undefined;
    return new OAuthClient(
      settings,
      configuration,
      claimNames(config),
      publicOrigin(config),
      fetchImpl,
      jwks,
    );
  }

  /** The provider's name, as stored in the session's `oauth.provider`. */
  get provider(): OAuthProvider {
    return this.settings.name;
  }

  get redirectUri(): string {
    return `${this.origin}${CALLBACK_PATH}`;
  }

  private get clientId(): string {
    return this.configuration.clientMetadata().client_id;
  }

  /** The URL to send the browser to, and what the session must keep until the callback. */
  async startLogin(returnTo: string): Promise<{ redirectUrl: string; pkce: PkceData }> {
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const codeChallenge = await oidc.calculatePKCECodeChallenge(codeVerifier);
    const state = oidc.randomState();
    const nonce = this.settings.protocol === 'oidc' ? oidc.randomNonce() : undefined;
    const parameters: Record<string, string> = {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes.join(' '),
      code_challenge: codeChallenge,
      code_challenge_method: 'S256',
      state,
      ...(nonce !== undefined && { nonce }),
      // Google issues refresh tokens only to clients that ask for offline access.
      ...(this.settings.name === 'google' && { access_type: 'offline' }),
    };
    const redirectUrl = oidc.buildAuthorizationUrl(this.configuration, parameters).href;
    return {
      redirectUrl,
      pkce: {
        codeVerifier,
        codeChallenge,
        state,
        ...(nonce !== undefined && { nonce }),
        returnTo: safeReturnTo(returnTo),
      },
    };
  }

  /**
   * Completes the sign-in from the URL the provider redirected the browser to: checks the answer
   * and state, exchanges the code with the PKCE verifier, and reads who signed in.
   */
  async finishLogin(
    callbackUrl: URL,
    pkce: PkceData,
  ): Promise<{ profile: OAuthProfile; oauth: OAuthTokens }> {
    const query = callbackUrl.searchParams;
    const error = query.get('error');
    if (error !== null) {
      const description = bounded(query.get('error_description'));
      if (error === 'access_denied') {
        throw new OAuthError('access_denied', description || 'the sign-in was denied');
      }
      throw new OAuthError(
        'callback_failed',
        `the provider answered ${bounded(error)}: ${description}`,
      );
    }
    if (!query.get('code'))
      throw new OAuthError('no_code', 'the callback carries no authorization code');
    if (query.get('state') !== pkce.state) {
      throw new OAuthError('invalid_state', 'the callback state does not match the sign-in');
    }
    // The registered redirect URI, whatever host or proxy the request came through.
    const current = new URL(this.redirectUri);
    current.search = callbackUrl.search;
    let response: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers;
    try {
      response = await oidc.authorizationCodeGrant(this.configuration, current, {
        pkceCodeVerifier: pkce.codeVerifier,
        expectedState: pkce.state,
        ...(this.settings.protocol === 'oidc' && {
          expectedNonce: pkce.nonce,
          idTokenExpected: true,
        }),
      });
    } catch (err) {
      throw new OAuthError('callback_failed', `the code exchange failed: ${reason(err)}`, {
        cause: err,
      });
    }
    const oauth = tokensFrom(response, this.settings.name);
    if (this.settings.protocol === 'github') {
      return {
        profile: await fetchGitHubProfile(this.settings.apiUrl, oauth.accessToken, this.fetchImpl),
        oauth,
      };
    }
    return { profile: profileFromClaims(await this.claimsOf(response), this.names), oauth };
  }

  /** The ID token's claims, completed by the userinfo endpoint's when the provider has one. */
  private async claimsOf(response: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers) {
    const idClaims = response.claims();
    if (idClaims === undefined)
      throw new OAuthError('invalid_claims', 'the provider returned no ID token');
    if (this.configuration.serverMetadata().userinfo_endpoint === undefined) return idClaims;
    try {
      const userinfo = await oidc.fetchUserInfo(
        this.configuration,
        response.access_token,
        idClaims.sub,
      );
      return { ...idClaims, ...userinfo };
    } catch (err) {
      throw new OAuthError('callback_failed', `reading the user info failed: ${reason(err)}`, {
        cause: err,
      });
    }
  }

  /** New tokens from a refresh token; the old refresh token stays when the provider does not rotate it. */
  async refresh(refreshToken: string): Promise<OAuthTokens> {
    try {
      const response = await oidc.refreshTokenGrant(this.configuration, refreshToken);
      return tokensFrom(response, this.settings.name, refreshToken);
    } catch (err) {
      throw new OAuthError('callback_failed', `the token refresh failed: ${reason(err)}`, {
        cause: err,
      });
    }
  }

  /** The provider's single sign-on logout URL, or undefined when it has none. */
  endSessionUrl(idToken: string | undefined): string | undefined {
    if (!this.settings.singleSignOut) return undefined;
    if (this.configuration.serverMetadata().end_session_endpoint === undefined) return undefined;
    const parameters: Record<string, string> = {
      post_logout_redirect_uri: `${this.origin}${POST_LOGOUT_PATH}`,
      client_id: this.clientId,
    };
    if (idToken !== undefined && idToken.length <= MAX_ID_TOKEN_HINT_CHARS) {
      parameters.id_token_hint = idToken;
    }
    return oidc.buildEndSessionUrl(this.configuration, parameters).href;
  }

  /** Whether Bearer JWTs of this provider can be verified (not GitHub's: its tokens are opaque). */
  get bearerSupported(): boolean {
    return this.jwks !== undefined;
  }

  /**
   * The profile of a Bearer JWT signed by the provider's keys, issued by its issuer for this client
   * and unexpired. Any failure is OAuthError invalid_claims.
   */
  async verifyBearer(jwt: string): Promise<OAuthProfile> {
    if (this.jwks === undefined) {
      throw new OAuthError(
        'config_error',
        `provider ${this.settings.name} does not issue verifiable JWTs`,
      );
    }
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(jwt, this.jwks, {
        issuer: this.configuration.serverMetadata().issuer,
        audience: this.clientId,
        algorithms: BEARER_ALGORITHMS,
        requiredClaims: ['exp', 'sub'],
        clockTolerance: 30,
      }));
    } catch (err) {
      throw new OAuthError('invalid_claims', `the Bearer token was refused: ${reason(err)}`, {
        cause: err,
      });
    }
    return profileFromClaims(payload, this.names);
  }
}
