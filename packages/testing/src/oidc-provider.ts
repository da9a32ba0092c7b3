import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { freePort } from './ports.js';

interface Interaction {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId: string };
  grantId?: string;
}

interface GrantInstance {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(indicator: string, scope: string): void;
  save(): Promise<string>;
}

interface ProviderInstance {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options: { mergeWithLastSubmission: boolean },
  ): Promise<void>;
  Grant: {
    new (properties: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  };
}

type ProviderConstructor = new (
  issuer: string,
  configuration: Record<string, unknown>,
) => ProviderInstance;

/**
 * oidc-provider, loaded when a provider is first started: every test imports this package, and
 * the module is large (and warns about the Node version when it loads).
 */
async function loadProvider(): Promise<ProviderConstructor> {
  // oidc-provider ships no type declarations; the few members used here are typed above.
  // @ts-expect-error TS7016: no declaration file
  const module = (await import('oidc-provider')) as { default: ProviderConstructor };
  return module.default;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A plain page of the provider (no script, no outside font, so a browser test sees no error). */
function providerPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,"></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

/** Claims of a test account; its id is the `sub`. */
export type AccountClaims = Record<string, unknown>;

export interface OidcProviderOptions {
  /** Where the client may be sent back after sign-in (the dashboard's callback). */
  redirectUris: string[];
  /** Where the client may be sent back after logout. */
  postLogoutRedirectUris?: string[];
  /** Accounts by id. One without preferred_username and email tests the invalid_claims path. */
  accounts: Record<string, AccountClaims>;
  clientId?: string;
  clientSecret?: string;
  /**
   * Whether the ID token carries the profile, e-mail and groups claims too (the default, as
   * most providers do); false leaves them to the userinfo endpoint only.
   */
  claimsInIdToken?: boolean;
  /** Whether each refresh issues a new refresh token; by default the old one stays valid. */
  rotateRefreshTokens?: boolean;
}

export interface RunningOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Signs `account` in at `authorizationUrl` without a browser; the callback URL it is sent to. */
  signIn(authorizationUrl: string, account: string): Promise<URL>;
  /** Denies consent at `authorizationUrl`; the callback URL, carrying `error=access_denied`. */
  deny(authorizationUrl: string): Promise<URL>;
  /**
   * A JWT signed with the provider's own key: by default issued by it for the client, valid for
   * an hour, with the account's claims. `expiresInSeconds` below zero makes an expired one.
   */
  mintJwt(options: {
    account: string;
    audience?: string;
    issuer?: string;
    expiresInSeconds?: number;
    claims?: Record<string, unknown>;
  }): Promise<string>;
  stop(): Promise<void>;
}

/** `count` distinct group names, as a directory with many teams puts in a token. */
export function manyGroups(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `team-${String(i).padStart(4, '0')}`);
}

/** Keeps the cookies a browser would keep across the redirects of one sign-in. */
class CookieJar {
  private readonly cookies = new Map<string, string>();

  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(';', 1)[0] ?? '';
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/**
 * Starts a real OpenID provider (oidc-provider) on 127.0.0.1 with one confidential client, PKCE
 * required, refresh tokens, RP-initiated logout and a `groups` claim. Its interaction pages sign
 * in the account named by the `account` query parameter, or deny with `deny=1`, so a test drives
 * the whole flow with fetch; without either they show a sign-in form that sends them, for a test
 * that drives a browser (its logout pages too are plain pages without outside resources).
 */
export async function startOidcProvider(
  options: OidcProviderOptions,
): Promise<RunningOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = options.clientId ?? 'paddock-dashboard';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = 'test-key';
  const signingJwk = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' };

  const Provider = await loadProvider();
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [signingJwk] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: {
      openid: ['sub'],
      profile: ['name', 'preferred_username', 'groups'],
      email: ['email', 'email_verified'],
      groups: ['groups'],
    },
    conformIdTokenClaims: options.claimsInIdToken === false,
    pkce: { required: () => true },
    ttl: {
      AccessToken: 3600,
      IdToken: 3600,
      RefreshToken: 86_400,
      Grant: 86_400,
      Session: 86_400,
      Interaction: 600,
    },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: { body: string }, form: string) => {
          ctx.body = providerPage(
            'Sign out of the test provider?',
            `${form}<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button>`,
          );
        },
        postLogoutSuccessSource: (ctx: { body: string }) => {
          ctx.body = providerPage('Signed out of the test provider', '<p>You are signed out.</p>');
        },
      },
    },
    interactions: {
      url: (_ctx: unknown, interaction: Interaction) => `/interaction/${interaction.uid}`,
    },
    findAccount: (_ctx: unknown, id: string) => {
      const claims = options.accounts[id];
      if (claims === undefined) return undefined;
      return { accountId: id, claims: () => ({ ...claims, sub: id }) };
    },
    // Every sign-in gets a refresh token, without asking for offline_access.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: () => options.rotateRefreshTokens === true,
  });

  const interact = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const query = new URL(req.url ?? '/', issuer).searchParams;
    const details = await provider.interactionDetails(req, res);
    if (query.get('deny') === '1') {
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: 'End-User aborted interaction' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') {
      if (!query.has('account')) {
        // A browser: the provider's sign-in page, a form that comes back with ?account= or ?deny=1.
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          providerPage(
            'Sign in to the test provider',
            `<form method="get" action="/interaction/${escapeHtml(details.uid)}">
<p><label for="account">Account</label> <input id="account" name="account" autocomplete="username"></p>
<p><button type="submit">Continue</button> <button type="submit" name="deny" value="1">Cancel</button></p>
</form>`,
          ),
        );
        return;
      }
      const accountId = query.get('account') ?? '';
      if (options.accounts[accountId] === undefined) throw new Error(`no account "${accountId}"`);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    // Consent: grant whatever the client asked for.
    const accountId = details.session?.accountId ?? '';
    const grant =
      (details.grantId !== undefined ? await provider.Grant.find(details.grantId) : undefined) ??
      new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    const missing = details.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
    const grantId = await grant.save();
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  };

  const handle = provider.callback();
  const server = createServer((req, res) => {
    if (!req.url?.startsWith('/interaction/')) {
      handle(req, res);
      return;
    }
    interact(req, res).catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  /** Follows the provider's redirects until it sends the browser back to the client. */
  const drive = async (authorizationUrl: string, interaction: string): Promise<URL> => {
    const jar = new CookieJar();
    let url = new URL(authorizationUrl);
    for (let hop = 0; hop < 12; hop++) {
      if (url.origin !== issuer) return url;
      if (url.pathname.startsWith('/interaction/')) url.search = interaction;
      const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
      jar.take(response);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        throw new Error(`the provider answered ${response.status}: ${await response.text()}`);
      }
      await response.body?.cancel();
      url = new URL(location, url);
    }
    throw new Error('too many redirects');
  };

  return {
    issuer,
    clientId,
    clientSecret,
    signIn: (authorizationUrl, account) =>
      drive(authorizationUrl, `?account=${encodeURIComponent(account)}`),
    deny: (authorizationUrl) => drive(authorizationUrl, '?deny=1'),
    mintJwt: async ({ account, audience, issuer: iss, expiresInSeconds = 3600, claims }) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ ...options.accounts[account], ...claims })
        .setProtectedHeader({ alg: 'RS256', kid })
        .setIssuer(iss ?? issuer)
        .setAudience(audience ?? clientId)
        .setSubject(account)
        .setIssuedAt(Math.min(now, now + expiresInSeconds) - 60)
        .setExpirationTime(now + expiresInSeconds)
        .sign(privateKey);
    },
    stop: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
