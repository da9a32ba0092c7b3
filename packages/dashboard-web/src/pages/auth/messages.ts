import { ApiError } from '../../api';
import type { AuthConfig } from '../../types';
import { asSentence } from '../sentences';

/** How long a lockout lasts, as the API's message says it ("try again in 15 minutes"). */
function lockoutWait(message: string): string {
  const minutes = /(\d+)\s+minute/.exec(message)?.[1];
  return minutes === undefined
    ? 'Wait a few minutes, then try again.'
    : `Try again in ${minutes} minute${minutes === '1' ? '' : 's'}.`;
}

/**
 * The sentence for an error of the built-in sign-in, sign-up, password and e-mail endpoints: every
 * code the API documents, and the API's own message (as a sentence) for any other.
 */
export function builtinErrorSentence(error: unknown, config: AuthConfig): string {
  if (!(error instanceof ApiError)) {
    return error instanceof Error ? asSentence(error.message) : 'Something went wrong.';
  }
  switch (error.code) {
    case 'invalid_credentials':
      return 'That username or email and password do not match. Check them and try again.';
    case 'account_locked':
      return `This account is temporarily locked after too many failed sign-ins. ${lockoutWait(error.message)}`;
    case 'email_not_verified':
      return 'Your email address is not confirmed yet. Check your mail for the link we sent you, then sign in.';
    case 'signup_disabled':
      return 'Sign-up is closed on this dashboard. Ask an administrator for an account.';
    case 'email_exists':
      return 'An account with this email address already exists. Sign in, or reset its password.';
    case 'username_exists':
      return 'This username is taken. Choose another one.';
    case 'password_too_short':
      return `The password must be at least ${config.minPasswordLength} characters long.`;
    case 'invalid_token':
      return 'This link is invalid, has already been used, or has expired.';
    case 'forbidden':
      return /disabled/i.test(error.message)
        ? 'This account is disabled. Ask an administrator to enable it.'
        : asSentence(error.message);
    case 'network_error':
      return error.message;
    case 'internal_error':
      return 'The dashboard ran into a problem. Please try again in a moment.';
    default:
      return asSentence(error.message);
  }
}

/** The sentence for an OAuth callback failure, sent back as `/login?error=<code>`. */
export function oauthErrorSentence(code: string): string {
  switch (code) {
    case 'invalid_state':
      return 'The sign-in could not be completed: it took too long or was started in another tab. Please sign in again.';
    case 'no_code':
      return 'The identity provider sent you back without a sign-in code. Please sign in again.';
    case 'callback_failed':
      return 'The sign-in could not be completed with the identity provider. Please try again.';
    case 'access_denied':
      return 'Sign-in was cancelled at the identity provider, or your account may not use this dashboard.';
    case 'invalid_claims':
      return 'Your identity provider did not tell the dashboard your username, so you cannot be signed in. Ask your administrator.';
    case 'config_error':
      return 'Sign-in with the identity provider is not set up correctly, or the provider cannot be reached. Ask your administrator.';
    default:
      return 'The sign-in did not complete. Please try again.';
  }
}

const PROVIDER_NAMES: Record<string, string> = {
  google: 'Google',
  provider_web: 'Google',
  github: 'GitHub',
  provider_code: 'GitHub',
  azure: 'Microsoft',
  provider_directory: 'Microsoft',
  okta: 'Okta',
  provider_workforce: 'Okta',
};

/** The identity provider as people know it: "Google", "GitHub", or "single sign-on". */
export function providerName(provider: string | null): string {
  return (provider !== null && PROVIDER_NAMES[provider]) || 'single sign-on';
}
