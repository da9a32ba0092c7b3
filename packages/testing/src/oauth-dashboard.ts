import { startDashboard, type RunningDashboard } from './dashboard.js';
import {
  startOidcProvider,
  type AccountClaims,
  type RunningOidcProvider,
} from './oidc-provider.js';
import { freePort } from './ports.js';

export interface OAuthDashboard {
  /** The dashboard's own origin, its SVC_BASE_URL. */
  origin: string;
  op: RunningOidcProvider;
  dashboard: RunningDashboard;
  /** Stops the dashboard, then the provider. */
  stop: () => Promise<void>;
}

/**
 * A dashboard in OAuth mode on a free port, signing in at a test OpenID provider that holds
 * `accounts` and sends the browser back to the dashboard's callback (after logout, to its /login);
 * `env` adds to or overrides the dashboard's SVC_* variables.
 */
export async function startOAuthDashboard(
  accounts: Record<string, AccountClaims>,
  env: Record<string, string> = {},
): Promise<OAuthDashboard> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const op = await startOidcProvider({
    redirectUris: [`${origin}/api/auth/callback`],
    postLogoutRedirectUris: [`${origin}/login`],
    accounts,
  });
  let dashboard: RunningDashboard;
  try {
    dashboard = await startDashboard({
      SVC_AUTH_MODE: 'oauth',
      SVC_LISTEN_ADDR: `127.0.0.1:${port}`,
      SVC_BASE_URL: origin,
      SVC_OAUTH_ISSUER_URL: op.issuer,
      SVC_OAUTH_CLIENT_ID: op.clientId,
      SVC_OAUTH_CLIENT_SECRET: op.clientSecret,
      ...env,
    });
  } catch (error) {
    await op.stop();
    throw error;
  }
  return {
    origin,
    op,
    dashboard,
    stop: async () => {
      await dashboard.stop();
      await op.stop();
    },
  };
}
