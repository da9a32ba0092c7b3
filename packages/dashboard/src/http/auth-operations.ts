import { Type } from 'typebox';
import { OAUTH_ERROR_CODES } from '../oauth/errors.js';
import { noBody, operation, REDIRECT, SET_SESSION, SIGN_IN_LIMITS } from './operation.js';
import {
  AuthConfig,
  BuiltinLogin,
  BuiltinSignup,
  EmailOnly,
  LoginAnswer,
  LogoutAnswer,
  OAuthCallbackQuery,
  RefreshAnswer,
  ResetPassword,
  ReturnTo,
  SignupAnswer,
  VerifyEmail,
} from './schemas/auth.js';
import { answer, Success } from './schemas/common.js';
import { User } from './schemas/users.js';

/**
 * The contracts of the authentication routes (auth-routes.ts), one per route: what each takes
 * and answers, and its documentation.
 */

const DONE = { 200: answer('Done.', Success) };
const PASSWORD_TOO_SHORT = 'The password is shorter than SVC_BUILTIN_MIN_PASSWORD_LENGTH.';
const INVALID_TOKEN = 'The token of a mailed link is unknown, used or expired.';

const startLogin = (operationId: string, summary: string, description: string, status: 302 | 303) =>
  operation(
    { operationId, summary, description, tag: 'auth', modes: ['oauth'] },
    {
      querystring: ReturnTo,
      response: {
        [status]: noBody('To the provider’s authorization endpoint.', {
          ...REDIRECT,
          ...SET_SESSION,
        }),
      },
    },
  );

