import { timingSafeEqual } from 'node:crypto';
import type { SessionData } from '../auth/session.js';

/** What the OpenID provider (or GitHub) says of the user who signed in. */
export interface OAuthProfile {
  subject: string;
  username: string;
  email?: string;
  /** The provider asserts the address is the user's (OpenID `email_verified: true`). */
  emailVerified?: boolean;
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

/**
 * Whether a callback belongs to the sign-in this browser started: its `state` is one string equal
 * to the pending sign-in's. Only such a callback may touch the session; any other (a link from
 * another site with a made-up state, or none) is refused as invalid_state and changes nothing.
 */
export function callbackMatchesPendingLogin<Pending extends { state: string }>(
  state: unknown,
  pending: Pending | undefined,
): pending is Pending {
  if (pending === undefined || typeof state !== 'string') return false;
  const given = Buffer.from(state);
  const expected = Buffer.from(pending.state);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
