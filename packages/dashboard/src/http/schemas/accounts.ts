import { Type } from 'typebox';
import { MAX_PASSWORD_CHARS } from '../../builtin/passwords.js';
import {
  DISPLAY_NAME_MAX_CHARS,
  EMAIL_MAX_CHARS,
  USERNAME_MAX_CHARS,
  USERNAME_MIN_CHARS,
} from '../../builtin/validation.js';
import { named, Nullable } from './common.js';
import { AdminUser, Role } from './users.js';

/** The body of POST /api/auth/builtin/change-password. */
export const ChangePassword = Type.Object(
  {
    currentPassword: Type.String({ description: 'The password the user signs in with now' }),
    newPassword: Type.String({
      description: `At least SVC_BUILTIN_MIN_PASSWORD_LENGTH characters, at most ${MAX_PASSWORD_CHARS}`,
    }),
  },
  { additionalProperties: false, ...named('ChangePassword') },
);

/** The body of POST /api/users: sign-up's fields without the password, plus role and groups. */
export const NewUser = Type.Object(
  {
    // Lengths in characters (code points) are checked by the accounts, as the schema counts otherwise.
    username: Type.String({
      description: `${USERNAME_MIN_CHARS} to ${USERNAME_MAX_CHARS} letters, digits, \`.\`, \`_\` and \`-\`, starting with a letter or digit (no \`@\`)`,
    }),
    email: Type.String({ maxLength: EMAIL_MAX_CHARS }),
    displayName: Type.Optional(
      Nullable(Type.String({ description: `At most ${DISPLAY_NAME_MAX_CHARS} characters` })),
    ),
    role: Type.Optional(
      Type.Union([Role, Type.Null()], {
        description: 'The role override; left out or null: the role follows the groups',
      }),
    ),
    groups: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false, ...named('NewUser') },
);

export const CreatedUser = Type.Object(
  {
    user: AdminUser,
    initialPassword: Type.Optional(
      Type.String({
        description:
          'Without mail (no SVC_SMTP_URL): the generated password, answered this once, for the ' +
          'admin to hand over. The user changes it after signing in.',
      }),
    ),
    setPasswordMailSent: Type.Boolean({
      description:
        'With mail: the user was sent a link to choose their password (valid ' +
        'SVC_BUILTIN_RESET_TOKEN_EXPIRATION seconds); no password is answered.',
    }),
  },
  named('CreatedUser'),
);

/** The body of an action that takes nothing but its path: `{}`. */
export const NoFields = Type.Object({}, { additionalProperties: false, ...named('NoFields') });
