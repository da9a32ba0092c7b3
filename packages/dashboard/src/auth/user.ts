/** The dashboard roles, lowest first. */
export const ROLES = ['viewer', 'editor', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** How a request was authenticated: the user object's `provider`. */
export const PROVIDERS = ['anonymous', 'proxy', 'oauth', 'builtin', 'api-key'] as const;
export type Provider = (typeof PROVIDERS)[number];

/** The user object of the specification (returned by login and /api/auth/me). */
export interface User {
  id: string;
  username: string;
  email?: string;
  displayName?: string;
  groups: string[];
  role: Role;
  provider: Provider;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The higher of two roles. */
export function higherRole(a: Role, b: Role): Role {
  return ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b;
}
