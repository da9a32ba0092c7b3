import type { SessionData } from '../auth/session.js';

/** What the OpenID provider (or GitHub) says of the user who signed in. */
export interface OAuthProfile {
  subject: string;
  username: string;
  email?: string;
  displayName?: string;
  groups: string[];
}

/** The OAuth client as the routes use it (implemented by OAuthClient). */
export interface OAuthLogin {
  startLogin(
    returnTo: string,
  ): Promise<{ redirectUrl: string; pkce: NonNullable<SessionData['pkce']> }>;
  finishLogin(
    callbackUrl: URL,
    pkce: NonNullable<SessionData['pkce']>,
  ): Promise<{ profile: OAuthProfile; oauth: NonNullable<SessionData['oauth']> }>;
  refresh(refreshToken: string): Promise<NonNullable<SessionData['oauth']>>;
  endSessionUrl(idToken: string | undefined): string | undefined;
  verifyBearer(jwt: string): Promise<OAuthProfile>;
}