export const AUTH_OPERATIONS = {
  config: operation(
    {
      operationId: 'getAuthConfig',
      summary: 'How to sign in',
      description:
        'The authentication mode and what the sign-in page needs to know, before anyone signs in.',
      tag: 'auth',
    },
    { response: { 200: answer('The configuration.', AuthConfig) } },
  ),
  me: operation(
    {
      operationId: 'getMe',
      summary: 'The current user',
      description:
        'The caller as the dashboard sees them: the user object of the specification, with the ' +
        'current role and groups. `provider` says how the request was authenticated ' +
        '(`api-key` for an API key).',
      tag: 'auth',
    },
    { response: { 200: answer('The user.', Type.Object({ user: User })) } },
  ),
  logout: operation(
    {
      operationId: 'logout',
      summary: 'Sign out',
      description:
        'Clears the session cookie; succeeds without one too. In oauth mode, when the provider ' +
        'supports single sign-on logout, `redirectUrl` is where the browser should go next to ' +
        'end the provider’s session as well (back to `{public_origin}/login`).',
      tag: 'auth',
      readsSession: true,
    },
    {
      response: {
        200: answer('Signed out.', LogoutAnswer, {
          'Set-Cookie': { type: 'string', description: 'Clears the session cookie.' },
        }),
      },
    },
  ),
  logoutEverywhere: operation(
    {
      operationId: 'logoutEverywhere',
      summary: 'Sign out everywhere',
      description:
        'Ends every session of the caller, on every browser and every replica (the others ' +
        'within one second), and clears this request’s session cookie. API keys stay valid: ' +
        'they are listed and revoked under /api/settings/api-keys. A single logout ends only ' +
        'its own session, copies of its cookie included.',
      tag: 'auth',
      errors: { forbidden: 'Anonymous mode: there are no sessions to end.' },
    },
    { response: { 200: answer('Every session of the caller has ended.', Success) } },
  ),
  startLogin: startLogin(
    'startOAuthLogin',
    'Start the OAuth sign-in (link)',
    'Starts the authorization code flow with PKCE and a state value: stores them in a ' +
      'short-lived session cookie (10 minutes) and redirects to the provider. The provider ' +
      'sends the browser back to `/api/auth/callback`.',
    302,
  ),
  startLoginForm: startLogin(
    'startOAuthLoginForm',
    'Start the OAuth sign-in (form)',
    'As `GET /api/auth/login`, for a form post: answers 303. No body is read.',
    303,
  ),
  callback: operation(
    {
      operationId: 'finishOAuthLogin',
      summary: 'OAuth callback',
      description:
        'Where the provider sends the browser back (`{public_origin}/api/auth/callback`). ' +
        'Checks the state against the sign-in’s session cookie, exchanges the code, reads the ' +
        'user’s claims, records the user and starts the session, then redirects to the ' +
        '`returnTo` of the sign-in. Failures never answer JSON: they clear the cookie and ' +
        `redirect to \`/login?error=<code>\` with one of ${OAUTH_ERROR_CODES.map((c) => `\`${c}\``).join(', ')} ` +
        '(`access_denied` also for a disabled user).',
      tag: 'auth',
      modes: ['oauth'],
      readsSession: true,
    },
    {
      querystring: OAuthCallbackQuery,
      response: {
        302: noBody(
          'Signed in: to the `returnTo` of the sign-in (default `/`), with the session ' +
            'cookie. Failed: to `/login?error=<code>`, the cookie cleared.',
          { ...REDIRECT, ...SET_SESSION },
        ),
      },
    },
  ),
  refresh: operation(
    {
      operationId: 'refreshOAuthSession',
      summary: 'Renew the provider’s tokens',
      description:
        'Renews the OAuth access token of the session with its refresh token, and rewrites the ' +
        'session cookie. Only a session cookie from the OAuth sign-in can be refreshed.',
      tag: 'auth',
      modes: ['oauth'],
      errors: {
        invalid_request:
          'The request has no session with a refresh token (authenticated otherwise, or the ' +
          'provider gave none).',
        unauthorized: 'The provider refused to renew the session: sign in again.',
      },
    },
    { response: { 200: answer('Renewed.', RefreshAnswer, SET_SESSION) } },
  ),
  builtinLogin: operation(
    {
      operationId: 'builtinLogin',
      summary: 'Sign in with a password',
      description:
        'Signs in a user of the built-in store and starts the session. Failed attempts are ' +
        'counted per account (per identifier when none matches) and answered alike; ' +
        'SVC_BUILTIN_MAX_FAILED_ATTEMPTS of them lock sign-in for SVC_BUILTIN_LOCKOUT_DURATION ' +
        'seconds and end the account’s sessions.',
      tag: 'builtin',
      modes: ['builtin'],
      errors: [
        {
          invalid_request: 'username or password is missing or not a string.',
          invalid_credentials: 'Wrong username or password.',
          account_locked:
            'Too many failed sign-ins for this account from this address: try again later.',
          email_not_verified:
            'SVC_BUILTIN_VERIFY_EMAIL is on and the address is not confirmed yet.',
          forbidden: 'The account is disabled.',
        },
        SIGN_IN_LIMITS,
      ],
    },
    { body: BuiltinLogin, response: { 200: answer('Signed in.', LoginAnswer, SET_SESSION) } },
  ),
  builtinSignup: operation(
    {
      operationId: 'builtinSignup',
      summary: 'Create an account',
      description:
        'Creates a user of the built-in store (role from no groups: viewer) when ' +
        'SVC_BUILTIN_ALLOW_SIGNUP is on. Signed in at once, unless SVC_BUILTIN_VERIFY_EMAIL is ' +
        'on: then a confirmation mail goes out and `verificationRequired` is true.',
      tag: 'builtin',
      modes: ['builtin'],
      errors: [
        {
          signup_disabled: 'Public sign-up is disabled (SVC_BUILTIN_ALLOW_SIGNUP).',
          invalid_request: 'A field is missing or not acceptable (the message names it).',
          password_too_short: PASSWORD_TOO_SHORT,
          email_exists: 'The e-mail address is already registered.',
          username_exists: 'The username is taken.',
        },
        SIGN_IN_LIMITS,
      ],
    },
    { body: BuiltinSignup, response: { 201: answer('Created.', SignupAnswer, SET_SESSION) } },
  ),
  forgotPassword: operation(
    {
      operationId: 'builtinForgotPassword',
      summary: 'Ask for a password reset mail',
      description:
        'Mails a reset link (`{public_origin}/reset-password?token=…`, valid ' +
        'SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds) when an enabled account has the address. ' +
        'Always answers success, so that it tells nothing of which addresses are registered.',
      tag: 'builtin',
      modes: ['builtin'],
      errors: [{ invalid_request: 'email is not an e-mail address.' }, SIGN_IN_LIMITS],
    },
    { body: EmailOnly, response: DONE },
  ),
  resetPassword: operation(
    {
      operationId: 'builtinResetPassword',
      summary: 'Set a new password with a mailed token',
      description:
        'Sets the password with the token of a reset mail (single use). It also confirms the ' +
        'address, ends every session of the account and lifts a lockout. The user signs in ' +
        'afterwards.',
      tag: 'builtin',
      modes: ['builtin'],
      errors: [
        {
          password_too_short: PASSWORD_TOO_SHORT,
          invalid_request: 'password is not a string, or too long.',
          invalid_token: INVALID_TOKEN,
        },
        SIGN_IN_LIMITS,
      ],
    },
    { body: ResetPassword, response: DONE },
  ),
  verifyEmail: operation(
    {
      operationId: 'builtinVerifyEmail',
      summary: 'Confirm an e-mail address with a mailed token',
      description: 'Confirms the address with the token of a verification mail (single use).',
      tag: 'builtin',
      modes: ['builtin'],
      errors: [{ invalid_token: INVALID_TOKEN }, SIGN_IN_LIMITS],
    },
    { body: VerifyEmail, response: DONE },
  ),
  resendVerification: operation(
    {
      operationId: 'builtinResendVerification',
      summary: 'Ask for a new verification mail',
      description:
        'Mails a fresh verification link when an enabled, unconfirmed account has the address; ' +
        'earlier links stop working. Always answers success, like forgot-password.',
      tag: 'builtin',
      modes: ['builtin'],
      errors: [{ invalid_request: 'email is not an e-mail address.' }, SIGN_IN_LIMITS],
    },
    { body: EmailOnly, response: DONE },
  ),
};
