import { Type } from 'typebox';
import { MAX_PASSWORD_CHARS } from '../../builtin/passwords.js';
import {
  DISPLAY_NAME_MAX_CHARS,
  EMAIL_MAX_CHARS,
  USERNAME_MAX_CHARS,
  USERNAME_MIN_CHARS,
} from '../../builtin/validation.js';
import { AUTH_MODES, OAUTH_PROVIDERS } from '../../config.js';
import { named, Nullable, True } from './common.js';
import { LoginUser } from './users.js';

export const AuthConfig = Type.Object(
  {
    mode: Type.Enum(AUTH_MODES),
    signupAllowed: Type.Boolean({ description: 'builtin mode with sign-up allowed' }),
    verifyEmail: Type.Boolean({ description: 'builtin mode with e-mail verification' }),
    provider: Nullable(Type.Enum(OAUTH_PROVIDERS)),
    apiKeysEnabled: Type.Boolean(),
    minPasswordLength: Type.Integer({ minimum: 1 }),
  },
  named('AuthConfig'),
);

/**
 * A query parameter of the OAuth sign-in, given once or repeated: never refused by the schema,
 * since the sign-in answers a browser, with a redirect (a repeated value is then refused).
 */
const QueryText = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));

/** `?returnTo=` of an OAuth sign-in. */
export const ReturnTo = Type.Object({
  returnTo: QueryText(
    'Where to go after signing in: a path on the dashboard (anything else becomes `/`).',
  ),
});

export const OAuthCallbackQuery = Type.Object({
  code: QueryText('The authorization code (missing: `no_code`).'),
  state: QueryText('The state sent with the sign-in (mismatch: `invalid_state`).'),
  error: QueryText(
    'An error the provider reports instead of a code: `access_denied` stays ' +
      '`access_denied`, any other becomes `callback_failed`.',
  ),
  error_description: QueryText('The provider’s explanation of `error`, logged.'),
});

export const LogoutAnswer = Type.Object({
  success: True,
  redirectUrl: Type.Optional(
    Type.String({ format: 'uri', description: 'The provider’s end-session URL (oauth mode)' }),
  ),
});

export const RefreshAnswer = Type.Object({
  success: True,
  expiresAt: Nullable(
    Type.Integer({
      description: 'When the new access token expires (epoch ms), if the provider says',
    }),
  ),
});

export const BuiltinLogin = Type.Object(
  {
    username: Type.String({ description: 'The username or e-mail address' }),
    password: Type.String(),
  },
  named('BuiltinLogin'),
);

export const BuiltinSignup = Type.Object(
  {
    // Lengths in characters (code points) are checked by the accounts, as the schema counts otherwise.
    username: Type.String({
      description: `${USERNAME_MIN_CHARS} to ${USERNAME_MAX_CHARS} letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit (no \`@\`)`,
    }),
    email: Type.String({ maxLength: EMAIL_MAX_CHARS }),
    password: Type.String({
      description: `At least SVC_BUILTIN_MIN_PASSWORD_LENGTH characters, at most ${MAX_PASSWORD_CHARS}`,
    }),
    displayName: Type.Optional(
      Nullable(Type.String({ description: `At most ${DISPLAY_NAME_MAX_CHARS} characters` })),
    ),
  },
  named('BuiltinSignup'),
);

export const EmailOnly = Type.Object(
  { email: Type.String({ maxLength: EMAIL_MAX_CHARS }) },
  named('EmailOnly'),
);

/**
 * The token of a mailed link: whatever is not one (missing, of another type) is an unknown
 * token, `invalid_token`, as the accounts decide (after the password, for a reset).
 */
const Token = Type.Optional(
  Type.Unknown({ description: 'The token of the mailed link, a string' }),
);

export const ResetPassword = Type.Object({
  token: Token,
  password: Type.String({ description: `At most ${MAX_PASSWORD_CHARS} characters` }),
});

export const VerifyEmail = Type.Object({
  token: Token,
});

export const LoginAnswer = Type.Object({ success: True, user: LoginUser });

export const SignupAnswer = Type.Object({
  success: True,
  user: LoginUser,
  verificationRequired: Type.Boolean({
    description: 'The address must be confirmed before signing in (no session then)',
  }),
});
