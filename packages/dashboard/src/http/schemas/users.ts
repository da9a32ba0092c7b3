import { Type } from 'typebox';
import { PROVIDERS, ROLES } from '../../auth/user.js';
import { named, Nullable } from './common.js';

export const Role = Type.Enum(
  ROLES,
  named('Role', 'The dashboard role, which decides what the user may do'),
);

/** The user object of the specification, as GET /api/auth/me answers it. */
export const User = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    email: Type.Optional(Type.String()),
    displayName: Type.Optional(Type.String()),
    groups: Type.Array(Type.String()),
    role: Role,
    provider: Type.Enum(PROVIDERS, { description: 'How this request was authenticated' }),
  },
  named('User', 'The user object of the specification'),
);

/** The user as the builtin sign-in and sign-up answer it. */
export const LoginUser = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    email: Type.Optional(Type.String()),
    role: Role,
  },
  named('LoginUser', 'The user as the builtin sign-in and sign-up answer it'),
);

/** A recorded user as admins see it. */
export const AdminUser = Type.Object(
  {
    id: Type.String(),
    username: Type.String(),
    email: Nullable(Type.String()),
    displayName: Nullable(Type.String()),
    groups: Type.Array(Type.String()),
    role: Role,
    roleOverride: Nullable(Role),
    provider: Type.Union([Type.Literal('proxy'), Type.Literal('oauth'), Type.Literal('builtin')]),
    disabled: Type.Boolean(),
    emailVerified: Type.Boolean(),
    created: Type.String({ format: 'date-time' }),
  },
  named('AdminUser', 'A recorded user as admins see it'),
);

/** The change of PATCH /api/users/{id}: role (null: follow the groups), groups, disabled. */
export const UserPatch = Type.Object(
  {
    role: Type.Optional(Nullable(Role)),
    groups: Type.Optional(Type.Array(Type.String())),
    disabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, ...named('UserPatch') },
);

export const UserId = Type.Object({ id: Type.String({ description: 'The user’s `id`.' }) });
